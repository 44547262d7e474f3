import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'

import type { Config } from '../config.ts'
import { ConfigError } from '../config.ts'
import type { DataDirLock } from './data-dir-lock.ts'
import { lockDataDir } from './data-dir-lock.ts'
import type { Db } from './db.ts'
import { openPglite } from './pglite.ts'
import { openPostgres } from './postgres.ts'

export interface OpenedDb {
  db: Db
  /** Closes the database and releases the data-dir lock. */
  close(): Promise<void>
}

/**
 * Refuses to go on when DATABASE_URL is unset and DATA_DIR holds no embedded database: commands that
 * only use a database (keys, mcp) must not create a second, empty one by accident, e.g. when run
 * from another directory than the server's. `curata serve` and `curata migrate` create it.
 */
export function requireEmbeddedDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): void {
  if (config.databaseUrl || existsSync(join(config.dataDir, 'pgdata'))) return
  throw new ConfigError(
    `no Curata database in ${resolve(config.dataDir)}: start the service there first (npm start), or set DATA_DIR to the data directory of the running server (or DATABASE_URL to its PostgreSQL)`,
  )
}

/** PostgreSQL when DATABASE_URL is set, otherwise the embedded engine under DATA_DIR (locked). */
export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<OpenedDb> {
  if (config.databaseUrl) {
    const db = await openPostgres({ connectionString: config.databaseUrl })
    return { db, close: () => db.close() }
  }
  const lock: DataDirLock = lockDataDir(config.dataDir)
  try {
    const db = await openPglite({ dataDir: join(config.dataDir, 'pgdata') })
    return {
      db,
      async close() {
        await db.close()
        lock.release()
      },
    }
  } catch (err) {
    lock.release()
    throw err
  }
}
