import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import pg from 'pg'
import type { TestProject } from 'vitest/node'

import { migrate } from '../src/platform/db/migrate.ts'
import { openPglite } from '../src/platform/db/pglite.ts'
import { ensureConsoleBuilt } from './helpers/console-build.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string
    postgresUrl: string | null
  }
}

/**
 * Runs once per test run: builds a migrated PGlite data dir that every test file clones (a fresh
 * initdb costs seconds; loading the dump well under one), and finds out whether PostgreSQL is there.
 * With REQUIRE_POSTGRES=1 (CI) a missing server fails the run instead of skipping its half.
 */
export default async function setup(project: TestProject): Promise<void> {
  await ensureConsoleBuilt()
  const db = await openPglite()
  await migrate(db)
  const dump = await db.dump()
  await db.close()
  const dir = mkdtempSync(join(tmpdir(), 'curata-test-'))
  const file = join(dir, 'template.tar')
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()))
  project.provide('pgliteTemplate', file)

  const url = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test'
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 })
  let reachable = false
  try {
    await client.connect()
    await client.query('SELECT 1')
    reachable = true
  } catch (err) {
    if (process.env.REQUIRE_POSTGRES === '1') {
      throw new Error(`REQUIRE_POSTGRES=1 but PostgreSQL at ${url} is unreachable: ${(err as Error).message}`)
    }
    console.warn(`PostgreSQL at ${url} is unreachable: the PostgreSQL half of the suite is skipped`)
  } finally {
    await client.end().catch(() => {})
  }
  project.provide('postgresUrl', reachable ? url : null)
}
