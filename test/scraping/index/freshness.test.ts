import { afterAll, beforeAll, expect, it } from 'vitest'
import type { NormalizedUrl } from '../../../src/content/urls/normalize-url.ts'
import { normalizeUrl } from '../../../src/content/urls/normalize-url.ts'
import { loadConfig } from '../../../src/platform/config.ts'
import { createDbAdsTxtStore } from '../../../src/scraping/ads-txt/db-store.ts'
import { ADS_TXT_TTL_MS } from '../../../src/scraping/ads-txt/service.ts'
import { getPageByUrl } from '../../../src/scraping/index/pages-repository.ts'
import type { TestApp } from '../../helpers/app.ts'
import { createTestApp } from '../../helpers/app.ts'
import { ManualClock } from '../../helpers/clock.ts'
import { describeEachEngine } from '../../helpers/db.ts'
import type { Handler } from '../fixtures/web-server.ts'
import { html } from '../fixtures/web-server.ts'
import type { Web } from '../helpers.ts'
import { article, startWeb, useTestWeb } from '../helpers.ts'

const HOUR = 3_600_000
const n = (url: string) => normalizeUrl(url) as NormalizedUrl

describeEachEngine('the content index: freshness window and ads.txt cache', (getDb) => {
  let t: TestApp
  let web: Web
  let adsUp = true
  const clock = new ManualClock('2026-11-22T10:00:00Z')
  const ads: Handler = (_req, res) =>
    adsUp ? void res.writeHead(200, { 'content-type': 'text/plain' }).end('ssp.com, 7, DIRECT\n') : void res.writeHead(503).end()
  beforeAll(async () => {
    web = await startWeb({ '/a': html(article('Fresh A')), '/b': html(article('Fresh B')), 'fresh.test/ads.txt': ads })
    // SCRAPE_FRESHNESS_HOURS=2
    t = await createTestApp(getDb().db, { clock, config: { scrape: loadConfig({ SCRAPE_ALLOW_PRIVATE: 'true', SCRAPE_FRESHNESS_HOURS: '2' }).scrape } })
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
})
