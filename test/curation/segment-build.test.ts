import type { ServerResponse } from 'node:http'

import { afterAll, beforeAll, expect, it } from 'vitest'
import { json } from '../helpers/app.ts'
import type { ManualClock } from '../helpers/clock.ts'
import { describeEachEngine } from '../helpers/db.ts'
import { waitFor } from '../helpers/wait.ts'
import type { WebServer } from '../scraping/fixtures/web-server.ts'
import { html, startRoutes } from '../scraping/fixtures/web-server.ts'
import { articleHtml, indexHtml, indexTopic, mfaPage, topicPage, topicParagraphs } from './fixtures.ts'
import type { CurationTestApp, SegmentRecord } from './helpers.ts'
import { createCurationApp } from './helpers.ts'

describeEachEngine('segment builds', (getDb) => {
  let t: CurationTestApp
  let web: WebServer
  let a: { headers: Record<string, string> }
  let held: ServerResponse[] = []
  beforeAll(async () => {
    t = await createCurationApp(getDb().db)
    a = await t.client()
    let origin = ''
    const link = (p: string) => `${origin}${p}`
    web = await startRoutes({
      '/seed-1': html(topicPage('cooking', 1, { links: [link('/hop-1'), link('/hop-2')] })),
      '/seed-2': html(topicPage('cooking', 2, { links: [link('/hop-3')] })),
      '/hop-1': html(topicPage('cooking', 11, { links: [link('/hop2-1')] })),
      '/hop-2': html(topicPage('cooking', 12)),
      '/hop-3': html(topicPage('finance', 13)),
      '/hop2-1': html(topicPage('cooking', 21)),
      '/gone': (_req, res) => void res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>'),
      '/slow': (_req, res) => void held.push(res),
    })
    origin = web.origin
    // The index already holds other pages: cooking ones the examples should pull in, and others.
    await indexTopic(
      getDb().db,
      'cooking',
      Array.from({ length: 8 }, (_, i) => `https://www.kitchen${i}.example.org/recipe/${i}`),
      300,
    )
    await indexTopic(
      getDb().db,
      'finance',
      Array.from({ length: 8 }, (_, i) => `https://www.markets${i}.example.org/story/${i}`),
      400,
    )
  })
  afterAll(async () => {
    for (const r of held) r.end()
    await t.close()
    await web.close()
  })

  it('scrapes example URLs, ranks similar index pages, and warns about an inaccessible example with its E-code', async () => {
    const seg = await t.build(a.headers, { example_urls: [web.url('/seed-1'), web.url('/seed-2'), web.url('/gone')] })
    expect(seg.processing_errors).toBeNull()
    expect(seg.processing_warnings).toEqual([{ code: 'E002', message: expect.stringContaining('not accessible'), url: web.url('/gone'), index: 2 }])
    expect(seg.taxonomy_id).toBe(210) // Food & Drink, derived from the examples
    const urls = await t.urls(a.headers, seg.id)
    const bySource = (s: string) => urls.filter((u) => u.source === s).map((u) => u.url)
    expect(bySource('example').sort()).toEqual([web.url('/seed-1'), web.url('/seed-2')])
    expect(bySource('prompt').filter((u) => u.includes('kitchen'))).toHaveLength(8)
    expect(urls.some((u) => u.url.includes('markets'))).toBe(false)
    expect(bySource('hop')).toEqual([]) // no hops asked for
    expect(web.hits.some((h) => h.path.startsWith('/hop'))).toBe(false)
  })

  it('crawls extra_hops_count rounds of links from the examples', async () => {
    const one = await t.build(a.headers, { example_urls: [web.url('/seed-1'), web.url('/seed-2')], extra_hops_count: 1 })
    const hop1 = (await t.urls(a.headers, one.id)).filter((u) => u.source === 'hop').map((u) => u.url)
    // hop-3 is a finance page: crawled, but not similar enough to the cooking examples.
    expect(hop1.sort()).toEqual([web.url('/hop-1'), web.url('/hop-2')])
    expect(web.hits.some((h) => h.path === '/hop-3')).toBe(true)
    expect(web.hits.some((h) => h.path === '/hop2-1')).toBe(false)

    const two = await t.build(a.headers, { example_urls: [web.url('/seed-1')], extra_hops_count: 2 })
    const hop2 = (await t.urls(a.headers, two.id)).filter((u) => u.source === 'hop').map((u) => u.url)
    expect(hop2).toContain(web.url('/hop2-1'))
  })

  it('is processing while examples are fetched, complete afterwards', async () => {
    const res = await t.post(a.headers, '/v1/curation/segment-requests', { prompt: 'cooking recipes', example_urls: [web.url('/slow')] })
    const id = json<{ id: number; status: string }>(res).id
    expect(json<{ status: string }>(res).status).toBe('pending')
    await waitFor(async () => json<SegmentRecord>(await t.get(a.headers, `/v1/curation/segment-requests/${id}`)).status === 'processing', 10_000, 'processing')
    const mid = json<SegmentRecord>(await t.get(a.headers, `/v1/curation/segment-requests/${id}`))
    expect(mid.processed_date).toBeNull()
    await waitFor(() => held.length > 0, 10_000, 'the slow request')
    for (const r of held) r.writeHead(200, { 'content-type': 'text/html' }).end(topicPage('cooking', 77))
    held = []
    const done = await t.waitBuilt(a.headers, id)
    expect(done.status).toBe('complete')
    expect((await t.urls(a.headers, id)).map((u) => u.url)).toContain(web.url('/slow'))
  })

  it('completes with processing_errors when nothing in the index matches', async () => {
    const seg = await t.build(a.headers, { prompt: 'qwzxv blorfian' })
    expect(seg).toMatchObject({ status: 'complete', url_count: 0, processing_errors: [{ code: 'no_matching_pages', message: expect.any(String) }] })
    expect(seg.processed_date).not.toBeNull()
    expect(await t.urls(a.headers, seg.id)).toEqual([])
  })

  it('completes with processing_errors when no example can be used and there is no prompt', async () => {
    const seg = await t.build(a.headers, { example_urls: [web.url('/gone'), `${web.origin}/missing-too`] })
    expect(seg.processing_errors).toEqual([{ code: 'no_usable_input', message: expect.any(String) }])
    expect(seg.processing_warnings?.map((w) => [w.code, w.index])).toEqual([
      ['E002', 0],
      ['E002', 1],
    ])
  })

  it('finds pages by prompt words the classifier does not know (full-text search)', async () => {
    const text = topicParagraphs('finance', 501).map((p, i) => (i === 1 ? `${p} Zorblatt Industries reported record results.` : p))
    await indexHtml(getDb().db, 'https://www.zorblatt-news.example.net/q3', articleHtml({ title: 'Quarterly update', paragraphs: text }))
    const seg = await t.build(a.headers, { prompt: 'zorblatt' })
    expect((await t.urls(a.headers, seg.id)).map((u) => u.url)).toEqual(['https://www.zorblatt-news.example.net/q3'])
  })

  // "zoking" stems to itself (a short stem keeps its -ing), and is searched by "zok", as other forms of the word are.
  it('finds a page by another form of a prompt word whose stem keeps its -ing', async () => {
    const text = topicParagraphs('finance', 502).map((p, i) => (i === 1 ? `${p} Zokers met at the harbour; the club has zoked since 1990.` : p))
    await indexHtml(getDb().db, 'https://www.zokers.example.net/club', articleHtml({ title: 'Club news', paragraphs: text }))
    const seg = await t.build(a.headers, { prompt: 'zoking' })
    expect((await t.urls(a.headers, seg.id)).map((u) => u.url)).toEqual(['https://www.zokers.example.net/club'])
  })

  it('keeps to the requested taxonomy node', async () => {
    const seg = await t.build(a.headers, { prompt: 'recipes, markets and earnings', taxonomy_id: 52 })
    const urls = await t.urls(a.headers, seg.id)
    expect(urls.length).toBeGreaterThan(0)
    expect(urls.every((u) => !u.url.includes('kitchen'))).toBe(true)
    expect(seg.taxonomy_id).toBe(52)
  })
})

