import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NormalizedUrl } from '../../../src/content/urls/normalize-url.ts'
import { normalizeUrl } from '../../../src/content/urls/normalize-url.ts'
import { loadConfig } from '../../../src/platform/config.ts'
import { createDbAdsTxtStore } from '../../../src/scraping/ads-txt/db-store.ts'
import { ADS_TXT_TTL_MS } from '../../../src/scraping/ads-txt/service.ts'
import { freshForMs, requestedMaxAgeMs } from '../../../src/scraping/index/freshness.ts'
import { getPageByUrl } from '../../../src/scraping/index/pages-repository.ts'
import type { TestApp } from '../../helpers/app.ts'
import { createTestApp, json } from '../../helpers/app.ts'
import { ManualClock } from '../../helpers/clock.ts'
import { describeEachEngine } from '../../helpers/db.ts'
import type { Handler } from '../fixtures/web-server.ts'
import { html } from '../fixtures/web-server.ts'
import type { Web } from '../helpers.ts'
import { article, startWeb, useTestWeb } from '../helpers.ts'

const HOUR = 3_600_000
const MIN = 60_000
const n = (url: string) => normalizeUrl(url) as NormalizedUrl

describe('freshness rules', () => {
  const cfg = { freshnessMs: 168 * HOUR, failedRetryMs: 15 * MIN, minRefetchMs: MIN }
  it('a good fetch is fresh for the window; a failed one for the retry delay, doubling per failure in a row, capped by the window', () => {
    expect(freshForMs({ errors: [], failed_fetches: 0 }, cfg)).toBe(168 * HOUR)
    expect(freshForMs({ errors: ['E004'], failed_fetches: 0 }, cfg)).toBe(168 * HOUR)
    expect(freshForMs({ errors: ['E002'], failed_fetches: 1 }, cfg)).toBe(15 * MIN)
    expect(freshForMs({ errors: ['E002'], failed_fetches: 2 }, cfg)).toBe(30 * MIN)
    expect(freshForMs({ errors: ['E002'], failed_fetches: 5 }, cfg)).toBe(240 * MIN)
    expect(freshForMs({ errors: ['E002'], failed_fetches: 500 }, cfg)).toBe(168 * HOUR)
  })
  it('max_age and force: seconds to ms, never below the minimum', () => {
    expect(requestedMaxAgeMs({}, cfg)).toBeUndefined()
    expect(requestedMaxAgeMs({ max_age: 3600 }, cfg)).toBe(HOUR)
    expect(requestedMaxAgeMs({ max_age: 0 }, cfg)).toBe(MIN)
    expect(requestedMaxAgeMs({ force: true }, cfg)).toBe(MIN)
    expect(requestedMaxAgeMs({ force: false, max_age: 7200 }, cfg)).toBe(2 * HOUR)
  })
})

