import { existsSync } from 'node:fs'
import { isSigningKeyCommand, runSigningKeyCommand } from '../adcp/signing/commands.ts'
import { systemClock } from '../platform/clock.ts'
import type { Config } from '../platform/config.ts'
import type { Command } from '../platform/control-socket.ts'
import { sendCommand, socketPath } from '../platform/control-socket.ts'
import { lockOwner } from '../platform/db/data-dir-lock.ts'
import { migrate } from '../platform/db/migrate.ts'
import { openDatabase, requireEmbeddedDatabase } from '../platform/db/open.ts'
import { runKeyCommand } from '../platform/keys/commands.ts'
import type { CreatedKey } from '../platform/keys/keys.ts'

type Output = 'json' | 'create' | 'list' | 'revoke' | 'signing'

/**
 * Runs a key command against DATABASE_URL, or the embedded data dir: directly when no server holds
 * it, through the running server's control socket when one does.
 */
export async function runKeys(config: Config, command: Command, output: Output): Promise<void> {
  let result: unknown
  if (!config.databaseUrl && lockOwner(config.dataDir) !== null && existsSync(socketPath(config.dataDir))) {
    result = await sendCommand(config.dataDir, command)
  } else {
    requireEmbeddedDatabase(config)
    const opened = await openDatabase(config)
    try {
      await migrate(opened.db)
      result = isSigningKeyCommand(command) ? await runSigningKeyCommand(opened.db, systemClock, command) : await runKeyCommand(opened.db, systemClock, command)
    } finally {
      await opened.close()
    }
  }
  print(result, output)
}

function print(result: unknown, output: Output): void {
  if (output === 'signing') {
    process.stdout.write(JSON.stringify(result, null, 2) + '\n')
    return
  }
  if (output === 'json') {
    const r = result as CreatedKey
    const json = 'api_key' in (r as object) ? { client_id: r.client_id, api_key: r.api_key, name: r.name, ...(r.live ? { live: true } : {}) } : result
    process.stdout.write(JSON.stringify(json) + '\n')
    return
  }
  if (output === 'create') {
    const r = result as CreatedKey
    console.log(`client ${r.client_id} (${r.name}), key id ${r.key_id}${r.live ? ', live (comply_test_controller refuses it)' : ''}`)
    console.log(`API key (shown once, store it now): ${r.api_key}`)
    return
  }
  if (output === 'list') {
    const rows = result as { id: number; client_id: number; name: string; key_prefix: string; created_at: string; revoked_at: string | null }[]
    console.log(['id', 'client', 'name', 'prefix', 'created', 'revoked'].join('\t'))
    for (const k of rows) {
      console.log([k.id, k.client_id, k.name, `${k.key_prefix}…`, k.created_at, k.revoked_at ?? '-'].join('\t'))
    }
    return
  }
  console.log(`key ${(result as { id: number }).id} revoked`)
}
