import iconv from 'iconv-lite'
import { afterAll, beforeAll, expect, it } from 'vitest'

import { blockedRange } from '../../../src/scraping/fetch/ssrf-guard.ts'
import { analyzePage } from '../../../src/scraping/index/analyze-page.ts'
import type { TestApp } from '../../helpers/app.ts'
import { createTestApp, json } from '../../helpers/app.ts'
import { describeEachEngine } from '../../helpers/db.ts'
import { binaryAsHtml, brotliBomb, encoded, flapping, gzipBomb, huge, redirect, silent, stall, trickle } from '../fixtures/hostile-handlers.ts'
import { html, reply } from '../fixtures/web-server.ts'
import type { Web } from '../helpers.ts'
import { article, resolverFor, runJobsUntil, startWeb, useTestWeb } from '../helpers.ts'

// The fixture listens on 127.0.0.2, the one address the guard is told to treat as public here:
// every other private target (127.0.0.1 included) keeps the production verdict (allowPrivate=false).
const FIXTURE = '127.0.0.2'
const CAP = 256 * 1024
const russian =
  'Сегодня в городе прошла большая выставка современного искусства, и многие жители пришли посмотреть на новые картины ' +
  'молодых художников, которые рассказывали гостям о своих работах и планах на будущее. '

describeEachEngine('a scrape job over a hostile web', (getDb) => {
  let t: TestApp
  let web: Web
  let headers: Record<string, string>
  const cases: [host: string, path: string, expected: string[]][] = []
  beforeAll(async () => {
    web = await startWeb(
      {
        'ok.test/page': html(article('A fine page')),
        'trickle.test/': trickle(20),
        'stall.test/': stall,
        'silent.test/': silent,
        'huge.test/': huge(50 * 1024 * 1024),
        'bomb.test/': encoded(gzipBomb(64 * 1024 * 1024), 'gzip'),
        'brbomb.test/': encoded(brotliBomb(32 * 1024 * 1024), 'br'),
        'loop.test/a': redirect('/b'),
        'loop.test/b': redirect('/a'),
        'to-loopback.test/': redirect('http://127.0.0.1/admin'),
        'to-metadata.test/': redirect('http://169.254.169.254/latest/meta-data/'),
        'internal.test/': html(article('Never served')),
        'metadata.test/': html(article('Never served either')),
        'shift-jis-as-utf8.test/': reply(
          200,
          { 'content-type': 'text/html; charset=utf-8' },
          iconv.encode(`<p>${'日本語のテキストです。'.repeat(200)}</p>`, 'shift_jis'),
        ),
        'cp1251.test/': reply(
          200,
          { 'content-type': 'text/html' },
          iconv.encode(
            `<html><head><meta charset="windows-1251"><title>Выставка</title></head><body><article><p>${russian.repeat(6)}</p></article></body></html>`,
            'windows-1251',
          ),
        ),
        'binary.test/': binaryAsHtml,
        'flap.test/': flapping(2, html(article('Third time lucky'))),
        'down.test/': reply(503, { 'content-type': 'text/plain' }, 'busy'),
        'robots.test/robots.txt': reply(200, { 'content-type': 'text/plain' }, 'User-agent: *\nDisallow: /private\n'),
        'robots.test/private/page': html(article('Disallowed')),
      },
      FIXTURE,
    )
    cases.push(
      ['ok.test', '/page', []],
      ['trickle.test', '/', ['E002']],
      ['stall.test', '/', ['E002']],
      ['silent.test', '/', ['E002']],
      ['loop.test', '/a', ['E002']],
      ['to-loopback.test', '/', ['E002']],
      ['to-metadata.test', '/', ['E002']],
      ['internal.test', '/', ['E002']],
      ['metadata.test', '/', ['E002']],
      ['shift-jis-as-utf8.test', '/', ['E003']],
      ['binary.test', '/', ['E003']],
      ['bomb.test', '/', ['E003', 'E008']],
      ['brbomb.test', '/', ['E003', 'E008']],
      ['flap.test', '/', []],
      ['down.test', '/', ['E002']],
      ['robots.test', '/private/page', ['E002']],
    )
    // Load the extractor's language tables now: a first load stalls the event loop for most of a
    // second, longer than the short deadlines below.
    analyzePage({
      url: 'http://warm.test/',
      finalUrl: 'http://warm.test/',
      status: 200,
      contentType: 'text/html',
      html: article('Warm up'),
      encoding: 'utf-8',
      headers: {},
      truncated: false,
      error: null,
      fetchedAt: new Date().toISOString(),
      elapsedMs: 0,
    })
    // The test polls the job far more often than the per-key rate limit allows.
    t = await createTestApp(getDb().db, { config: { rateLimitPerMinute: 1_000_000 } })
    await useTestWeb(
      t.ctx,
      { port: web.port, address: FIXTURE },
      {
        fetcher: {
          allowPrivate: false,
          respectRobots: true,
          maxBytes: CAP,
          // Short, yet with room for a busy machine: the fixture server shares this event loop.
          headersTimeoutMs: 2000,
          idleTimeoutMs: 2000,
          totalTimeoutMs: 4000,
          retries: 2,
          resolver: resolverFor(FIXTURE, { 'internal.test': '10.0.0.7', 'metadata.test': '169.254.169.254' }),
        },
        internals: { classify: (address) => (address === FIXTURE ? null : blockedRange(address)) },
      },
    )
    headers = (await t.client()).headers
  })
  afterAll(async () => {
    await t.ctx.scraper.close()
    await t.close()
    await web.close()
  })

  it('ends every URL in bounded time and memory with the right code, and completes the job', async () => {
    const urls = [...cases.map(([host, path]) => web.at(host, path)), web.at('huge.test', '/'), web.at('cp1251.test', '/')]
    const created = json<{ id: number }>(await t.app.inject({ method: 'POST', url: '/v1/scraping/jobs', headers, payload: { urls } }))
    const baseline = process.memoryUsage().rss
    let peak = baseline
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10)
    const started = performance.now()
    try {
      await runJobsUntil(
        t.ctx,
        async () => json<{ status: string }>(await t.app.inject({ method: 'GET', url: `/v1/scraping/jobs/${created.id}`, headers })).status === 'complete',
        30_000,
      )
    } finally {
      clearInterval(sampler)
    }
    const took = performance.now() - started
    const job = json<{ status: string; results: { url: string; errors: string[]; content: unknown; metadata: { http_status: number } | null }[] }>(
      await t.app.inject({ method: 'GET', url: `/v1/scraping/jobs/${created.id}`, headers }),
    )
    expect(job.status).toBe('complete')
    expect(job.results).toHaveLength(urls.length)
    const byUrl = new Map(job.results.map((r) => [r.url, r]))
    for (const [host, path, expected] of cases) expect(byUrl.get(web.at(host, path))?.errors, `${host}${path}`).toEqual(expected)
    // A body cut at the cap is still read (what arrived), flagged incomplete.
    expect(byUrl.get(web.at('huge.test', '/'))?.errors).toContain('E008')
    // A legacy charset declared in <meta> is decoded: Russian text, a language we do not process.
    const cyrillic = byUrl.get(web.at('cp1251.test', '/'))!
    expect(cyrillic.errors).toContain('E006')
    expect(JSON.stringify(cyrillic.content)).toContain('Выставка')
    // Nothing was ever sent to the refused addresses, and no hostile answer held the job: every
    // deadline is a few seconds at most and the URLs run side by side.
    expect(web.hits.some((h) => /^(internal|metadata)\.test/.test(h.host))).toBe(false)
    expect(took).toBeLessThan(20_000)
    expect(peak - baseline).toBeLessThan(400 * 1024 * 1024)
  })
})
