import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

import type { Db } from './db.ts'

export const migrationsDir = fileURLToPath(new URL('../../../migrations/', import.meta.url))

export interface Migration {
  version: number
  name: string
  sql: string
}

/** Numbered forward-only migrations: `NNNN_name.sql`, applied in order, never edited once landed. */
export function loadMigrations(dir = migrationsDir): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.slice(0, 4)), name: f.slice(5, -4), sql: readFileSync(dir + f, 'utf8') }))
}

const ensureTable = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`

/**
 * Applies the pending migrations, each in its own transaction together with its row in
 * schema_migrations. An advisory lock makes concurrent starts of several processes take turns.
 */
export async function migrate(db: Db, migrations = loadMigrations()): Promise<number[]> {
  const applied: number[] = []
  await db.exec(ensureTable)
  for (const m of migrations) {
    const done = await db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.curata_migrate'))`)
      const { rows } = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [m.version])
      if (rows.length) return false
      await runScript(tx, m.sql)
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name])
      return true
    })
    if (done) applied.push(m.version)
  }
  return applied
}

/** Versions known to the code but not applied to the database (readiness check). */
export async function pendingMigrations(db: Db, migrations = loadMigrations()): Promise<number[]> {
  const { rows } = await db.query<{ version: number }>(`SELECT version FROM schema_migrations`).catch(() => ({ rows: [] as { version: number }[] }))
  const have = new Set(rows.map((r) => r.version))
  return migrations.map((m) => m.version).filter((v) => !have.has(v))
}

/**
 * Splits a migration into statements so it can run inside a transaction on both engines (the
 * extended protocol takes one statement at a time). Migrations keep to plain statements ended by
 * `;` at the end of a line; dollar-quoted bodies are kept whole.
 */
export function splitStatements(sql: string): string[] {
  const out: string[] = []
  let current = ''
  let inDollar = false
  for (const line of sql.split('\n')) {
    const trimmed = line.trim()
    if (!inDollar && (trimmed.startsWith('--') || trimmed === '')) continue
    current += line + '\n'
    const dollars = line.match(/\$\$/g)?.length ?? 0
    if (dollars % 2 === 1) inDollar = !inDollar
    if (!inDollar && trimmed.endsWith(';')) {
      out.push(current.trim())
      current = ''
    }
  }
  if (current.trim()) out.push(current.trim())
  return out
}

async function runScript(tx: { query(sql: string): Promise<unknown> }, sql: string): Promise<void> {
  for (const stmt of splitStatements(sql)) await tx.query(stmt)
}
