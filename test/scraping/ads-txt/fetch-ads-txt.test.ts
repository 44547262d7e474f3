import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rootDomain } from '../../../src/content/urls/domains.ts'
import type { AdsTxtFetchOptions } from '../../../src/scraping/ads-txt/fetch-ads-txt.ts'
import { fetchAdsTxt } from '../../../src/scraping/ads-txt/fetch-ads-txt.ts'
import { createAdsTxtService, createMemoryAdsTxtStore } from '../../../src/scraping/ads-txt/service.ts'
import type { HttpClient } from '../../../src/scraping/fetch/client.ts'
import { createHttpClient } from '../../../src/scraping/fetch/client.ts'
import { corpus, countRecords } from '../fixtures/web-ads-txt.ts'
import type { Handler, WebServer } from '../fixtures/web-server.ts'
import { closedPort, startServer, testConfig } from '../fixtures/web-server.ts'

const TEXT = { 'content-type': 'text/plain; charset=utf-8' }
const SMALL = 'ssp.com, 1, DIRECT, abc\nother.com, 2, RESELLER\n'

/** "real/MediaImpact/bild.de/ads.txt" → "bild-de.test"; names under .test never reach real DNS. */
const hostFor = (name: string): string => `${path.basename(path.dirname(name)).replace(/\./g, '-').toLowerCase()}.test`
const realFiles = corpus().filter((f) => f.name.startsWith('real/') && path.basename(f.name) === 'ads.txt')

