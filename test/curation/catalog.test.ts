import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { currentWindows, easter, nthWeekday, seasonalMoments, thanksgiving } from '../../src/curation/catalog/calendar.ts'
import { catalogSegmentUrls, listCatalog } from '../../src/curation/catalog/list.ts'
import { catalogJob, refreshCatalog } from '../../src/curation/catalog/refresh.ts'
import { ConfigError, loadConfig } from '../../src/platform/config.ts'
import { createWorker } from '../../src/platform/jobs/worker.ts'
import { configure, json } from '../helpers/app.ts'
import type { ManualClock } from '../helpers/clock.ts'
import { describeEachEngine } from '../helpers/db.ts'
import { waitFor, whileWorking } from '../helpers/wait.ts'
import { articleHtml, indexHtml, indexTopic, topicParagraphs } from './fixtures.ts'
import type { CurationTestApp, SegmentRecord } from './helpers.ts'
import { createCurationApp } from './helpers.ts'

const day = (d: Date) => d.toISOString().slice(0, 10)

describe('seasonal calendar', () => {
  it('computes the movable dates of the research calendar', () => {
    expect([2025, 2026, 2027].map((y) => day(easter(y)))).toEqual(['2025-04-20', '2026-04-05', '2027-03-28'])
    expect([2025, 2026, 2027].map((y) => day(thanksgiving(y)))).toEqual(['2025-11-27', '2026-11-26', '2027-11-25'])
    expect(day(nthWeekday(2025, 5, 0, 2))).toBe('2025-05-11') // Mother's Day
    expect(day(nthWeekday(2027, 5, 1, -1))).toBe('2027-05-31') // Memorial Day
    expect(day(nthWeekday(2026, 6, 0, 3))).toBe('2026-06-21') // Father's Day
    expect(day(nthWeekday(2026, 2, 0, 2))).toBe('2026-02-08') // Super Bowl LX
    expect(day(nthWeekday(2026, 9, 1, 1))).toBe('2026-09-07') // Labor Day
  })

  it('lists the moments whose window is open or opens within the lead time', () => {
    const at = (iso: string, lead = 14) => currentWindows(new Date(iso), lead).map((w) => `${w.moment.slug}:${w.year}:${w.active}`)
    expect(at('2026-11-22T10:00:00Z')).toEqual(['thanksgiving:2026:true', 'black-friday-cyber-monday:2026:true', 'christmas:2026:true'])
    expect(at('2026-12-20T00:00:00Z')).toEqual(['new-year:2027:false', 'christmas:2026:true'])
    expect(at('2027-02-01T00:00:00Z')).toContain('super-bowl:2027:true')
    expect(at('2027-02-01T00:00:00Z')).toContain('lunar-new-year:2027:true')
    expect(seasonalMoments.every((m) => /^[a-z0-9-]+$/.test(m.slug))).toBe(true)
  })
})

describe('catalog configuration', () => {
  it('reads prices and thresholds from the environment, refusing bad values', () => {
    const cfg = loadConfig({ CATALOG_CPM_SEASONAL: '4.25', CATALOG_MIN_PAGES: '10', CATALOG_CURRENCY: 'EUR' }).curation
    expect(cfg.catalog.pricing).toMatchObject({ seasonal: 4.25, iabTier1: 1, iabTier2: 1.5, personal: 3, currency: 'EUR' })
    expect(cfg.catalog.minPages).toBe(10)
    expect(() => loadConfig({ CATALOG_CPM_SEASONAL: 'cheap' })).toThrow(ConfigError)
    expect(() => loadConfig({ CATALOG_CURRENCY: 'dollars' })).toThrow(ConfigError)
    expect(() => loadConfig({ CURATION_NEAR_DUPLICATE_BITS: '5' })).toThrow(ConfigError)
  })
})