describeEachEngine('the content index: freshness window and ads.txt cache', (getDb) => {
  let t: TestApp
  let web: Web
  let adsUp = true
  let flakyUp = false
  const flaky: Handler = (_req, res) => (flakyUp ? html(article('Back again'))(_req, res) : void res.writeHead(503).end())
  const clock = new ManualClock('2026-11-22T10:00:00Z')
  const ads: Handler = (_req, res) =>
    adsUp ? void res.writeHead(200, { 'content-type': 'text/plain' }).end('ssp.com, 7, DIRECT\n') : void res.writeHead(503).end()
  beforeAll(async () => {
    web = await startWeb({ '/a': html(article('Fresh A')), '/b': html(article('Fresh B')), 'fresh.test/ads.txt': ads, '/flaky': flaky })
    // SCRAPE_FRESHNESS_HOURS=2, failures retried after 10 minutes
    const scrape = loadConfig({ SCRAPE_ALLOW_PRIVATE: 'true', SCRAPE_FRESHNESS_HOURS: '2', SCRAPE_FAILED_RETRY_MINUTES: '10' }).scrape
    t = await createTestApp(getDb().db, { clock, config: { scrape, rateLimitPerMinute: 100_000 } })
    await useTestWeb(t.ctx, web)
  })
  afterAll(async () => {
    await t.ctx.scraper.close()
    await t.close()
    await web.close()
  })

  it('keeps one record per normalized URL and re-fetches it only once it is older than the window', async () => {
    const a = n(web.at('www.fresh.test', '/a'))
    const index = (...urls: NormalizedUrl[]) => t.ctx.scraper.indexUrls(urls)
    const ids = await index(a, n(web.at('WWW.FRESH.TEST', '/a#x')))
    expect(ids.size).toBe(1)
    expect(web.count('www.fresh.test', '/a')).toBe(1)
    const first = (await getPageByUrl(t.ctx.db, a.url))!
    expect(first).toMatchObject({ tld: 'fresh.test', host: 'www.fresh.test', state: 'done', errors: [], fetched_at: clock.now() })

    clock.advance(2 * HOUR - 60_000) // still inside the 2-hour window
    expect((await index(a)).get(a.url)).toBe(first.id)
    expect(web.count('www.fresh.test', '/a')).toBe(1)

    clock.advance(2 * 60_000) // now older than the window
    await index(a)
    expect(web.count('www.fresh.test', '/a')).toBe(2)
    const again = (await getPageByUrl(t.ctx.db, a.url))!
    expect(again.id).toBe(first.id)
    expect(again.fetched_at).toEqual(clock.now())
    const { rows } = await t.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM pages WHERE url = $1', [a.url])
    expect(rows[0]!.n).toBe(1)
  })

  it('fetches ads.txt once per root domain, reuses it for 7 days, and keeps the last good copy when a re-fetch fails', async () => {
    const store = createDbAdsTxtStore(t.ctx.db)
    const fetches = () => web.count('fresh.test', '/ads.txt')
    const before = fetches() // the first test indexed a fresh.test URL already
    expect(before).toBe(1)
    expect((await store.get('fresh.test'))!.result).toMatchObject({ status: 'found', seller_count: 1 })

    await t.ctx.scraper.indexUrls([n(web.at('news.fresh.test', '/b')), n(web.at('fresh.test', '/b'))])
    expect(fetches()).toBe(1)

    clock.advance(ADS_TXT_TTL_MS)
    adsUp = false
    await t.ctx.scraper.indexUrls([n(web.at('fresh.test', '/b'))])
    expect(fetches()).toBe(2)
    const kept = (await store.get('fresh.test'))!
    expect(kept.result).toMatchObject({
      status: 'found',
      seller_count: 1,
      entries: [{ domain: 'ssp.com', account_id: '7', relationship: 'DIRECT', certification_id: null }],
    })
    expect(kept.expiresAt).toBe(clock.now().getTime() + HOUR) // errors are retried after an hour

    adsUp = true
    clock.advance(HOUR + 1)
    await t.ctx.scraper.indexUrls([n(web.at('fresh.test', '/b'))])
    expect(fetches()).toBe(3)
    expect((await store.get('fresh.test'))!.expiresAt).toBe(clock.now().getTime() + ADS_TXT_TTL_MS)
  })

  it('stores and reads back every field of an ads.txt result', async () => {
    const store = createDbAdsTxtStore(t.ctx.db)
    expect(await store.get('never.test')).toBeNull()
    const result = {
      status: 'found' as const,
      seller_count: 1,
      entries: [{ domain: 'ssp.com', account_id: 'A-1', relationship: 'RESELLER' as const, certification_id: 'abc' }],
      variables: {
        owner_domain: 'never.test',
        manager_domains: [{ domain: 'm.com', country: 'DE' }],
        contacts: ['ops@never.test'],
        subdomains: [],
        inventory_partner_domains: [],
        other: [],
      },
      invalid_lines: 2,
      domain: 'never.test',
      source_url: 'https://never.test/ads.txt',
      reason: null,
      fetched_at: '2026-11-22T10:00:00.000Z',
    }
    await store.set('never.test', { result, expiresAt: Date.parse('2026-11-29T10:00:00Z') })
    expect(await store.get('never.test')).toEqual({ result, expiresAt: Date.parse('2026-11-29T10:00:00Z') })
  })

  it('retries a failed fetch (E002) after SCRAPE_FAILED_RETRY_MINUTES, twice as late after each failure in a row; a success resets it', async () => {
    const u = n(web.at('www.flaky.test', '/flaky'))
    const page = async () => (await getPageByUrl(t.ctx.db, u.url))!
    const refetched = async (): Promise<boolean> => {
      const before = (await page()).fetched_at!.getTime()
      await t.ctx.scraper.indexUrls([u])
      return (await page()).fetched_at!.getTime() !== before
    }
    await t.ctx.scraper.indexUrls([u])
    expect(await page()).toMatchObject({ errors: ['E002'], failed_fetches: 1 })
    clock.advance(9 * MIN)
    expect(await refetched()).toBe(false)
    clock.advance(2 * MIN)
    expect(await refetched()).toBe(true)
    expect((await page()).failed_fetches).toBe(2)
    clock.advance(11 * MIN) // the second failure waits 20 minutes
    expect(await refetched()).toBe(false)
    clock.advance(10 * MIN)
    expect(await refetched()).toBe(true)
    expect((await page()).failed_fetches).toBe(3)
    flakyUp = true
    clock.advance(41 * MIN)
    expect(await refetched()).toBe(true)
    expect(await page()).toMatchObject({ errors: [], failed_fetches: 0, title: 'Back again' })
    clock.advance(HOUR) // a good copy is fresh for the whole window again
    expect(await refetched()).toBe(false)
  })

  it('max_age / force fetch younger copies of pages and ads.txt, never more often than the minimum', async () => {
    const u = n(web.at('fresh.test', '/a'))
    const maxAgeMs = requestedMaxAgeMs({ force: true }, t.ctx.config.scrape)!
    expect(maxAgeMs).toBe(MIN)
    clock.advance(3 * HOUR)
    await t.ctx.scraper.indexUrls([u], { maxAgeMs }) // the page is stale; the cached ads.txt (7 days) is older than max_age
    const pageFetches = web.count('fresh.test', '/a')
    const adsFetches = web.count('fresh.test', '/ads.txt')
    clock.advance(30_000)
    await t.ctx.scraper.indexUrls([u], { maxAgeMs })
    expect([web.count('fresh.test', '/a'), web.count('fresh.test', '/ads.txt')]).toEqual([pageFetches, adsFetches])
    clock.advance(31_000)
    await t.ctx.scraper.indexUrls([u], { maxAgeMs })
    expect([web.count('fresh.test', '/a'), web.count('fresh.test', '/ads.txt')]).toEqual([pageFetches + 1, adsFetches + 1])
  })

  it('the API takes max_age and force on jobs and searches, and refuses bad values', async () => {
    const { headers } = await t.client('refetch')
    const post = (url: string, payload: unknown) => t.app.inject({ method: 'POST', url, headers, payload: payload as object })
    const urls = [web.at('fresh.test', '/b')]
    const jobs: [unknown, number | null][] = [
      [{ urls }, null],
      [{ urls, force: true }, 60],
      [{ urls, max_age: 5 }, 60],
      [{ urls, max_age: 86_400 }, 86_400],
    ]
    for (const [body, maxAge] of jobs) {
      const res = await post('/v1/scraping/jobs', body)
      expect(res.statusCode, res.body).toBe(201)
      expect(json(res)).toMatchObject({ max_age: maxAge })
      await t.ctx.db.query(`UPDATE scrape_jobs SET status = 'complete' WHERE id = $1`, [json<{ id: number }>(res).id])
    }
    for (const url of ['/v1/scraping/jobs', '/v1/scraping/search']) {
      const base = url.endsWith('jobs') ? { urls } : { url: urls[0] }
      for (const [extra, status] of [
        [{ max_age: -1 }, 422],
        [{ max_age: 1.5 }, 400],
        [{ max_age: 'ten' }, 400],
        [{ force: 'yes' }, 400],
        [{ max_age: 1e12 }, 422],
      ] as const) {
        const res = await post(url, { ...base, ...extra })
        expect(res.statusCode, `${url} ${JSON.stringify(extra)}: ${res.body}`).toBe(status)
        expect(json(res)).toMatchObject({ error: expect.any(String), message: expect.stringContaining('max_age' in extra ? 'max_age' : 'force') })
      }
    }
    const search = await post('/v1/scraping/search', { url: urls[0], force: true })
    expect([200, 202]).toContain(search.statusCode)
  })
})
