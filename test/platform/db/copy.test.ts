import { expect, it } from 'vitest'

import { CopyRows, copyField, copyTextArray } from '../../../src/platform/db/copy-text.ts'
import { describeEachEngine } from '../../helpers/db.ts'

const AWKWARD = ['tab\there', 'line\nbreak', 'carriage\rreturn', 'back\\slash', '\\N', 'quote " and \'', 'ünïcødé ✓ 𝄞', '', 'NULL']

describeEachEngine('copyFrom', (get) => {
  const setup = async () => {
    await get().db.exec(`DROP TABLE IF EXISTS copy_probe;
      CREATE TABLE copy_probe (id int NOT NULL, t text, n bigint, b boolean, a text[] NOT NULL, j jsonb, at timestamptz)`)
  }
  const rowsOf = (lines: string[]) => {
    const rows = new CopyRows(16) // small, so it has to grow
    for (const l of lines) rows.add(l)
    return rows.bytes()
  }
  const COLUMNS = ['id', 't', 'n', 'b', 'a', 'j', 'at']

  it('stores every value exactly as given: escapes, nulls, arrays, json, unicode', async () => {
    await setup()
    const lines = AWKWARD.map(
      (t, i) =>
        [
          i,
          copyField(t),
          copyField(i * 1e12),
          copyField(i % 2 === 0),
          copyTextArray([t, 'a,b', '{x}', '']),
          copyField(JSON.stringify({ v: t })),
          '2026-11-24T10:00:00.123Z',
        ].join('\t') + '\n',
    )
    lines.push(['99', '\\N', '\\N', '\\N', copyTextArray([]), '\\N', '\\N'].join('\t') + '\n')
    const n = await get().db.copyFrom('copy_probe', COLUMNS, rowsOf(lines))
    expect(n).toBe(AWKWARD.length + 1)
    const { rows } = await get().db.query<{ id: number; t: string | null; n: number | null; b: boolean | null; a: string[]; j: unknown; at: Date | null }>(
      'SELECT id, t, n, b, a, j, at FROM copy_probe ORDER BY id',
    )
    expect(rows.slice(0, -1)).toEqual(
      AWKWARD.map((t, i) => ({
        id: i,
        t,
        n: i * 1e12,
        b: i % 2 === 0,
        a: [t, 'a,b', '{x}', ''],
        j: { v: t },
        at: new Date('2026-11-24T10:00:00.123Z'),
      })),
    )
    expect(rows.at(-1)).toEqual({ id: 99, t: null, n: null, b: null, a: [], j: null, at: null })
  })

  it('loads inside a transaction, and a failed transaction keeps none of it', async () => {
    await setup()
    const db = get().db
    await expect(
      db.transaction(async (tx) => {
        await tx.copyFrom('copy_probe', ['id', 'a'], rowsOf(['1\t{}\n', '2\t{}\n']))
        throw new Error('rolled back')
      }),
    ).rejects.toThrow('rolled back')
    expect((await db.query('SELECT id FROM copy_probe')).rows).toEqual([])
    await db.transaction((tx) => tx.copyFrom('copy_probe', ['id', 'a'], rowsOf(['3\t{}\n'])))
    expect((await db.query('SELECT id FROM copy_probe')).rows).toEqual([{ id: 3 }])
  })

  it('refuses bad data with its SQLSTATE, loading nothing', async () => {
    await setup()
    const db = get().db
    const err = await db.copyFrom('copy_probe', ['id', 'a'], rowsOf(['1\t{}\n', 'x\t{}\n'])).catch((e: unknown) => e)
    expect((err as { code?: string }).code).toBe('22P02')
    const missing = await db.copyFrom('copy_probe', ['id', 'a'], rowsOf(['\\N\t{}\n'])).catch((e: unknown) => e)
    expect((missing as { code?: string }).code).toBe('23502')
    expect((await db.query('SELECT id FROM copy_probe')).rows).toEqual([])
    // The session is usable afterwards.
    expect(await db.copyFrom('copy_probe', ['id', 'a'], rowsOf(['4\t{}\n']))).toBe(1)
  })

  it('names only plain identifiers', async () => {
    await expect(get().db.copyFrom('copy_probe; DROP TABLE x', ['id'], rowsOf([]))).rejects.toThrow(/identifier/)
    await expect(get().db.copyFrom('copy_probe', ['id"'], rowsOf([]))).rejects.toThrow(/identifier/)
  })
})