describeEachEngine('segment build outcomes', (getDb) => {
  let t: CurationTestApp
  let a: { headers: Record<string, string> }
  const kitchens = Array.from({ length: 6 }, (_, i) => `https://www.kitchen${i}.example.org/recipe/${i}`)
  const mfaExample = 'https://www.slides.example/gallery/0?page=3'
  const thinExample = 'https://www.thin.example/a'
  beforeAll(async () => {
    t = await createCurationApp(getDb().db)
    a = await t.client()
    const db = getDb().db
    await indexTopic(db, 'cooking', kitchens, 300)
    await indexTopic(db, 'cooking', ['https://news.pantry.example.net/1', 'https://www.pantry.example.net/2'], 320)
    // An ad-stuffed, self-refreshing slideshow domain (MFA), and a page under the thin-content floor
    // (above the index's own 50-word floor, so it is indexed and usable as an example).
    for (let i = 0; i < 3; i++) await indexHtml(db, `https://www.slides.example/gallery/${i}?page=3`, mfaPage('cooking', 340 + i))
    await indexHtml(db, thinExample, articleHtml({ title: 'Dinner recipe', paragraphs: topicParagraphs('cooking', 350, 5) }))
  })
  afterAll(() => t.close())

  it('completes with all_excluded when block_tlds cover every relevant page', async () => {
    const seg = await t.build(a.headers, { prompt: 'home cooking recipes, baking and dinner ideas', block_tlds: ['example.org', 'example.net', 'example'] })
    expect(seg).toMatchObject({ status: 'complete', url_count: 0, processing_errors: [{ code: 'all_excluded', message: expect.stringContaining('excluded') }] })
    expect(seg.processed_date).not.toBeNull()
    expect(await t.urls(a.headers, seg.id)).toEqual([])
    const excluded = await t.exclusions(a.headers, seg.id)
    expect(excluded.map((e) => e.url)).toEqual(expect.arrayContaining(kitchens))
    expect(new Set(excluded.map((e) => e.reason))).toEqual(new Set(['blocked_tld']))
  })

  it('warns with example_excluded when an example URL is on an MFA domain or thin', async () => {
    const seg = await t.build(a.headers, { prompt: 'home cooking recipes, baking and dinner ideas', example_urls: [thinExample, mfaExample] })
    expect(seg.processing_errors).toBeNull()
    expect(seg.processing_warnings).toEqual(
      expect.arrayContaining([
        { code: 'example_excluded', message: expect.stringContaining('thin_content'), reason: 'thin_content', url: thinExample, index: 0 },
        { code: 'example_excluded', message: expect.stringContaining('mfa'), reason: 'mfa', url: mfaExample, index: 1 },
      ]),
    )
    // The test index holds a handful of cooking pages: the build also says it found few that fit.
    expect(seg.processing_warnings?.map((w) => w.code).sort()).toEqual(['example_excluded', 'example_excluded', 'few_relevant_pages'])
    const urls = (await t.urls(a.headers, seg.id)).map((u) => u.url)
    expect(urls).toEqual(expect.arrayContaining(kitchens))
    expect(urls).not.toContain(thinExample)
    expect(urls).not.toContain(mfaExample)
  })

  it('completes with build_failed after the last attempt of a build that keeps failing', async () => {
    const db = getDb().db
    const clock = t.ctx.clock as ManualClock
    // A database fault on every attempt: storing the URL list is refused.
    await db.query('ALTER TABLE segment_urls ADD CONSTRAINT test_refuse_urls CHECK (false) NOT VALID')
    try {
      const res = await t.post(a.headers, '/v1/curation/segment-requests', { prompt: 'home cooking recipes, baking and dinner ideas' })
      expect(res.statusCode, res.body).toBe(201)
      const id = json<{ id: number }>(res).id
      const job = async () =>
        (
          await db.query<{ status: string; attempts: number; max_attempts: number; run_at: Date }>(
            `SELECT status, attempts, max_attempts, run_at FROM jobs WHERE kind = 'curation.build' AND (payload->>'segmentId')::bigint = $1`,
            [id],
          )
        ).rows[0]
      let seg: SegmentRecord | null = null
      await waitFor(
        async () => {
          // Retries wait for their backoff on the app's clock: move it to the next attempt.
          const j = await job()
          if (j?.status === 'queued' && j.run_at > clock.now()) clock.set(j.run_at)
          seg = json<SegmentRecord>(await t.get(a.headers, `/v1/curation/segment-requests/${id}`))
          return seg.processed_date !== null
        },
        30_000,
        'the failing build to give up',
      )
      expect(seg).toMatchObject({
        status: 'complete',
        url_count: 0,
        processing_errors: [{ code: 'build_failed', message: expect.stringContaining('failed repeatedly') }],
      })
      // The database error itself stays in the log and the job row, not in the user's record.
      expect(JSON.stringify(seg)).not.toContain('constraint')
      expect(await job()).toMatchObject({ status: 'failed', attempts: 3, max_attempts: 3 })
      expect(await t.urls(a.headers, id)).toEqual([])
    } finally {
      await db.query('ALTER TABLE segment_urls DROP CONSTRAINT test_refuse_urls')
    }
  })
})
