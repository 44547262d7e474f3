import { join } from 'node:path'

import type { Config } from '../config.ts'
import type { Db } from './db.ts'
import type { DataDirLock } from './data-dir-lock.ts'
import { lockDataDir } from './data-dir-lock.ts'
import { openPglite } from './pglite.ts'
import { openPostgres } from './postgres.ts'

export interface OpenedDb {
  db: Db
  /** Closes the database and releases the data-dir lock. */
  close(): Promise<void>
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
