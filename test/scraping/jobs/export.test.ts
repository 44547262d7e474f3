import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { NormalizedUrl } from '../../../src/content/urls/normalize-url.ts'
import { normalizeUrl } from '../../../src/content/urls/normalize-url.ts'
import { queuePages } from '../../../src/scraping/index/pages-repository.ts'
import { finishChunk } from '../../../src/scraping/jobs/repository.ts'
import { withMissingFilled } from '../../../src/scraping/jobs/results.ts'
import { adsTxtByDomain, pagesByUrl, toScrapeResult } from '../../../src/scraping/search/scrape-result.ts'
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

  it('writes each result as toScrapeResult builds it: dates, text to escape, every metadata key, a queued page, ads.txt', async () => {
    const urls = ['https://rich.example.org/a', 'https://rich.example.org/b', 'https://www.other.example.net/q?x=1', 'not a url']
    const res = await t.app.inject({ method: 'POST', url: '/v1/scraping/jobs', headers: a.headers, payload: { urls } })
    const id = json<{ id: number }>(res).id
    const valid = urls.slice(0, 3).map((u) => normalizeUrl(u) as NormalizedUrl)
    await queuePages(t.ctx.db, valid, t.ctx.clock.now())
    const meta = {
      http_status: 200,
      content_type: 'text/html; charset=utf-8',
      canonical_url: 'https://rich.example.org/a',
      og_title: 'Ünïcode "quoted" \\ back',
      og_description: null,
      og_image: 'https://rich.example.org/i.png',
      og_type: 'article',
      author: 'A. Writer',
      meta_description: 'line one\nline two\ttab',
      robots: null,
      date_evidence: { source: 'json-ld', value: '2026-01-02' },
    }
    await t.ctx.db.query(
      `UPDATE pages SET state = 'done', fetched_at = $2, title = $3, full_text = $4, language = 'fr', word_count = 5, errors = '{}',
              metadata = $5::jsonb, published_date = '2026-01-02T03:04:05.678Z', last_updated_date = '2026-02-03T04:05:06.789123Z'
        WHERE url = $1`,
      [valid[0]!.url, t.ctx.clock.now(), 'Titre « é » \u0001', 'Text with "quotes", \\ a backslash,\nnew lines and emoji 🎉 \u2028.', JSON.stringify(meta)],
    )
    await t.ctx.db.query(
      `UPDATE pages SET state = 'done', fetched_at = $2, full_text = NULL, errors = '{E003,E007}', metadata = '{"http_status": 404}'::jsonb WHERE url = $1`,
      [valid[1]!.url, t.ctx.clock.now()],
    )
    await t.ctx.db.query(
      `INSERT INTO ads_txt (domain, status, seller_count, entries, fetched_at) VALUES ('example.org', 'found', 1, $1::jsonb, now())
       ON CONFLICT (domain) DO NOTHING`,
      [JSON.stringify([{ domain: 'google.com', account_id: 'pub-1', relationship: 'DIRECT' }])],
    )
    await t.ctx.db.transaction((tx) => finishChunk(tx, id, 0, t.ctx.clock.now()))
    const lines = (await exportJob('', a.headers, id)).body
      .slice(0, -1)
      .split('\n')
      .map((l) => JSON.parse(l) as unknown)
    const pages = await pagesByUrl(
      t.ctx.db,
      valid.map((u) => u.url),
    )
    const ads = await adsTxtByDomain(t.ctx.db, ['example.org'])
    expect(lines.slice(0, 3)).toEqual(valid.map((u) => toScrapeResult(pages.get(u.url)!, u.url.includes('example.org') ? ads.get('example.org')! : null)))
    expect(lines[3]).toMatchObject({ url: 'not a url', errors: ['E002'], ads_txt: null })
    expect(lines[0]).toMatchObject({ published_date: '2026-01-02T03:04:05.678Z', last_updated_date: '2026-02-03T04:05:06.789Z', ads_txt: { seller_count: 1 } })
    expect(lines[2]).toMatchObject({ errors: ['E001'], content: null })
    // A URL whose page is gone reads E001 (the database marks it, this side writes it).
    await t.ctx.db.query('DELETE FROM pages WHERE url = $1', [valid[1]!.url])
    const again = (await exportJob('', a.headers, id)).body.slice(0, -1).split('\n')
    expect(again).toHaveLength(4)
    expect(JSON.parse(again[1]!)).toEqual({
      url: valid[1]!.url,
      tld: 'example.org',
      errors: ['E001'],
      published_date: null,
      last_updated_date: null,
      content: null,
      metadata: null,
      ads_txt: null,
    })
  })
})

describe('withMissingFilled', () => {
  const run = async (parts: string[]) => {
    const out: Buffer[] = []
    async function* src() {
      for (const p of parts) yield Buffer.from(p)
    }
    for await (const b of withMissingFilled(src())) out.push(Buffer.from(b))
    return Buffer.concat(out).toString()
  }
  const e001 = (url: string) =>
    JSON.stringify({ url, tld: 'example.com', errors: ['E001'], published_date: null, last_updated_date: null, content: null, metadata: null, ads_txt: null })

  it('passes lines through and writes the result of each `!url` line, wherever the chunks split', async () => {
    const text = '{"a":"x!y"}\n!https://a.example.com/1\n{"b":1}\n!https://b.example.com/2\n'
    const want = `{"a":"x!y"}\n${e001('https://a.example.com/1')}\n{"b":1}\n${e001('https://b.example.com/2')}\n`
    expect(await run([text])).toBe(want)
    for (let i = 1; i < text.length; i++) expect(await run([text.slice(0, i), text.slice(i)]), String(i)).toBe(want)
    expect(await run(text.split(''))).toBe(want)
  })
})
