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

// A PGlite engine whose suite has finished, emptied for the next suite of this fork. Opening a clone
// of the 43 MB template costs about 3 s of CPU (the engine thread, its WebAssembly and the data dir
// load); emptying every table costs 0.3 s. A test fork runs one file after another in the same
// process (vitest.config.ts), so each fork clones about once.
let idle: Db | null = null

const ENGINE_TIMEOUT_MS = 5_000

// The schema's shape: relations, columns, constraints, triggers and functions. A suite that changed
// it (a trigger that breaks updates, a table of its own) gives up its engine instead of passing it on.
const SHAPE = `SELECT md5(string_agg(x, ',' ORDER BY x)) AS shape FROM (
    SELECT 'rel ' || relname || ' ' || relkind::text FROM pg_class WHERE relnamespace = current_schema()::regnamespace
    UNION ALL SELECT 'col ' || attrelid::regclass || '.' || attname || ' ' || atttypid FROM pg_attribute a
      JOIN pg_class c ON c.oid = a.attrelid WHERE c.relnamespace = current_schema()::regnamespace AND attnum > 0 AND NOT attisdropped
    UNION ALL SELECT 'con ' || conname FROM pg_constraint WHERE connamespace = current_schema()::regnamespace
    UNION ALL SELECT 'trg ' || tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE c.relnamespace = current_schema()::regnamespace
    UNION ALL SELECT 'fn ' || proname FROM pg_proc WHERE pronamespace = current_schema()::regnamespace
  ) AS shape(x)`
let templateShape: Promise<string> | null = null
const shapeOf = async (db: Db): Promise<string> => (await db.query<{ shape: string }>(SHAPE)).rows[0]!.shape

/** `work`'s outcome, or `fallback` after ENGINE_TIMEOUT_MS: an engine left inside a transaction never answers. */
async function within<T>(work: Promise<T>, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<T>((r) => (timer = setTimeout(() => r(fallback), ENGINE_TIMEOUT_MS)))
  try {
    return await Promise.race([work, late])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Empties every table but the migrations' record, ids restarted: the state of a fresh clone. False
 * when the engine cannot be passed on: a suite changed its schema, closed it, or left a transaction
 * open on it.
 */
async function reset(db: Db): Promise<boolean> {
  const work = async (): Promise<boolean> => {
    if ((await shapeOf(db)) !== (await templateShape)) return false
    const { rows } = await db.query<{ tables: string }>(
      `SELECT string_agg(format('%I', tablename), ', ') AS tables FROM pg_tables
        WHERE schemaname = current_schema() AND tablename <> 'schema_migrations'`,
    )
    await db.query(`TRUNCATE ${rows[0]!.tables} RESTART IDENTITY CASCADE`)
    return true
  }
  return within(
    work().catch(() => false),
    false,
  )
}

/**
 * The engine as one suite sees it: a handle of its own (caches keyed by the handle start empty) that
 * refuses work once the suite has closed it, and then drops the suite's LISTEN subscriptions. So
 * nothing a suite leaves running (a worker, an app it did not close) can touch the next suite's data.
 * Closing the handle is what a suite that takes its database away (errors.test.ts) sees as closing.
 */
function lease(engine: Db): { db: Db; end(): Promise<void> } {
  let ended = false
  const unlistens = new Set<() => Promise<void>>()
  const end = async (): Promise<void> => {
    ended = true
    await Promise.all([...unlistens].map((u) => u().catch(() => {})))
    unlistens.clear()
  }
  const refuse = () => new Error('test database closed')
  const db = new Proxy(engine, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown
      if (typeof value !== 'function') return value
      if (prop === 'close') return end
      if (prop === 'listen') {
        return async (channel: string, onNotify: (payload: string) => void) => {
          if (ended) throw refuse()
          const unlisten = await target.listen(channel, onNotify)
          unlistens.add(unlisten)
          return async () => {
            unlistens.delete(unlisten)
            await unlisten()
          }
        }
      }
      if (prop === 'copyOut') {
        return (select: string) => {
          if (ended) throw refuse()
          return target.copyOut(select)
        }
      }
      return (...args: unknown[]) => (ended ? Promise.reject(refuse()) : (value as (...a: unknown[]) => unknown).apply(target, args))
    },
  })
  return { db, end }
}

/** Closes an engine, giving up after a while: one left inside a transaction never closes. */
const closeEngine = (db: Db): Promise<void> =>
  within(
    db.close().catch(() => {}),
    undefined,
  )

/** A clone of the migrated template; the first one records the template's shape. */
async function freshClone(): Promise<Db> {
  const db = await cloneTemplate()
  templateShape ??= shapeOf(db)
  try {
    await templateShape
  } catch (err) {
    templateShape = null
    await closeEngine(db)
    throw err
  }
  return db
}

/** A fresh, migrated database on the given engine: an emptied or cloned PGlite, or a new PostgreSQL schema. */
export async function openTestDb(engine: Engine): Promise<TestDb> {
  if (engine === 'pglite') {
    const taken = idle
    idle = null
    const engineDb = taken ?? (await freshClone())
    const handle = lease(engineDb)
    let closed = false
    return {
      db: handle.db,
      url: null,
      schema: null,
      async close() {
        if (closed) return
        closed = true
        await handle.end()
        if (idle === null && (await reset(engineDb))) idle = engineDb
        else await closeEngine(engineDb)
      },
    }
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
