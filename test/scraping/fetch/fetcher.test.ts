import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Fetcher } from '../../../src/scraping/fetch/fetcher.ts'
import { createFetcher } from '../../../src/scraping/fetch/fetcher.ts'
import { binaryAsHtml, encoded, hangUp, redirect } from '../fixtures/hostile-handlers.ts'
import type { WebServer } from '../fixtures/web-server.ts'
import { closedPort, html, reply, startRoutes, testConfig } from '../fixtures/web-server.ts'

const PAGE = '<!doctype html><html><head><title>Hello</title></head><body><p>Grüße, Welt — ünïcödé</p></body></html>'

describe('fetchPage on well-behaved and plainly broken servers', () => {
  let server: WebServer
  let fetcher: Fetcher

  beforeAll(async () => {
    server = await startRoutes({
      '/page': html(PAGE),
      '/untyped': reply(200, {}, PAGE),
      '/gzip': encoded(zlib.gzipSync(PAGE), 'gzip'),
      '/br': encoded(zlib.brotliCompressSync(PAGE), 'br'),
      '/deflate': encoded(zlib.deflateSync(PAGE), 'deflate'),
      '/corrupt-gzip': encoded(Buffer.from('definitely not gzip data'), 'gzip'),
      '/zstd': encoded(Buffer.from('whatever'), 'zstd'),
      '/json': reply(200, { 'content-type': 'application/json' }, '{"a":1}'),
      '/pdf': reply(200, { 'content-type': 'application/pdf' }, '%PDF-1.7'),
      '/png-as-html': binaryAsHtml,
      '/text': reply(200, { 'content-type': 'text/plain; charset=utf-8' }, 'just text'),
      '/server-error': reply(500, { 'content-type': 'text/html' }, 'oops'),
      '/gone': reply(410, { 'content-type': 'text/html' }, 'gone'),
      '/hang-up': hangUp,
      '/r1': redirect('/r2', 301),
      '/r2': redirect('/page', 308),
      '/loop-a': redirect('/loop-b'),
      '/loop-b': redirect('/loop-a'),
      '/self': redirect('/self'),
      '/to-ftp': redirect('ftp://127.0.0.1/x'),
      '/bad-location': redirect('http://[::1'),
      ...Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`/chain${i}`, redirect(`/chain${i + 1}`)])),
      '/chain7': html(PAGE),
      '/last-modified': reply(200, { 'content-type': 'text/html', 'last-modified': 'Wed, 21 Oct 2015 07:28:00 GMT' }, PAGE),
    })
    fetcher = createFetcher(testConfig())
  })
  afterAll(async () => {
    await fetcher.close()
    await server.close()
  })

  it('fetches and decodes a normal page', async () => {
    const out = await fetcher.fetchPage(server.url('/page#frag'))
    expect(out).toMatchObject({ status: 200, error: null, truncated: false, html: PAGE, encoding: 'utf-8', contentType: 'text/html; charset=utf-8' })
    expect(out.url).toBe(server.url('/page#frag'))
    expect(out.finalUrl).toBe(server.url('/page'))
    expect(Date.parse(out.fetchedAt)).not.toBeNaN()
    expect(out.elapsedMs).toBeGreaterThanOrEqual(0)
  })

  it('sends the configured user agent and compression preferences', async () => {
    await fetcher.fetchPage(server.url('/page?ua'))
    const hit = server.hits.find((h) => h.path === '/page?ua')
    expect(hit?.headers['user-agent']).toBe('CurataBot/0.1 (+https://curata.example/bot)')
    expect(hit?.headers['accept-encoding']).toBe('gzip, deflate, br')
    expect(hit?.headers.accept).toMatch(/^text\/html/)
  })

  it.each(['/gzip', '/br', '/deflate'])('decompresses %s bodies', async (path) => {
    const out = await fetcher.fetchPage(server.url(path))
    expect(out.error).toBeNull()
    expect(out.html).toBe(PAGE)
  })

  it('sniffs a body without Content-Type', async () => {
    const out = await fetcher.fetchPage(server.url('/untyped'))
    expect(out.error).toBeNull()
    expect(out.html).toBe(PAGE)
  })

  it('returns plain text as text', async () => {
    const out = await fetcher.fetchPage(server.url('/text'))
    expect(out).toMatchObject({ error: null, html: 'just text' })
  })

  it('passes response headers through', async () => {
    const out = await fetcher.fetchPage(server.url('/last-modified'))
    expect(out.headers['last-modified']).toBe('Wed, 21 Oct 2015 07:28:00 GMT')
  })

  it.each([
    ['/json', 'application/json'],
    ['/pdf', 'application/pdf'],
  ])('refuses %s as not HTML (E003) without reading it', async (path, type) => {
    const out = await fetcher.fetchPage(server.url(path))
    expect(out.error).toEqual({ code: 'E003', reason: `content type ${type} is not HTML` })
    expect(out.status).toBe(200)
    expect(out.html).toBeNull()
  })

  it('refuses binary bytes served as text/html (E003)', async () => {
    const out = await fetcher.fetchPage(server.url('/png-as-html'))
    expect(out.error?.code).toBe('E003')
    expect(out.error?.reason).toMatch(/binary/)
  })

  it('reports corrupt compression and unknown codings as E003', async () => {
    expect((await fetcher.fetchPage(server.url('/corrupt-gzip'))).error?.code).toBe('E003')
    const zstd = await fetcher.fetchPage(server.url('/zstd'))
    expect(zstd.error).toEqual({ code: 'E003', reason: 'unsupported content-encoding "zstd"' })
  })

  it.each([
    ['/server-error', 500],
    ['/gone', 410],
    ['/missing', 404],
  ])('maps HTTP error %s to E002 with the status', async (path, status) => {
    const out = await fetcher.fetchPage(server.url(path))
    expect(out).toMatchObject({ status, html: null, error: { code: 'E002', reason: `HTTP ${status}` } })
  })

  it('follows redirects and reports the final URL', async () => {
    const out = await fetcher.fetchPage(server.url('/r1'))
    expect(out).toMatchObject({ status: 200, error: null, finalUrl: server.url('/page'), html: PAGE })
  })

  it.each(['/loop-a', '/self'])('stops redirect loops (%s) with E002', async (path) => {
    const out = await fetcher.fetchPage(server.url(path))
    expect(out.error?.code).toBe('E002')
    expect(out.error?.reason).toMatch(/redirect loop/)
  })

  it('stops after 5 redirects (E002) but follows exactly 5', async () => {
    const tooMany = await fetcher.fetchPage(server.url('/chain0')) // 7 hops
    expect(tooMany.error).toMatchObject({ code: 'E002', reason: 'more than 5 redirects' })
    expect(tooMany.status).toBe(302)
    const five = await fetcher.fetchPage(server.url('/chain2')) // 5 hops
    expect(five).toMatchObject({ error: null, finalUrl: server.url('/chain7') })
  })

  it('refuses redirects to other schemes and unparseable locations', async () => {
    expect((await fetcher.fetchPage(server.url('/to-ftp'))).error?.reason).toMatch(/unsupported scheme ftp:/)
    expect((await fetcher.fetchPage(server.url('/bad-location'))).error?.reason).toMatch(/invalid redirect location/)
  })

  it('maps a dropped connection to E002', async () => {
    const out = await fetcher.fetchPage(server.url('/hang-up'))
    expect(out).toMatchObject({ status: null, error: { code: 'E002' } })
  })

  it('maps refused connections, unknown names and bad URLs to E002', async () => {
    const port = await closedPort()
    const refused = await fetcher.fetchPage(`http://127.0.0.1:${port}/`)
    expect(refused.error?.code).toBe('E002')
    expect(refused.error?.reason).toMatch(/ECONNREFUSED/)

    const named = createFetcher(
      testConfig({
        resolver: async () => {
          throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.test'), { code: 'ENOTFOUND' })
        },
      }),
    )
    const dns = await named.fetchPage('http://nowhere.test/')
    await named.close()
    expect(dns.error).toEqual({ code: 'E002', reason: 'getaddrinfo ENOTFOUND nowhere.test' })

    expect((await fetcher.fetchPage('not a url')).error).toEqual({ code: 'E002', reason: 'malformed URL' })
    expect((await fetcher.fetchPage('ftp://example.test/')).error).toEqual({ code: 'E002', reason: 'unsupported scheme ftp:' })
  })

  it('reaches named hosts through the injected resolver', async () => {
    const named = createFetcher(testConfig({ resolver: async () => [{ address: '127.0.0.1', family: 4 }] }))
    const out = await named.fetchPage(`http://www.site.test:${server.port}/page`)
    await named.close()
    expect(out).toMatchObject({ error: null, html: PAGE })
    expect(server.hits.at(-1)?.host).toBe(`www.site.test:${server.port}`)
  })
})
