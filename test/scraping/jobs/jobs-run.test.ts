import { afterAll, beforeAll, expect, it } from 'vitest'

import type { TestApp } from '../../helpers/app.ts'
import { json } from '../../helpers/app.ts'
import { describeEachEngine } from '../../helpers/db.ts'
import type { Handler } from '../fixtures/web-server.ts'
import { html, reply } from '../fixtures/web-server.ts'
import type { ScrapingApp, Web } from '../helpers.ts'
import { article, runJobsUntil, startScrapingApp, useTestWeb } from '../helpers.ts'

type Result = { url: string; tld: string; errors: string[]; content: { title: string } | null; ads_txt: { status: string; seller_count: number } | null }
type Job = {
  id: number
  status: string
  processed_date: string | null
  results: Result[] | null
  progress: { done: number; total: number }
  failure_reason: string | null
}

const TEXT = { 'content-type': 'text/plain' }
const slow =
  (ms: number, then: Handler): Handler =>
  (req, res) =>
    void setTimeout(() => then(req, res), ms)

describeEachEngine('scrape jobs end to end (in-process worker)', (getDb) => {
  let app: ScrapingApp
  let t: TestApp
  let web: Web
  let headers: Record<string, string>
  beforeAll(async () => {
    app = await startScrapingApp(getDb().db, {
      'www.alpha.test/one': html(article('Alpha one')),
      'www.alpha.test/two': slow(400, html(article('Alpha two'))),
      'blog.alpha.test/three': html(article('Alpha three')),
      'alpha.test/ads.txt': reply(200, TEXT, 'ssp.com, 1, DIRECT\nssp.com, 2, RESELLER\nother.com, 3, DIRECT\n'),
      'beta.test/thin': html('<html><head><title>Thin</title></head><body><p>Just a few words here.</p></body></html>'),
      'beta.test/ads.txt': reply(404, TEXT, 'no'),
      'gamma.test/pdf': reply(200, { 'content-type': 'application/pdf' }, '%PDF-1.7'),
      'gamma.test/ads.txt': reply(500, TEXT, 'down'),
    })
    ;({ t, web, headers } = app)
  })
  afterAll(() => app.close())

  const getJob = async (id: number, query = '') => json<Job>(await t.app.inject({ method: 'GET', url: `/v1/scraping/jobs/${id}${query}`, headers }))

  it('moves pending → processing → complete and returns one result per distinct URL, ads.txt shared per root domain', async () => {
    const urls = [
      web.at('www.alpha.test', '/one'),
      web.at('www.alpha.test', '/two'),
      web.at('WWW.ALPHA.TEST', '/one#again'),
      web.at('blog.alpha.test', '/three'),
      web.at('beta.test', '/thin'),
      'mailto:someone@example.com',
      web.at('gamma.test', '/pdf'),
      web.at('gamma.test', '/nothing-here'),
    ]
    const created = json<Job>(await t.app.inject({ method: 'POST', url: '/v1/scraping/jobs', headers, payload: { urls } }))
    expect(created.status).toBe('pending')
    const seen = new Set<string>()
    await runJobsUntil(t.ctx, async () => {
      const j = await getJob(created.id)
      seen.add(j.status)
      return j.status === 'complete'
    })
    expect([...seen]).toEqual(expect.arrayContaining(['processing', 'complete']))
    const job = await getJob(created.id)
    expect(job).toMatchObject({ status: 'complete', processed_date: expect.any(String), progress: { done: 7, total: 7 }, failure_reason: null })
    const rows = job.results!.map((r) => ({
      url: r.url,
      tld: r.tld,
      errors: r.errors,
      title: r.content?.title ?? null,
      ads: r.ads_txt && [r.ads_txt.status, r.ads_txt.seller_count],
    }))
    expect(rows).toEqual([
      { url: web.at('www.alpha.test', '/one'), tld: 'alpha.test', errors: [], title: 'Alpha one', ads: ['found', 3] },
      { url: web.at('www.alpha.test', '/two'), tld: 'alpha.test', errors: [], title: 'Alpha two', ads: ['found', 3] },
      { url: web.at('blog.alpha.test', '/three'), tld: 'alpha.test', errors: [], title: 'Alpha three', ads: ['found', 3] },
      { url: web.at('beta.test', '/thin'), tld: 'beta.test', errors: ['E004', 'E005', 'E007'], title: 'Thin', ads: ['not_found', 0] },
      { url: 'mailto:someone@example.com', tld: '', errors: ['E002'], title: null, ads: null },
      { url: web.at('gamma.test', '/pdf'), tld: 'gamma.test', errors: ['E003'], title: null, ads: ['error', 0] },
      { url: web.at('gamma.test', '/nothing-here'), tld: 'gamma.test', errors: ['E002'], title: null, ads: ['error', 0] },
    ])
    // Each root domain's ads.txt was asked for once (over http, after https found no server).
    for (const domain of ['alpha.test', 'beta.test', 'gamma.test']) expect(web.count(domain, '/ads.txt'), domain).toBe(1)
    expect(web.count('www.alpha.test', '/one')).toBe(1)
    const { rows: stored } = await t.ctx.db.query<{ domain: string; status: string }>(`SELECT domain, status FROM ads_txt ORDER BY domain`)
    expect(stored).toEqual([
      { domain: 'alpha.test', status: 'found' },
      { domain: 'beta.test', status: 'not_found' },
      { domain: 'gamma.test', status: 'error' },
    ])
  })

  it('a second job over indexed URLs is served from the index without fetching them again', async () => {
    const before = web.hits.length
    const created = json<Job>(
      await t.app.inject({
        method: 'POST',
        url: '/v1/scraping/jobs',
        headers,
        payload: { urls: [web.at('www.alpha.test', '/one'), web.at('beta.test', '/thin')] },
      }),
    )
    await runJobsUntil(t.ctx, async () => (await getJob(created.id)).status === 'complete')
    expect(web.hits.length).toBe(before)
    expect((await getJob(created.id)).results!.map((r) => r.errors)).toEqual([[], ['E004', 'E005', 'E007']])
  })

  it('reports progress while the job runs: results stay null and 0 < done < total', async () => {
    // Page i answers after 250·i ms, so some pages are in the index while others are still coming;
    // a running chunk writes its progress about once a second.
    const N = 8
    for (let i = 1; i <= N; i++) web.routes.set(`progress${i}.test/page`, slow(250 * i, html(article(`Progress ${i}`))))
    await useTestWeb(t.ctx, web, { fetcher: { headersTimeoutMs: 5_000, totalTimeoutMs: 8_000 } })
    try {
      const urls = Array.from({ length: N }, (_, i) => web.at(`progress${i + 1}.test`, '/page'))
      const created = json<Job>(await t.app.inject({ method: 'POST', url: '/v1/scraping/jobs', headers, payload: { urls } }))
      const seen: Job[] = []
      await runJobsUntil(t.ctx, async () => {
        const j = await getJob(created.id)
        seen.push(j)
        return j.status === 'complete'
      })
      const midway = seen.filter((j) => j.status === 'processing' && j.progress.done > 0 && j.progress.done < N)
      expect(midway.length).toBeGreaterThan(0)
      for (const j of midway) expect(j).toMatchObject({ results: null, processed_date: null, progress: { total: N } })
      // Progress never goes backwards.
      const dones = seen.map((j) => j.progress.done)
      expect(dones).toEqual([...dones].sort((a, b) => a - b))
      expect(seen.at(-1)).toMatchObject({ status: 'complete', progress: { done: N, total: N } })
    } finally {
      await useTestWeb(t.ctx, web)
    }
  })

  it('fails the job, with a reason, when a chunk cannot be processed at all', async () => {
    const created = json<Job>(
      await t.app.inject({ method: 'POST', url: '/v1/scraping/jobs', headers, payload: { urls: [web.at('www.alpha.test', '/poison')] } }),
    )
    // As if workers had died on this chunk on every allowed attempt.
    await t.ctx.db.query(`UPDATE jobs SET attempts = max_attempts WHERE kind = 'scrape.chunk' AND payload->>'job_id' = $1`, [String(created.id)])
    await runJobsUntil(t.ctx, async () => (await getJob(created.id)).status !== 'pending')
    const job = await getJob(created.id)
    expect(job).toMatchObject({ status: 'failed', processed_date: null, results: null, failure_reason: expect.stringContaining('chunk 0') })
    expect(job.failure_reason).toContain('worker lost during the last attempt')
  })
})