describeEachEngine('catalogs', (getDb) => {
  let t: CurationTestApp
  let a: { headers: Record<string, string>; clientId: number }
  let b: { headers: Record<string, string>; clientId: number }
  let mine: SegmentRecord

  beforeAll(async () => {
    t = await createCurationApp(getDb().db)
    configure(t.ctx, { curation: { catalog: { minPages: 3 } } })
    a = await t.client()
    b = await t.client()
    const db = getDb().db
    await indexTopic(
      db,
      'sports',
      Array.from({ length: 6 }, (_, i) => `https://www.score${i}.example/${i}`),
      1000,
    )
    await indexTopic(
      db,
      'cooking',
      Array.from({ length: 5 }, (_, i) => `https://www.cook${i}.example/${i}`),
      1010,
    )
    await indexTopic(
      db,
      'finance',
      Array.from({ length: 2 }, (_, i) => `https://www.money${i}.example/${i}`),
      1020,
    )
    mine = await t.build(a.headers, { name: 'My sports fans', prompt: 'sports fans following games, results and transfer news' })
    await t.build(b.headers, { name: 'Their cooks', prompt: 'cooking recipes' })
  })
  afterAll(() => t.close())

  it('runs as a scheduled job: public IAB entries with enough pages, and the open seasonal windows', async () => {
    const job = catalogJob(t.ctx)
    expect(job.everyMs).toBe(t.ctx.config.curation.catalog.refreshMs)
    const worker = createWorker({ db: getDb().db, clock: t.ctx.clock, handlers: [job], pollMs: 20 })
    await whileWorking(worker, () =>
      waitFor(
        async () => (await getDb().db.query(`SELECT 1 FROM jobs WHERE kind = 'curation.catalog' AND status = 'done'`)).rows.length > 0,
        30_000,
        'the catalog job',
      ),
    )
    // The next run is already scheduled.
    const { rows } = await getDb().db.query<{ run_at: Date }>(`SELECT run_at FROM jobs WHERE kind = 'curation.catalog' AND status = 'queued'`)
    expect(rows[0]?.run_at.getTime()).toBe(t.ctx.clock.now().getTime() + job.everyMs!)

    const { entries } = await listCatalog(getDb().db, a.clientId, { now: t.ctx.clock.now(), config: t.ctx.config.curation })
    const ids = entries.map((e) => e.id)
    // The Christmas window is open too, but its entry depends on pages fitting its prompt (gifts,
    // decorations, toys): the everyday recipes indexed here score below the calibrated floor.
    expect(ids).toEqual(expect.arrayContaining(['iab:483', 'iab:210', 'seasonal:thanksgiving:2026', `segment:${mine.id}`]))
    expect(ids).not.toContain('iab:52') // two finance pages: under the threshold
    const sports = entries.find((e) => e.id === 'iab:483')!
    const total = 13
    expect(sports).toMatchObject({
      type: 'public',
      name: 'Sports',
      taxonomy_id: 483,
      level1_name: 'Sports',
      page_count: 6,
      pricing: { cpm: 1, currency: 'USD' },
      window: null,
    })
    expect(sports.coverage.share_of_index).toBeCloseTo(6 / total, 3)
    expect(sports.coverage.by_language.en).toBeCloseTo(6 / total, 3)
    const thanks = entries.find((e) => e.id === 'seasonal:thanksgiving:2026')!
    expect(thanks).toMatchObject({ type: 'seasonal', window: { start: '2026-11-05', end: '2026-11-26', active: true }, pricing: { cpm: 2.5 } })
    expect(thanks.page_count).toBeGreaterThanOrEqual(5)
    const urls = await catalogSegmentUrls(getDb().db, a.clientId, thanks.id, { limit: 100, offset: 0, config: t.ctx.config.curation })
    expect(urls!.every((u) => u.url.includes('cook'))).toBe(true)
    const iabUrls = await catalogSegmentUrls(getDb().db, a.clientId, 'iab:483', { limit: 100, offset: 0, config: t.ctx.config.curation })
    expect(iabUrls).toHaveLength(6)
    expect(await catalogSegmentUrls(getDb().db, a.clientId, 'iab:52', { limit: 10, offset: 0, config: t.ctx.config.curation })).toBeNull()
    expect(await catalogSegmentUrls(getDb().db, b.clientId, `segment:${mine.id}`, { limit: 10, offset: 0, config: t.ctx.config.curation })).toBeNull()
  })

  it("lists the personalized catalog: the client's own segments only", async () => {
    const res = await t.get(a.headers, '/v1/curation/catalog?type=personal')
    expect(res.statusCode).toBe(200)
    const body = json<{
      total: number
      entries: { id: string; name: string; pricing: { cpm: number }; coverage: { share_of_index: number }; page_count: number }[]
    }>(res)
    expect(body.entries.map((e) => e.id)).toEqual([`segment:${mine.id}`])
    expect(body.entries[0]).toMatchObject({ name: 'My sports fans', pricing: { cpm: 3 }, page_count: mine.url_count })
    expect(body.entries[0]!.coverage.share_of_index).toBeCloseTo(mine.url_count! / 13, 3)
  })

  it('filters by type and text, and pages', async () => {
    const seasonal = json<{ entries: { id: string; type: string }[] }>(await t.get(a.headers, '/v1/curation/catalog?type=seasonal'))
    expect(seasonal.entries.every((e) => e.type === 'seasonal' && e.id.startsWith('seasonal:'))).toBe(true)
    const q = json<{ entries: { id: string }[] }>(await t.get(a.headers, '/v1/curation/catalog?q=THANKSGIVING'))
    expect(q.entries.map((e) => e.id)).toEqual(['seasonal:thanksgiving:2026'])
    const page = json<{ total: number; entries: unknown[] }>(await t.get(a.headers, '/v1/curation/catalog?limit=1&offset=1'))
    expect(page.entries).toHaveLength(1)
    expect(page.total).toBeGreaterThan(3)
  })

  it('rebuilds the seasonal catalog as time moves', async () => {
    const clock = t.ctx.clock as ManualClock
    clock.set('2027-02-01T00:00:00Z')
    try {
      await refreshCatalog(t.ctx)
      const { entries } = await listCatalog(getDb().db, a.clientId, { type: 'seasonal', now: clock.now(), config: t.ctx.config.curation })
      const ids = entries.map((e) => e.id)
      expect(ids).toContain('seasonal:super-bowl:2027')
      expect(ids).not.toContain('seasonal:thanksgiving:2026')
    } finally {
      clock.set('2026-11-22T10:00:00Z')
    }
  })

  it('rejects bad query parameters', async () => {
    for (const [q, status] of [
      ['type=bogus', 422],
      ['limit=0', 422],
      ['limit=abc', 400],
      ['offset=-1', 422],
    ] as const) {
      expect((await t.get(a.headers, `/v1/curation/catalog?${q}`)).statusCode, q).toBe(status)
    }
    expect((await t.get({}, '/v1/curation/catalog')).statusCode).toBe(401)
  })
})