describe('fetchAdsTxt and the ads.txt service', () => {
  let server: WebServer
  let http: HttpClient
  let opts: AdsTxtFetchOptions
  const hosts = new Map<string, Handler>()
  const text =
    (body: string, headers: Record<string, string> = TEXT): Handler =>
    (_req, res) =>
      void res.writeHead(200, headers).end(body)
  const status =
    (code: number): Handler =>
    (_req, res) =>
      void res.writeHead(code, TEXT).end('nope')
  const to =
    (location: string, code = 301): Handler =>
    (_req, res) =>
      void res.writeHead(code, { location }).end()
  const at = (host: string, p = '/ads.txt'): string => `http://${host}:${server.port}${p}`
  let flakyUp = true

  beforeAll(async () => {
    server = await startServer((req, res) => {
      const host = (req.headers.host ?? '').replace(/:\d+$/, '')
      const handler = hosts.get(`${host}${req.url}`) ?? hosts.get(host)
      if (handler) return handler(req, res)
      res.writeHead(404, TEXT).end('not found')
    })
    for (const f of realFiles) hosts.set(hostFor(f.name), text(f.text))
    hosts.set('small.test', text(SMALL))
    hosts.set('html-type.test', text(SMALL, { 'content-type': 'text/html' }))
    hosts.set('no-type.test', text(SMALL, {}))
    hosts.set('broken.test', status(500))
    hosts.set('forbidden.test', status(403))
    hosts.set('gone.test', status(410))
    hosts.set('big.test', text(SMALL.repeat(60_000)))
    hosts.set('soft404.test', text('<html><body>Page not found</body></html>'))
    hosts.set('empty.test', text(''))
    hosts.set('placeholder.test', text('placeholder.example.com, placeholder, DIRECT, placeholder\n'))
    hosts.set('www-hop.test', to(at('www.www-hop.test')))
    hosts.set('www.www-hop.test', text(SMALL))
    hosts.set('chain.test', to(at('www.chain.test', '/a')))
    hosts.set('www.chain.test/a', to(at('chain.test', '/b'), 302))
    hosts.set('chain.test/b', to(at('cdn.chain.test', '/ads.txt'), 307))
    hosts.set('cdn.chain.test', text(SMALL))
    hosts.set('delegate.test', to(at('adsfiles.test', '/delegate.txt')))
    hosts.set('adsfiles.test/delegate.txt', text(SMALL))
    hosts.set('adsfiles.test/bounce', to(at('adsfiles.test', '/delegate.txt')))
    hosts.set('adsfiles.test/away', to(at('elsewhere.test')))
    hosts.set('delegate-twice.test', to(at('adsfiles.test', '/bounce')))
    hosts.set('delegate-away.test', to(at('adsfiles.test', '/away')))
    hosts.set('loop.test', to(at('www.loop.test')))
    hosts.set('www.loop.test', to(at('loop.test')))
    hosts.set('flaky.test', (req, res) => (flakyUp ? text(SMALL) : status(503))(req, res))

    http = createHttpClient(testConfig({ resolver: async () => [{ address: '127.0.0.1', family: 4 }] }))
    // https is tried first and finds a closed port, so every test also covers the http fallback.
    opts = { http, ports: { https: await closedPort(), http: server.port }, maxBytes: 1024 * 1024 }
  })
  afterAll(async () => {
    await http.close()
    await server.close()
  })

  it('derives the root domain from the public suffix list', () => {
    expect(rootDomain('https://www.bild.de/sport/x')).toBe('bild.de')
    expect(rootDomain('news.bbc.co.uk')).toBe('bbc.co.uk')
    expect(rootDomain('user.github.io')).toBe('user.github.io')
    expect(rootDomain('127.0.0.1')).toBeNull()
    expect(rootDomain('localhost')).toBeNull()
  })

  it(`serves all ${realFiles.length} real ads.txt files with exact seller counts`, async () => {
    expect(realFiles.length).toBe(44)
    for (const f of realFiles) {
      const r = await fetchAdsTxt(`https://www.${hostFor(f.name)}/article`, opts)
      expect(r.status, f.name).toBe('found')
      expect(r.seller_count, f.name).toBe(countRecords(f.text))
      expect(r.entries, f.name).toHaveLength(r.seller_count)
      expect(r.source_url, f.name).toBe(at(hostFor(f.name)))
    }
  })

  it('pins entries and variables of real files', async () => {
    const politico = await fetchAdsTxt('politico-com.test', opts)
    expect(politico).toMatchObject({ status: 'found', seller_count: 103, domain: 'politico-com.test', reason: null, invalid_lines: 0 })
    expect(politico.entries[0]).toEqual({
      domain: 'google.com',
      account_id: 'pub-8279698647515158',
      relationship: 'DIRECT',
      certification_id: 'f08c47fec0942fa0',
    })
    expect(politico.variables.owner_domain).toBe('politico.com')
    const tm = await fetchAdsTxt('transfermarkt-de.test', opts)
    expect(tm).toMatchObject({ seller_count: 2049, invalid_lines: 7 })
    expect(tm.variables.manager_domains).toEqual([{ domain: 'mediaimpact.de', country: null }])
  })

  it.each([
    ['missing.test', 'not_found', 'HTTP 404'],
    ['gone.test', 'not_found', 'HTTP 410'],
    ['empty.test', 'not_found', 'file has no records'],
    ['broken.test', 'error', 'HTTP 500'],
    ['forbidden.test', 'error', 'HTTP 403'],
    ['html-type.test', 'error', 'content type text/html, not text/plain'],
    ['no-type.test', 'error', 'content type missing, not text/plain'],
    ['soft404.test', 'error', 'body is HTML, not an ads.txt file'],
    ['big.test', 'error', 'file larger than the size cap'],
  ])('%s → %s (%s)', async (host, expected, reason) => {
    const r = await fetchAdsTxt(host, opts)
    expect(r).toMatchObject({ status: expected, reason, seller_count: 0, entries: [] })
  })

  it('accepts the "no sellers" placeholder as found with zero sellers', async () => {
    expect(await fetchAdsTxt('placeholder.test', opts)).toMatchObject({ status: 'found', seller_count: 0, entries: [] })
  })

  it('follows redirects inside the root domain, any subdomain, any status', async () => {
    expect(await fetchAdsTxt('www-hop.test', opts)).toMatchObject({ status: 'found', seller_count: 2, source_url: at('www.www-hop.test') })
    expect(await fetchAdsTxt('chain.test', opts)).toMatchObject({ status: 'found', seller_count: 2, source_url: at('cdn.chain.test') })
  })

  it('allows one hop out of the root domain, and no redirect after it', async () => {
    expect(await fetchAdsTxt('delegate.test', opts)).toMatchObject({ status: 'found', seller_count: 2, source_url: at('adsfiles.test', '/delegate.txt') })
    for (const host of ['delegate-twice.test', 'delegate-away.test']) {
      const r = await fetchAdsTxt(host, opts)
      expect(r, host).toMatchObject({ status: 'error', reason: 'ads.txt redirected again after leaving the root domain' })
    }
  })

  it('stops redirect loops', async () => {
    const r = await fetchAdsTxt('loop.test', opts)
    expect(r.status).toBe('error')
    expect(r.reason).toMatch(/redirect loop/)
  })

  it('reports hosts without a root domain as errors without fetching', async () => {
    expect(await fetchAdsTxt('http://127.0.0.1/page', opts)).toMatchObject({ status: 'error', domain: null })
  })

  it('never reaches a private address when the guard is on', async () => {
    const guarded = createHttpClient(testConfig({ allowPrivate: false, resolver: async () => [{ address: '127.0.0.1', family: 4 }] }))
    const r = await fetchAdsTxt('small.test', { ...opts, http: guarded })
    await guarded.close()
    expect(r.status).toBe('error')
    expect(r.reason).toMatch(/refused to connect to small.test → 127.0.0.1 \(loopback address\)/)
  })

  it('caches per root domain and shares one fetch between all URLs of the domain', async () => {
    const service = createAdsTxtService(opts)
    const hitsBefore = server.hits.filter((h) => h.host.startsWith('bild-de.test')).length
    const results = await Promise.all([
      service.forUrl('https://www.bild-de.test/politik/a'),
      service.forUrl('http://bild-de.test/sport/b'),
      service.forUrl('https://m.bild-de.test/'),
    ])
    await service.forUrl('sportbild.bild-de.test')
    const hits = server.hits.filter((h) => h.host.startsWith('bild-de.test')).length - hitsBefore
    expect(hits).toBe(1)
    expect(results.map((r) => r.seller_count)).toEqual([133, 133, 133])
    expect(results[0]!.variables.subdomains).toContain('sportbild.bild.de')
  })

  it('expires entries after the TTL and keeps the last good copy when a refresh fails', async () => {
    let clock = Date.parse('2026-03-01T00:00:00Z')
    const store = createMemoryAdsTxtStore()
    const service = createAdsTxtService({ ...opts, store, now: () => clock, ttlMs: 1000, errorTtlMs: 500 })
    const flakyHits = (): number => server.hits.filter((h) => h.host.startsWith('flaky.test')).length
    const before = flakyHits()

    flakyUp = true
    expect((await service.forUrl('flaky.test')).status).toBe('found')
    clock += 999
    await service.forUrl('flaky.test')
    expect(flakyHits() - before).toBe(1)

    flakyUp = false
    clock += 2
    const stale = await service.forUrl('flaky.test')
    expect(flakyHits() - before).toBe(2)
    expect(stale).toMatchObject({ status: 'found', seller_count: 2 })
    expect((await store.get('flaky.test'))?.expiresAt).toBe(clock + 500)

    flakyUp = true
    clock += 501
    expect((await service.forUrl('flaky.test')).status).toBe('found')
    expect(flakyHits() - before).toBe(3)
  })

  it('caches not_found and error verdicts too', async () => {
    const service = createAdsTxtService(opts)
    const count = (): number => server.hits.filter((h) => h.host.startsWith('missing.test')).length
    const before = count()
    await service.forUrl('missing.test')
    await service.forUrl('www.missing.test')
    expect(count() - before).toBe(1)
  })
})
