import { afterAll, beforeAll, expect, it } from 'vitest'

import type { NormalizedUrl } from '../../../src/content/urls/normalize-url.ts'
import { normalizeUrl } from '../../../src/content/urls/normalize-url.ts'
import { queuePages } from '../../../src/scraping/index/pages-repository.ts'
import { finishChunk } from '../../../src/scraping/jobs/repository.ts'
import type { TestApp } from '../../helpers/app.ts'
import { createTestApp, json } from '../../helpers/app.ts'
import { describeEachEngine } from '../../helpers/db.ts'

type Headers = Record<string, string>

describeEachEngine('scrape job export (JSON Lines)', (getDb) => {
  let t: TestApp
  let a: { headers: Headers }
  let b: { headers: Headers }
  let jobId: number
  const N = 12_345

  beforeAll(async () => {
    t = await createTestApp(getDb().db, { config: { rateLimitPerMinute: 1_000_000 } })
    a = await t.client('a')
    b = await t.client('b')
    // Every 1000th entry is not a URL (it becomes an E002 result); pages of every third host are fetched.
    const urls = Array.from({ length: N }, (_, i) => (i % 1000 === 7 ? `not a url ${i}` : `https://site${i % 5}.example.com/p/${i}`))
    const res = await t.app.inject({ method: 'POST', url: '/v1/scraping/jobs', headers: a.headers, payload: { urls } })
    expect(res.statusCode).toBe(201)
    jobId = json<{ id: number }>(res).id
    const { rows } = await t.ctx.db.query<{ chunk_no: number; urls: string[]; invalid: (string | null)[] | null }>(
      'SELECT chunk_no, urls, invalid FROM scrape_job_chunks WHERE job_id = $1 ORDER BY chunk_no',
      [jobId],
    )
    for (const c of rows) {
      const valid = c.urls.filter((_u, i) => c.invalid?.[i] == null).map((u) => normalizeUrl(u) as NormalizedUrl)
      await queuePages(t.ctx.db, valid, t.ctx.clock.now())
      await t.ctx.db.query(
        `UPDATE pages SET state = 'done', fetched_at = $2, http_status = 200, content_type = 'text/html', title = 'T',
                full_text = 'Some text', language = 'en', word_count = 2, errors = '{E004}', metadata = '{"http_status": 200}'::jsonb
          WHERE url = ANY($1::text[]) AND host LIKE 'site0%'`,
        [valid.map((u) => u.url), t.ctx.clock.now()],
      )
      await t.ctx.db.transaction((tx) => finishChunk(tx, jobId, c.chunk_no, t.ctx.clock.now()))
    }
  })
  afterAll(() => t.close())

  const exportJob = (query = '', headers = a.headers, id: number | string = jobId) =>
    t.app.inject({ method: 'GET', url: `/v1/scraping/jobs/${id}/export${query}`, headers })

  async function paged(): Promise<unknown[]> {
    const out: unknown[] = []
    for (let offset = 0; offset < N; offset += 10_000) {
      const page = json<{ results: unknown[] }>(
        await t.app.inject({ method: 'GET', url: `/v1/scraping/jobs/${jobId}?limit=10000&offset=${offset}`, headers: a.headers }),
      )
      out.push(...page.results)
    }
    return out
  }

  it('streams every result, one per line, equal to the paged results', async () => {
    const res = await exportJob()
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8')
    expect(res.headers['x-total-count']).toBe(String(N))
    expect(res.body.endsWith('\n')).toBe(true)
    const lines = res.body
      .slice(0, -1)
      .split('\n')
      .map((l) => JSON.parse(l) as { url: string; errors: string[] })
    expect(lines).toHaveLength(N)
    expect(lines).toEqual(await paged())
    expect(lines[7]).toMatchObject({ url: 'not a url 7', errors: ['E002'] })
    expect(lines[5]).toMatchObject({ url: 'https://site0.example.com/p/5', errors: ['E004'] })
  })

  it('resumes at an offset: the lines after the ones received', async () => {
    const all = (await exportJob()).body.split('\n')
    for (const offset of [1, 9_999, 10_000, N - 1]) {
      const res = await exportJob(`?offset=${offset}`)
      expect(res.statusCode).toBe(200)
      expect(res.body, String(offset)).toBe(all.slice(offset).join('\n'))
    }
    const past = await exportJob(`?offset=${N}`)
    expect(past.statusCode).toBe(200)
    expect(past.body).toBe('')
  })

  it('answers 409 for a job still running, 404 for another client’s or an unknown one, 400/422 for bad input', async () => {
    const pending = json<{ id: number }>(
      await t.app.inject({ method: 'POST', url: '/v1/scraping/jobs', headers: a.headers, payload: { urls: ['https://x.example.com/'] } }),
    )
    const running = await exportJob('', a.headers, pending.id)
    expect(running.statusCode).toBe(409)
    expect(json(running)).toMatchObject({ error: 'conflict' })
    expect((await exportJob('', b.headers)).statusCode).toBe(404)
    expect((await exportJob('', a.headers, 99_999_999)).statusCode).toBe(404)
    expect((await exportJob('', a.headers, 'abc')).statusCode).toBe(400)
    expect((await exportJob('?offset=-1')).statusCode).toBe(422)
    expect((await exportJob('?offset=x')).statusCode).toBe(400)
    expect((await exportJob('', {})).statusCode).toBe(401)
  })
})