describeEachEngine('catalog: tier-2 entries and configured prices', (getDb) => {
  let t: CurationTestApp
  let a: { headers: Record<string, string>; clientId: number }
  let mine: SegmentRecord
  type Entry = {
    id: string
    type: string
    taxonomy_id: number | null
    level1_name: string | null
    level2_name: string | null
    page_count: number
    pricing: { cpm: number; currency: string }
  }
  const listing = async (query = '') => json<{ entries: Entry[] }>(await t.get(a.headers, `/v1/curation/catalog?limit=1000${query}`)).entries

  beforeAll(async () => {
    t = await createCurationApp(getDb().db)
    // Prices as an operator sets them: read from the environment like the service does.
    const fromEnv = loadConfig({
      CATALOG_CPM_IAB_TIER1: '1.25',
      CATALOG_CPM_IAB_TIER2: '2.75',
      CATALOG_CPM_SEASONAL: '4.5',
      CATALOG_CPM_PERSONAL: '6',
      CATALOG_CURRENCY: 'EUR',
      CATALOG_MIN_PAGES: '3',
    }).curation
    configure(t.ctx, { curation: { ...fromEnv, minWords: 120 } })
    a = await t.client()
    // Finance fixture pages score Business and Finance (52) and its tier-2 node Economy (80, ~0.4)
    // on every page; cooking pages score Food & Drink (210) and Cooking (216, ~0.2–0.26).
    await indexTopic(
      getDb().db,
      'finance',
      Array.from({ length: 5 }, (_, i) => `https://www.ledger${i}.example/${i}`),
      1000,
    )
    await indexTopic(
      getDb().db,
      'cooking',
      Array.from({ length: 4 }, (_, i) => `https://www.stove${i}.example/${i}`),
      1000,
    )
    // Two short finance pages (under the 120-word floor): a dated news brief counts, a stub does not.
    const dated = '<meta property="og:type" content="article"><meta property="article:published_time" content="2020-01-02T10:00:00Z">'
    await indexHtml(
      getDb().db,
      'https://www.brief.example/markets',
      articleHtml({ title: 'Markets brief', paragraphs: topicParagraphs('finance', 1010, 6), head: dated }),
    )
    await indexHtml(getDb().db, 'https://www.stub.example/markets', articleHtml({ title: 'Markets', paragraphs: topicParagraphs('finance', 1011, 6) }))
    mine = await t.build(a.headers, { name: 'Markets readers', prompt: 'stock market investors reading about earnings and interest rates' })
    await refreshCatalog(t.ctx)
  })
  afterAll(() => t.close())

  it('lists a tier-2 node with enough pages as a public entry at the tier-2 price, with its level names', async () => {
    const entries = await listing()
    const economy = entries.find((e) => e.id === 'iab:80')
    expect(economy, JSON.stringify(entries.map((e) => e.id))).toMatchObject({
      type: 'public',
      taxonomy_id: 80,
      level1_name: 'Business and Finance',
      level2_name: 'Economy',
      page_count: 6,
      pricing: { cpm: 2.75, currency: 'EUR' },
    })
    expect(entries.find((e) => e.id === 'iab:52')).toMatchObject({
      level1_name: 'Business and Finance',
      level2_name: null,
      pricing: { cpm: 1.25, currency: 'EUR' },
    })
    // Every public entry is priced by its tier.
    for (const e of entries.filter((x) => x.type === 'public')) {
      expect(e.pricing.cpm, e.id).toBe(e.level2_name === null ? 1.25 : 2.75)
    }
    const urls = await catalogSegmentUrls(getDb().db, a.clientId, 'iab:80', { limit: 100, offset: 0, config: t.ctx.config.curation })
    expect(urls!.map((u) => u.url).sort()).toEqual(
      ['https://www.brief.example/markets', ...Array.from({ length: 5 }, (_, i) => `https://www.ledger${i}.example/${i}`)].sort(),
    )
  })

  it('shows the configured seasonal and personal prices and currency', async () => {
    const entries = await listing()
    const seasonal = entries.filter((e) => e.type === 'seasonal')
    expect(seasonal.length).toBeGreaterThan(0)
    expect(seasonal.every((e) => e.pricing.cpm === 4.5 && e.pricing.currency === 'EUR')).toBe(true)
    expect(entries.find((e) => e.id === `segment:${mine.id}`)).toMatchObject({ type: 'personal', pricing: { cpm: 6, currency: 'EUR' } })
  })
})
