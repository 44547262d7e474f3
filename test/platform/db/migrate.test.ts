import { describe, expect, it } from 'vitest'

import { loadMigrations, migrate, pendingMigrations, splitStatements } from '../../../src/platform/db/migrate.ts'
import { describeEachEngine } from '../../helpers/db.ts'

describe('splitStatements', () => {
  it('splits on statement ends, keeps dollar-quoted bodies whole and drops comment lines', () => {
    const sql = `-- a comment
CREATE TABLE a (x int);
CREATE FUNCTION f() RETURNS trigger AS $$
BEGIN
  NEW.x := 1;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;

INSERT INTO a VALUES (1);`
    const parts = splitStatements(sql)
    expect(parts).toHaveLength(3)
    expect(parts[1]).toContain('RETURN NEW;')
    expect(parts[1]).toMatch(/LANGUAGE plpgsql;$/)
  })

  it('finds numbered migrations in order', () => {
    const ms = loadMigrations()
    expect(ms[0]).toMatchObject({ version: 1, name: 'platform' })
    expect(ms.map((m) => m.version)).toEqual([...ms.map((m) => m.version)].sort((a, b) => a - b))
  })
})

describeEachEngine('migrations', (getDb) => {
  it('are recorded, and applying them again changes nothing', async () => {
    const db = getDb().db
    expect(await pendingMigrations(db)).toEqual([])
    expect(await migrate(db)).toEqual([])
    const { rows } = await db.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version')
    expect(rows.map((r) => r.version)).toEqual(loadMigrations().map((m) => m.version))
  })

  it('roll back a failing migration whole', async () => {
    const db = getDb().db
    const bad = [{ version: 9999, name: 'broken', sql: 'CREATE TABLE half_done (x int);\nSELECT * FROM no_such_table;' }]
    await expect(migrate(db, bad)).rejects.toThrow(/no_such_table/)
    const { rows } = await db.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'half_done'`)
    expect(rows).toHaveLength(0)
    expect(await pendingMigrations(db, bad)).toEqual([9999])
  })
})
