import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NormalizedUrl } from '../../../src/content/urls/normalize-url.ts'
import { normalizeUrl } from '../../../src/content/urls/normalize-url.ts'
import type { Queryable } from '../../../src/platform/db/db.ts'
import { createWorker } from '../../../src/platform/jobs/worker.ts'
import { scrapingJobs } from '../../../src/scraping/feature.ts'
import { queuePages } from '../../../src/scraping/index/pages-repository.ts'
import { finishChunk, recordChunkProgress } from '../../../src/scraping/jobs/repository.ts'
import { chunkRange, resultsJson } from '../../../src/scraping/jobs/results.ts'
import type { TestApp } from '../../helpers/app.ts'
import { createTestApp, json } from '../../helpers/app.ts'
import { describeEachEngine } from '../../helpers/db.ts'
import { waitFor, whileWorking } from '../../helpers/wait.ts'

type Job = {
  id: number
  status: string
  url_count: number
  created_date: string
  processed_date: string | null
  results: { url: string; tld: string; errors: string[]; content: unknown }[] | null
  submitted_count: number
  invalid_url_count: number
  progress: { done: number; total: number }
  failure_reason: string | null
  invalid_urls?: { index: number; url: string; reason: string }[]
}

const urlsOf = (n: number, host = 'paging.example.com') => Array.from({ length: n }, (_, i) => `https://${host}/p/${i}`)

describe('chunkRange', () => {
  it('names only the chunks that hold the requested entries', () => {
    expect(chunkRange(2500, 0, 1000)).toEqual({ from: 0, to: 0, end: 1000 })
    expect(chunkRange(2500, 999, 2)).toEqual({ from: 0, to: 1, end: 1001 })
    expect(chunkRange(2500, 2000, 10_000)).toEqual({ from: 2, to: 2, end: 2500 })
    expect(chunkRange(1_000_000, 512_345, 10_000)).toEqual({ from: 512, to: 522, end: 522_345 })
    expect(chunkRange(2500, 2500, 10)).toBeNull()
  })
})

