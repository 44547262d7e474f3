import { existsSync } from 'node:fs'

import type { Config } from '../platform/config.ts'
import { sendCommand, socketPath } from '../platform/control-socket.ts'
import { lockOwner } from '../platform/db/data-dir-lock.ts'
import { openDatabase, requireEmbeddedDatabase } from '../platform/db/open.ts'
import { runPeriodicNow } from '../platform/jobs/queue.ts'

/**
 * `curata catalog refresh`: the catalog job runs now instead of at its next turn. Through the running
 * server's control socket on the embedded engine, on the database directly otherwise.
 */
export async function runCatalogRefresh(config: Config): Promise<void> {
  let moved: boolean
  if (!config.databaseUrl && lockOwner(config.dataDir) !== null && existsSync(socketPath(config.dataDir))) {
    moved = (await sendCommand(config.dataDir, { cmd: 'catalog.refresh', args: {} })) === true
  } else {
    requireEmbeddedDatabase(config)
    const opened = await openDatabase(config)
    try {
      moved = await runPeriodicNow(opened.db, 'curation.catalog', new Date())
    } finally {
      await opened.close()
    }
  }
  console.log(
    moved
      ? 'catalog refresh: the catalog job runs now (GET /v1/curation/catalog shows the result within a minute)'
      : 'catalog refresh: no run was waiting — one is in progress, or no worker has started yet (it runs when one does)',
  )
}
