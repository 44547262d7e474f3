import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TestApp } from '../helpers/app.ts'
import { json } from '../helpers/app.ts'
import { ManualClock } from '../helpers/clock.ts'
import { describeEachEngine } from '../helpers/db.ts'
import { html, reply } from './fixtures/web-server.ts'
import type { ScrapingApp, Web } from './helpers.ts'
import { article, runJobsUntil, startScrapingApp } from './helpers.ts'

const ADS = 'ssp.com, pub-1, DIRECT, f08c47fec0942fa0\nreseller.com, 99, reseller\n# comment\n'

describeEachEngine('GET and POST /v1/scraping/search', (getDb) => {
  let app: ScrapingApp
  let t: TestApp
  let web: Web
  let headers: Record<string, string>
  const clock = new ManualClock('2026-11-22T10:00:00Z')
  beforeAll(async () => {
    app = await startScrapingApp(
      getDb().db,
      {
        'news.site.test/story': html(article('Pasta night')),
        'news.site.test/missing': reply(404, { 'content-type': 'text/html' }, '<h1>gone</h1>'),
        'site.test/ads.txt': reply(200, { 'content-type': 'text/plain' }, ADS),
      },
      { clock },
    )
    ;({ t, web, headers } = app)
  })
  afterAll(() => app.close())

  const get = (query: string) => t.app.inject({ method: 'GET', url: `/v1/scraping/search?${query}`, headers })
  const post = (body: unknown) => t.app.inject({ method: 'POST', url: '/v1/scraping/search', headers, payload: body as object })
  const queuedJobs = async () =>
    (await t.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE kind = 'scrape.url' AND status = 'queued'`)).rows[0]!.n

  it('GET of a URL never submitted is 404 not_found and submits nothing', async () => {
    const res = await get(`url=${encodeURIComponent(web.at('news.site.test', '/story'))}`)
    expect(res.statusCode).toBe(404)
    expect(json(res)).toMatchObject({ error: 'not_found', message: expect.stringContaining('POST /v1/scraping/search') })
    expect(await queuedJobs()).toBe(0)
  })

  it('POST submits an unknown URL: 202 {url, tld, status: queued, errors: [E001]}, once', async () => {
    const url = web.at('NEWS.site.test', '/story#top')
    const res = await post({ url })
    expect(res.statusCode).toBe(202)
    expect(json(res)).toEqual({ url: web.at('news.site.test', '/story'), tld: 'site.test', status: 'queued', errors: ['E001'] })
    expect((await post({ u: url })).statusCode).toBe(202)
    expect((await get(`u=${encodeURIComponent(url)}`)).statusCode).toBe(202)
    expect(await queuedJobs()).toBe(1)
  })

  it('answers 200 with the full scrape result, exactly the spec 2.7 shape, once fetched', async () => {
    await post({ url: web.at('news.site.test', '/missing') })
    await runJobsUntil(t.ctx, async () => (await queuedJobs()) === 0)
    const res = await get(`url=${encodeURIComponent(web.at('news.site.test', '/story'))}`)
    expect(res.statusCode).toBe(200)
    const body = json<Record<string, unknown>>(res)
    expect(Object.keys(body)).toEqual(['url', 'tld', 'errors', 'published_date', 'last_updated_date', 'content', 'metadata', 'ads_txt'])
    expect(body).toMatchObject({
      url: web.at('news.site.test', '/story'),
      tld: 'site.test',
      errors: [],
      published_date: '2026-03-04T10:00:00.000Z',
      last_updated_date: null,
      content: { title: 'Pasta night', language: 'en', full_text: expect.stringContaining('olive oil'), word_count: expect.any(Number) },
      metadata: {
        http_status: 200,
        content_type: 'text/html; charset=utf-8',
        canonical_url: 'https://canonical.example/Pasta%20night',
        og_title: 'Pasta night',
        og_description: null,
        og_image: null,
        og_type: 'article',
        author: 'Ada Cook',
        meta_description: 'About Pasta night',
        robots: null,
        date_evidence: { published: { value: expect.stringMatching(/^2026-03-04/) }, last_updated: null, rejected: [] },
      },
      ads_txt: {
        status: 'found',
        seller_count: 2,
        entries: [
          { domain: 'ssp.com', account_id: 'pub-1', relationship: 'DIRECT', certification_id: 'f08c47fec0942fa0' },
          { domain: 'reseller.com', account_id: '99', relationship: 'RESELLER', certification_id: null },
        ],
      },
    })
    expect(Object.keys(body.content as object)).toEqual(['title', 'full_text', 'language', 'word_count'])
    expect(Object.keys(body.metadata as object)).toEqual([
      'http_status',
      'content_type',
      'canonical_url',
      'og_title',
      'og_description',
      'og_image',
      'og_type',
      'author',
      'meta_description',
      'robots',
      'date_evidence',
    ])
    // POST of a fetched URL answers the same, without submitting it again.
    expect(json(await post({ url: web.at('news.site.test', '/story') }))).toEqual(body)
    expect(await queuedJobs()).toBe(0)
    // ads.txt was fetched once for the domain, though two of its URLs were indexed.
    expect(web.count('site.test', '/ads.txt')).toBe(1)
  })

  it('reports an inaccessible page with E002, its HTTP status and no content', async () => {
    const res = await get(`url=${encodeURIComponent(web.at('news.site.test', '/missing'))}`)
    expect(res.statusCode).toBe(200)
    expect(json(res)).toMatchObject({ errors: ['E002'], content: null, metadata: { http_status: 404, og_title: null }, ads_txt: { status: 'found' } })
  })

  it('POST of a URL older than the freshness window serves it and refreshes it in the background', async () => {
    clock.advance(t.ctx.config.scrape.freshnessMs + 60_000)
    const res = await post({ url: web.at('news.site.test', '/story') })
    expect(res.statusCode).toBe(200)
    expect(await queuedJobs()).toBe(1)
    const before = web.count('news.site.test', '/story')
    await runJobsUntil(t.ctx, async () => (await queuedJobs()) === 0)
    expect(web.count('news.site.test', '/story')).toBe(before + 1)
  })

  it.each([
    ['no url', '', 400, 'invalid_request'],
    ['an empty url', 'url=', 422, 'validation_failed'],
    ['a malformed url', 'url=not%20a%20url', 422, 'validation_failed'],
    ['an ftp url', 'url=ftp%3A%2F%2Fexample.com%2F', 422, 'validation_failed'],
    ['a url with credentials', `url=${encodeURIComponent('https://a:b@example.com/')}`, 422, 'validation_failed'],
    ['an overlong url', `url=${encodeURIComponent(`https://example.com/${'a'.repeat(3000)}`)}`, 422, 'validation_failed'],
    ['url and u that differ', 'url=https%3A%2F%2Fa.com%2F&u=https%3A%2F%2Fb.com%2F', 400, 'invalid_request'],
    ['two url parameters', 'url=https%3A%2F%2Fa.com%2F&url=https%3A%2F%2Fb.com%2F', 400, 'invalid_request'],
  ])('GET with %s → %i', async (_what, query, status, code) => {
    const res = await get(query)
    expect(res.statusCode).toBe(status)
    expect(json(res).error).toBe(code)
  })

  it.each([
    ['no url', {}, 400, 'invalid_request'],
    ['url as a number', { url: 5 }, 400, 'invalid_request'],
    ['u as an array', { u: ['https://a.com/'] }, 400, 'invalid_request'],
    ['a malformed url', { url: 'http://' }, 422, 'validation_failed'],
    ['a javascript: url', { u: 'javascript:alert(1)' }, 422, 'validation_failed'],
    ['a body that is not an object', ['https://a.com/'], 400, 'invalid_request'],
  ])('POST with %s → %i', async (_what, body, status, code) => {
    const res = await post(body)
    expect(res.statusCode).toBe(status)
    expect(json(res).error).toBe(code)
  })

  it('POST with broken JSON or another content type is 400 / 415; no key is 401', async () => {
    const broken = await t.app.inject({
      method: 'POST',
      url: '/v1/scraping/search',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: '{"url":',
    })
    expect(broken.statusCode).toBe(400)
    const form = await t.app.inject({ method: 'POST', url: '/v1/scraping/search', headers: { ...headers, 'content-type': 'text/plain' }, payload: 'url=x' })
    expect(form.statusCode).toBe(415)
    expect((await t.app.inject({ method: 'GET', url: '/v1/scraping/search?url=https%3A%2F%2Fa.com%2F' })).statusCode).toBe(401)
  })
})
