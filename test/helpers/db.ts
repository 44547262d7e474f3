import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'

import pg from 'pg'
import { afterAll, beforeAll, describe, inject } from 'vitest'

import type { Db, Engine } from '../../src/platform/db/db.ts'
import { migrate } from '../../src/platform/db/migrate.ts'
import { openPglite } from '../../src/platform/db/pglite.ts'
import { openPostgres } from '../../src/platform/db/postgres.ts'

export interface TestDb {
  db: Db
  /** PostgreSQL only: the connection string and schema, for child processes sharing this database. */
  url: string | null
  schema: string | null
  close(): Promise<void>
}

const cloneTemplate = (): Promise<Db> => openPglite({ loadDataDir: new Blob([readFileSync(inject('pgliteTemplate'))]) })

// The next PGlite clone, opened while the current suite runs: an engine thread loading the 43 MB
// template takes over a second, and a test fork runs one file after another in the same process
// (vitest.config.ts), so the next file's clone is ready when it asks. The last one of a fork is
// never used; its thread ends with the fork.
let spare: Promise<Db> | null = null

/** A fresh, migrated database on the given engine: a PGlite clone, or a new PostgreSQL schema. */
export async function openTestDb(engine: Engine): Promise<TestDb> {
  if (engine === 'pglite') {
    const next = spare ?? cloneTemplate()
    spare = cloneTemplate()
    spare.catch(() => {}) // a failure shows when that clone is asked for
    const db = await next
    return { db, url: null, schema: null, close: () => db.close() }
  }
  const url = inject('postgresUrl')
  if (!url) throw new Error('PostgreSQL is not available')
  const schema = `t_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`CREATE SCHEMA ${schema}`)
  await admin.end()
  const db = await openPostgres({ connectionString: url, schema, max: 5 })
  await migrate(db)
  return {
    db,
    url,
    schema,
    async close() {
      await db.close().catch(() => {}) // a test may have closed it already
      const c = new pg.Client({ connectionString: url })
      await c.connect()
      await c.query(`DROP SCHEMA ${schema} CASCADE`)
      await c.end()
    },
  }
}

export const postgresAvailable = () => inject('postgresUrl') !== null

/**
 * Declares the suite once per engine. The PostgreSQL copy is skipped, visibly, when no server is
 * reachable; `get()` returns the database opened for that copy.
 */
export function describeEachEngine(title: string, body: (get: () => TestDb, engine: Engine) => void): void {
  for (const engine of ['pglite', 'postgres'] as const) {
    const skip = engine === 'postgres' && !postgresAvailable()
    describe.skipIf(skip)(`${title} [${engine}]`, () => {
      let t: TestDb | null = null
      beforeAll(async () => {
        t = await openTestDb(engine)
      })
      afterAll(async () => {
        await t?.close()
      })
      body(() => {
        if (!t) throw new Error('database not open yet')
        return t
      }, engine)
    })
  }
}