describeEachEngine('scrape jobs API', (getDb) => {
  let t: TestApp
  let a: { clientId: number; headers: Record<string, string> }
  let b: { clientId: number; headers: Record<string, string> }
  beforeAll(async () => {
    // Some tests poll far more often than the per-key rate limit allows.
    t = await createTestApp(getDb().db, { config: { rateLimitPerMinute: 1_000_000 } })
    a = await t.client('a')
    b = await t.client('b')
  })
  afterAll(() => t.close())

  const post = (headers: Record<string, string>, body: unknown, extra: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/v1/scraping/jobs', headers: { ...headers, ...extra }, payload: body as object })
  const getJob = (headers: Record<string, string>, id: number | string, query = '') =>
    t.app.inject({ method: 'GET', url: `/v1/scraping/jobs/${id}${query}`, headers })
  const clearUnfinished = () => t.ctx.db.query(`UPDATE scrape_jobs SET status = 'complete' WHERE status IN ('pending', 'processing')`)

  /** Marks every page of a job fetched (errors []) and every chunk done, as workers would. */
  async function complete(jobId: number): Promise<void> {
    const { rows } = await t.ctx.db.query<{ chunk_no: number; urls: string[]; invalid: (string | null)[] | null }>(
      'SELECT chunk_no, urls, invalid FROM scrape_job_chunks WHERE job_id = $1 ORDER BY chunk_no',
      [jobId],
    )
    for (const c of rows) {
      const valid = c.urls.filter((_u, i) => c.invalid?.[i] == null).map((u) => normalizeUrl(u) as NormalizedUrl)
      await queuePages(t.ctx.db, valid, t.ctx.clock.now())
      await t.ctx.db.query(
        `UPDATE pages SET state = 'done', fetched_at = $2, http_status = 200, content_type = 'text/html', title = 'T',
                full_text = 'Some text', language = 'en', word_count = 2, errors = '{E004}',
                metadata = '{"http_status": 200, "content_type": "text/html"}'::jsonb
          WHERE url = ANY($1::text[])`,
        [valid.map((u) => u.url), t.ctx.clock.now()],
      )
      await t.ctx.db.transaction((tx) => finishChunk(tx, jobId, c.chunk_no, t.ctx.clock.now()))
    }
  }

  describe('cancel (an addition to the spec)', () => {
    const cancel = (headers: Record<string, string>, id: number | string) => t.app.inject({ method: 'POST', url: `/v1/scraping/jobs/${id}/cancel`, headers })

    it('cancels an unfinished job: no further chunk runs, the results so far stay readable', async () => {
      const urls = urlsOf(1500, 'cancel.example.com')
      const job = json<Job>(await post(a.headers, { urls }))
      // Chunk 0 (entries 0–999) is fetched before the cancellation, chunk 1 is not.
      const { rows } = await t.ctx.db.query<{ urls: string[] }>('SELECT urls FROM scrape_job_chunks WHERE job_id = $1 AND chunk_no = 0', [job.id])
      const first = rows[0]!.urls.map((u) => normalizeUrl(u) as NormalizedUrl)
      await queuePages(t.ctx.db, first, t.ctx.clock.now())
      await t.ctx.db.query(
        `UPDATE pages SET state = 'done', fetched_at = $2, http_status = 200, content_type = 'text/html', title = 'T', full_text = 'Some text',
                language = 'en', word_count = 2, errors = '{E004}', metadata = '{"http_status": 200}'::jsonb WHERE url = ANY($1::text[])`,
        [first.map((u) => u.url), t.ctx.clock.now()],
      )
      await t.ctx.db.transaction((tx) => finishChunk(tx, job.id, 0, t.ctx.clock.now()))

      const res = await cancel(a.headers, job.id)
      expect(res.statusCode).toBe(200)
      expect(json<Job>(res)).toMatchObject({
        id: job.id,
        status: 'cancelled',
        processed_date: '2026-11-22T10:00:00.000Z',
        progress: { done: 1000, total: 1500 },
      })

      // The handler meeting the job's remaining chunk leaves it alone: it takes no lease and fetches nothing.
      const chunkJob = scrapingJobs(t.ctx).find((h) => h.kind === 'scrape.chunk')!
      const untouched = (): never => {
        throw new Error('the chunk of a cancelled job was worked on')
      }
      const jobCtx = {
        job: { attempts: 1, max_attempts: 5 },
        clock: t.ctx.clock,
        signal: new AbortController().signal,
        finish: untouched,
        withLease: untouched,
      }
      await chunkJob.run({ job_id: job.id, chunk_no: 1 }, jobCtx as unknown as Parameters<typeof chunkJob.run>[1])
      const { rows: chunks } = await t.ctx.db.query<{ done_at: Date | null }>('SELECT done_at FROM scrape_job_chunks WHERE job_id = $1 ORDER BY chunk_no', [
        job.id,
      ])
      expect(chunks.map((c) => c.done_at !== null)).toEqual([true, false])

      const read = json<Job>(await getJob(a.headers, job.id, '?offset=990&limit=20'))
      expect(read.status).toBe('cancelled')
      expect(read.results!.map((r) => r.errors)).toEqual([...Array(10).fill(['E004']), ...Array(10).fill(['E001'])])
      // Cancelling again, or a finished job, is a conflict; the job stays as it is.
      const again = await cancel(a.headers, job.id)
      expect(again.statusCode).toBe(409)
      expect(json(again)).toMatchObject({ error: 'conflict', message: expect.stringContaining('already finished (cancelled)') })
      await t.ctx.db.query(`DELETE FROM jobs WHERE kind LIKE 'scrape.%' AND (payload->>'job_id')::bigint = $1`, [job.id])
    })

    it('answers a finished job 409, another client’s job 404, and a bad id 400 or 422', async () => {
      const job = json<Job>(await post(a.headers, { urls: urlsOf(3, 'done.example.com') }))
      await complete(job.id)
      expect((await cancel(a.headers, job.id)).statusCode).toBe(409)
      const open = json<Job>(await post(a.headers, { urls: urlsOf(3, 'open.example.com') }))
      const theirs = await cancel(b.headers, open.id)
      expect(theirs.statusCode).toBe(404)
      expect(json(await getJob(a.headers, open.id)).status).toBe('pending')
      expect((await cancel(a.headers, 'abc')).statusCode).toBe(400)
      expect((await cancel(a.headers, 0)).statusCode).toBe(422)
      expect((await cancel(a.headers, 999_999)).statusCode).toBe(404)
      await clearUnfinished()
      await t.ctx.db.query(`DELETE FROM jobs WHERE kind LIKE 'scrape.%' AND (payload->>'job_id')::bigint = ANY($1::bigint[])`, [[job.id, open.id]])
    })
  })

  it('creates a pending job: 201 with the spec fields, url_count after de-duplication, invalid entries reported', async () => {
    const urls = [
      'https://www.example.com/a',
      'HTTPS://WWW.EXAMPLE.COM/a#section', // the same URL once normalized
      'not a url',
      'https://www.example.com/b',
      'ftp://example.com/file',
      'not a url', // the same invalid entry again
      '',
    ]
    const res = await post(a.headers, { urls })
    expect(res.statusCode).toBe(201)
    const job = json<Job>(res)
    expect(job).toEqual({
      id: expect.any(Number),
      status: 'pending',
      url_count: 5,
      created_date: '2026-11-22T10:00:00.000Z',
      processed_date: null,
      results: null,
      submitted_count: 7,
      invalid_url_count: 3,
      progress: { done: 0, total: 5 },
      failure_reason: null,
      max_age: null,
      invalid_urls: [
        { index: 2, url: 'not a url', reason: 'not a valid absolute URL' },
        { index: 4, url: 'ftp://example.com/file', reason: 'only http and https URLs can be scraped' },
        { index: 6, url: '', reason: 'URL is empty' },
      ],
    })
    const { rows } = await t.ctx.db.query<{ kind: string; payload: unknown }>(`SELECT kind, payload FROM jobs WHERE kind LIKE 'scrape.%' ORDER BY id`)
    expect(rows).toEqual([
      { kind: 'scrape.register', payload: { job_id: job.id } },
      { kind: 'scrape.chunk', payload: { job_id: job.id, chunk_no: 0 } },
    ])

    // GET shows the same job while it waits; no results before it is complete.
    const got = json<Job>(await getJob(a.headers, job.id))
    expect(got).toEqual({ ...job, invalid_urls: undefined })
    await complete(job.id)
    const done = json<Job>(await getJob(a.headers, job.id))
    expect(done).toMatchObject({ status: 'complete', processed_date: '2026-11-22T10:00:00.000Z', progress: { done: 5, total: 5 } })
    // Results in submission order (first occurrence); invalid entries are E002 results, never dropped.
    expect(done.results!.map((r) => [r.url, r.tld, r.errors])).toEqual([
      ['https://www.example.com/a', 'example.com', ['E004']],
      ['not a url', '', ['E002']],
      ['https://www.example.com/b', 'example.com', ['E004']],
      ['ftp://example.com/file', '', ['E002']],
      ['', '', ['E002']],
    ])
    await clearUnfinished()
  })

  it('keeps invalid entries PostgreSQL could not store as text (NUL, half a surrogate pair), made storable', async () => {
    const res = await post(a.headers, { urls: ['bad\u0000entry', '\uD800', 'https://ok.example.com/'] })
    expect(res.statusCode).toBe(201)
    expect(json<Job>(res).invalid_urls!.map((i) => i.url)).toEqual(['bad\uFFFDentry', '\uFFFD'])
    await clearUnfinished()
  })

  it('refuses unstorable text anywhere else in the body with 400, like every other route', async () => {
    for (const body of [
      { urls: ['https://ok.example.com/'], 'x\u0000': 1 },
      { urls: ['https://ok.example.com/'], note: '\uD800' },
    ]) {
      const res = await post(a.headers, body)
      expect(res.statusCode).toBe(400)
      expect(json<{ error: string; message: string }>(res)).toMatchObject({ error: 'invalid_request' })
    }
    const { rows } = await t.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM scrape_jobs WHERE status IN ('pending', 'processing')`)
    expect(rows[0]!.n).toBe(0)
  })

  it('accepts a body above the default 1 MiB limit on this route', async () => {
    const urls = urlsOf(30_000, 'a-rather-long-host-name-for-a-bigger-body.example.com')
    const body = JSON.stringify({ urls })
    expect(body.length).toBeGreaterThan(2 * 1024 * 1024)
    const res = await t.app.inject({ method: 'POST', url: '/v1/scraping/jobs', headers: { ...a.headers, 'content-type': 'application/json' }, payload: body })
    expect(res.statusCode).toBe(201)
    expect(json<Job>(res)).toMatchObject({ url_count: 30_000, invalid_url_count: 0, invalid_urls: [] })
    const { rows } = await t.ctx.db.query<{ n: number; c: number }>(
      `SELECT count(*)::int AS n, sum(cardinality(urls))::int AS c FROM scrape_job_chunks WHERE job_id = $1`,
      [json<Job>(res).id],
    )
    expect(rows[0]).toEqual({ n: 30, c: 30_000 })
    await clearUnfinished()
  })

  it('pages results in stable submission order across chunk boundaries (limit default 1000, max 10000)', async () => {
    const urls = urlsOf(2500)
    const job = json<Job>(await post(a.headers, { urls }))
    await complete(job.id)
    const page = async (query: string) => json<Job>(await getJob(a.headers, job.id, query)).results!.map((r) => r.url)
    expect(await page('')).toEqual(urls.slice(0, 1000))
    expect(await page('?offset=990&limit=20')).toEqual(urls.slice(990, 1010))
    expect(await page('?offset=2000&limit=10000')).toEqual(urls.slice(2000))
    expect(await page('?offset=2500')).toEqual([])
    expect(await page('?offset=99999999')).toEqual([])
    // The spec's paging loop collects every result exactly once.
    const all: string[] = []
    for (let offset = 0; ; ) {
      const got = await page(`?offset=${offset}&limit=700`)
      all.push(...got)
      offset += got.length
      if (got.length < 700) break
    }
    expect(all).toEqual(urls)
  })

  it('reads only the chunks of the requested page', async () => {
    const job = json<Job>(await post(a.headers, { urls: urlsOf(3500, 'spy.example.com') }))
    await complete(job.id)
    const seen: unknown[][] = []
    const spy: Queryable = {
      query: (sql, params) => {
        // The query's numbers are written into its text (the export runs it through COPY).
        const m = /c\.client_id = (\d+) AND c\.job_id = (\d+) AND c\.chunk_no BETWEEN (\d+) AND (\d+)/.exec(sql)
        if (/FROM scrape_job_chunks/.test(sql)) seen.push(m ? m.slice(1).map(Number) : [...(params ?? [])])
        return t.ctx.db.query(sql, params)
      },
    }
    const text: string[] = []
    for await (const part of resultsJson(spy, a.clientId, { id: job.id, url_count: 3500 }, 1990, 20)) text.push(part)
    // A chunk a query: chunks 1 and 2 (entries 1990..2009), never another.
    expect(seen).toEqual([
      [a.clientId, job.id, 1, 1],
      [a.clientId, job.id, 2, 2],
    ])
    expect((JSON.parse(`[${text.join('')}]`) as { url: string }[]).map((r) => r.url)).toEqual(urlsOf(3500, 'spy.example.com').slice(1990, 2010))
    await clearUnfinished()
  })

  it("answers search with 202 for a job's URLs as soon as they are registered, before any is fetched", async () => {
    const urls = urlsOf(1200, 'registered.example.com')
    const job = json<Job>(await post(a.headers, { urls }))
    const search = (url: string) => t.app.inject({ method: 'GET', url: `/v1/scraping/search?url=${encodeURIComponent(url)}`, headers: b.headers })
    expect((await search(urls[1100]!)).statusCode).toBe(404)
    // Only this job's registering runs here (earlier tests left theirs queued): no chunk is fetched.
    await t.ctx.db.query(`DELETE FROM jobs WHERE kind = 'scrape.register' AND payload->>'job_id' <> $1`, [String(job.id)])
    const register = scrapingJobs(t.ctx).filter((h) => h.kind === 'scrape.register')
    const worker = createWorker({ db: t.ctx.db, clock: t.ctx.clock, handlers: register, pollMs: 20 })
    await whileWorking(worker, () => waitFor(async () => (await search(urls[1100]!)).statusCode === 202, 20_000, 'registration'))
    expect(json(await search(urls[0]!))).toEqual({ url: urls[0], tld: 'example.com', status: 'queued', errors: ['E001'] })
    expect((await search('https://registered.example.com/not-in-the-job')).statusCode).toBe(404)
    expect(json<Job>(await getJob(a.headers, job.id)).status).toBe('pending')
    await clearUnfinished()
  })

  it('shows progress while a job runs', async () => {
    const job = json<Job>(await post(a.headers, { urls: urlsOf(1500, 'progress.example.com') }))
    await recordChunkProgress(t.ctx.db, job.id, 0, 400)
    await recordChunkProgress(t.ctx.db, job.id, 1, 100)
    await t.ctx.db.query(`UPDATE scrape_jobs SET status = 'processing' WHERE id = $1`, [job.id])
    expect(json<Job>(await getJob(a.headers, job.id))).toMatchObject({ status: 'processing', results: null, progress: { done: 500, total: 1500 } })
    await clearUnfinished()
  })

  it('allows 5 unfinished jobs per client; the 6th gets 429 rate_limited with Retry-After', async () => {
    for (let i = 0; i < 5; i++) expect((await post(a.headers, { urls: [`https://limit.example.com/${i}`] })).statusCode).toBe(201)
    const sixth = await post(a.headers, { urls: ['https://limit.example.com/6'] })
    expect(sixth.statusCode).toBe(429)
    expect(sixth.headers['retry-after']).toBe('30')
    expect(json(sixth)).toMatchObject({ error: 'rate_limited', message: expect.stringContaining('5 scrape jobs') })
    // Another client has its own allowance; a finished job frees a slot.
    expect((await post(b.headers, { urls: ['https://limit.example.com/b'] })).statusCode).toBe(201)
    await t.ctx.db.query(
      `UPDATE scrape_jobs SET status = 'complete' WHERE id = (SELECT min(id) FROM scrape_jobs WHERE client_id = $1 AND status = 'pending')`,
      [a.clientId],
    )
    expect((await post(a.headers, { urls: ['https://limit.example.com/7'] })).statusCode).toBe(201)
    await clearUnfinished()
  })

  it("keeps clients apart: another client's job is 404, the list holds only mine", async () => {
    const mine = json<Job>(await post(a.headers, { urls: ['https://tenant.example.com/x'] }))
    const res = await getJob(b.headers, mine.id)
    expect(res.statusCode).toBe(404)
    expect(json(res)).toEqual({ error: 'not_found', message: 'scrape job not found' })
    expect((await getJob(a.headers, 987654321)).statusCode).toBe(404)
    const list = json<Job[]>(await t.app.inject({ method: 'GET', url: '/v1/scraping/jobs', headers: a.headers }))
    expect(list[0]).toMatchObject({ id: mine.id, results: null })
    expect(list.every((j) => j.results === null)).toBe(true)
    const theirs = json<Job[]>(await t.app.inject({ method: 'GET', url: '/v1/scraping/jobs', headers: b.headers }))
    expect(theirs.map((j) => j.id)).not.toContain(mine.id)
    const paged = json<Job[]>(await t.app.inject({ method: 'GET', url: '/v1/scraping/jobs?limit=2&offset=1', headers: a.headers }))
    expect(paged.map((j) => j.id)).toEqual(list.slice(1, 3).map((j) => j.id))
    await clearUnfinished()
  })

  it('replays a retried submission with the same Idempotency-Key instead of creating a second job', async () => {
    const first = await post(a.headers, { urls: ['https://idem.example.com/1'] }, { 'idempotency-key': 'job-1' })
    const again = await post(a.headers, { urls: ['https://idem.example.com/1'] }, { 'idempotency-key': 'job-1' })
    expect(again.statusCode).toBe(201)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(json<Job>(again).id).toBe(json<Job>(first).id)
    await clearUnfinished()
  })

  it.each([
    ['no body fields', {}, 400, 'invalid_request'],
    ['urls as a string', { urls: 'https://a.com/' }, 400, 'invalid_request'],
    ['a number among the urls', { urls: ['https://a.com/', 5] }, 400, 'invalid_request'],
    ['a null among the urls', { urls: [null] }, 400, 'invalid_request'],
    ['an empty urls array', { urls: [] }, 422, 'validation_failed'],
    ['a body that is an array', ['https://a.com/'], 400, 'invalid_request'],
  ])('POST with %s → %i', async (_what, body, status, code) => {
    const res = await post(a.headers, body)
    expect(res.statusCode).toBe(status)
    expect(json(res).error).toBe(code)
  })

  it('refuses more than 1,000,000 URLs with 422, broken JSON with 400, other content types with 415, no key with 401', async () => {
    const tooMany = `{"urls":[${'"x",'.repeat(1_000_000)}"x"]}`
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/scraping/jobs',
      headers: { ...a.headers, 'content-type': 'application/json' },
      payload: tooMany,
    })
    expect(res.statusCode).toBe(422)
    expect(json(res)).toMatchObject({ error: 'validation_failed', details: [{ path: 'body.urls' }] })
    const broken = await t.app.inject({
      method: 'POST',
      url: '/v1/scraping/jobs',
      headers: { ...a.headers, 'content-type': 'application/json' },
      payload: '{"urls":["a"',
    })
    expect(broken.statusCode).toBe(400)
    const text = await t.app.inject({
      method: 'POST',
      url: '/v1/scraping/jobs',
      headers: { ...a.headers, 'content-type': 'text/plain' },
      payload: 'https://a.com/',
    })
    expect(text.statusCode).toBe(415)
    expect((await t.app.inject({ method: 'POST', url: '/v1/scraping/jobs', payload: { urls: ['https://a.com/'] } })).statusCode).toBe(401)
  })

  it.each([
    ['/abc', 400],
    ['/0', 422],
    ['/1?limit=0', 422],
    ['/1?limit=10001', 422],
    ['/1?limit=ten', 400],
    ['/1?offset=-1', 422],
    ['?limit=0', 422],
    ['?limit=many', 400],
    ['?offset=-5', 422],
  ])('GET /v1/scraping/jobs%s → %i', async (path, status) => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/scraping/jobs${path}`, headers: a.headers })
    expect(res.statusCode).toBe(status)
  })
})
