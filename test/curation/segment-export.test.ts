import { afterAll, beforeAll, expect, it } from 'vitest'

import { setSegmentUrls } from '../activation/seed.ts'
import type { TestApp } from '../helpers/app.ts'
import { createTestApp, json } from '../helpers/app.ts'
import { describeEachEngine } from '../helpers/db.ts'

type Headers = Record<string, string>

describeEachEngine('segment URL export (CSV, JSON Lines)', (getDb) => {
  let t: TestApp
  let a: { clientId: number; headers: Headers }
  let b: { headers: Headers }
  let seg: number
  const N = 12_003

  beforeAll(async () => {
    t = await createTestApp(getDb().db, { config: { rateLimitPerMinute: 1_000_000 } })
    a = await t.client('a')
    b = await t.client('b')
    const { rows } = await t.ctx.db.query<{ id: number }>(
      `INSERT INTO segment_requests (client_id, name, prompt, status, created_date, processed_date, url_count)
       VALUES ($1, 'export', 'anything', 'complete', now(), now(), $2) RETURNING id`,
      [a.clientId, N],
    )
    seg = rows[0]!.id
    // A URL with a comma exercises CSV quoting.
    const urls = Array.from({ length: N }, (_, i) => (i === 3 ? 'https://q.example.com/a,b' : `https://s${i % 7}.example.org/a/${i}`))
    await setSegmentUrls(t.ctx.db, a.clientId, seg, urls)
  })
  afterAll(() => t.close())

  const exportSeg = (query = '', headers = a.headers, id: number | string = seg) =>
    t.app.inject({ method: 'GET', url: `/v1/curation/segment-requests/${id}/export${query}`, headers })

  async function paged(): Promise<Record<string, unknown>[]> {
    const out: Record<string, unknown>[] = []
    for (let offset = 0; offset < N; offset += 10_000) {
      const page = json<{ urls: Record<string, unknown>[] }>(
        await t.app.inject({ method: 'GET', url: `/v1/curation/segment-requests/${seg}/urls?limit=10000&offset=${offset}`, headers: a.headers }),
      )
      out.push(...page.urls)
    }
    return out
  }

  it('streams the whole list as JSON Lines, equal to the paged list', async () => {
    const res = await exportSeg('?format=jsonl')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8')
    expect(res.headers['x-total-count']).toBe(String(N))
    const lines = res.body
      .slice(0, -1)
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(lines).toEqual(await paged())
  })

  it('streams the whole list as CSV (the default), equal to the CSV of the paged list', async () => {
    const res = await exportSeg()
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8')
    const pages: string[] = []
    for (let offset = 0; offset < N; offset += 10_000) {
      const page = await t.app.inject({
        method: 'GET',
        url: `/v1/curation/segment-requests/${seg}/urls?limit=10000&offset=${offset}`,
        headers: { ...a.headers, accept: 'text/csv' },
      })
      pages.push(offset === 0 ? page.body : page.body.slice(page.body.indexOf('\r\n') + 2))
    }
    expect(res.body).toBe(pages.join(''))
    expect(res.body).toContain('"https://q.example.com/a,b"')
  })

  it('resumes at an offset: no header, the entries after the ones received', async () => {
    const csvLines = (await exportSeg()).body.split('\r\n')
    const jsonLines = (await exportSeg('?format=jsonl')).body.split('\n')
    for (const offset of [1, 4_999, 5_000, 5_001, N - 1, N]) {
      expect((await exportSeg(`?offset=${offset}`)).body, `csv ${offset}`).toBe(csvLines.slice(offset + 1).join('\r\n'))
      expect((await exportSeg(`?format=jsonl&offset=${offset}`)).body, `jsonl ${offset}`).toBe(jsonLines.slice(offset).join('\n'))
    }
  })

  it('answers 404 for another client’s or an unknown segment, 400/422 for bad input', async () => {
    expect((await exportSeg('', b.headers)).statusCode).toBe(404)
    expect((await exportSeg('', a.headers, 99_999_999)).statusCode).toBe(404)
    expect((await exportSeg('', a.headers, 'x')).statusCode).toBe(400)
    expect((await exportSeg('?format=xml')).statusCode).toBe(422)
    expect((await exportSeg('?offset=-5')).statusCode).toBe(422)
    expect((await exportSeg('?offset=abc')).statusCode).toBe(400)
    expect((await exportSeg('', {})).statusCode).toBe(401)
  })
})
