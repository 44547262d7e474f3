import { expect, it } from 'vitest'

import { describeEachEngine } from '../../helpers/db.ts'

const bytesOf = async (it: AsyncIterable<Uint8Array>) => {
  const parts: Buffer[] = []
  for await (const c of it) parts.push(Buffer.from(c.buffer, c.byteOffset, c.byteLength))
  return Buffer.concat(parts).toString('utf8')
}

describeEachEngine('copyOut', (get) => {
  it('hands over each row as its text and a newline, unicode and JSON untouched', async () => {
    const out = await bytesOf(get().db.copyOut(`SELECT x FROM (VALUES ('{"a":"ünïcødé ✓ 𝄞"}', 1), ('back\\slash "q"', 2)) AS v(x, n) ORDER BY n`))
    expect(out).toBe('{"a":"ünïcødé ✓ 𝄞"}\nback\\slash "q"\n')
  })

  it('returns nothing for no rows, and every byte of an output much larger than a piece', async () => {
    expect(await bytesOf(get().db.copyOut('SELECT x FROM (SELECT 1) AS v(x) WHERE false'))).toBe('')
    // Rows of odd lengths, so messages straddle the engine's writes and the pieces' edges.
    const out = await bytesOf(get().db.copyOut(`SELECT i || ':' || repeat('é', i % 997) FROM generate_series(1, 3000) AS i ORDER BY i`))
    const lines = out.split('\n')
    expect(lines.length).toBe(3001)
    expect(lines[2999]).toBe(`3000:${'é'.repeat(3000 % 997)}`)
    expect(lines.every((l, i) => i === 3000 || l === `${i + 1}:${'é'.repeat((i + 1) % 997)}`)).toBe(true)
  })

  it('fails with the SQLSTATE, and the database answers afterwards', async () => {
    const db = get().db
    await expect(bytesOf(db.copyOut('SELECT (1 / 0)::text'))).rejects.toMatchObject({ code: '22012' })
    expect((await db.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }])
  })

  it('does not see a transaction that another caller holds open', async () => {
    const db = get().db
    await db.exec('DROP TABLE IF EXISTS copy_out_probe; CREATE TABLE copy_out_probe (t text)')
    let release = () => {}
    const held = new Promise<void>((r) => (release = r))
    const tx = db.transaction(async (s) => {
      await s.query(`INSERT INTO copy_out_probe VALUES ('uncommitted')`)
      await held
      throw new Error('rolled back')
    })
    tx.catch(() => {})
    await new Promise((r) => setTimeout(r, 50))
    const out = bytesOf(db.copyOut('SELECT t FROM copy_out_probe'))
    release()
    await expect(tx).rejects.toThrow('rolled back')
    expect(await out).toBe('')
  })
})
