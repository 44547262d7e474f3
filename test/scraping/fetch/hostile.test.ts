import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Fetcher } from '../../../src/scraping/fetch/fetcher.ts'
import { createFetcher } from '../../../src/scraping/fetch/fetcher.ts'
import { brotliBomb, encoded, gzipBomb, huge, silent, stall, trickle } from '../fixtures/hostile-handlers.ts'
import type { WebServer } from '../fixtures/web-server.ts'
import { startRoutes, testConfig } from '../fixtures/web-server.ts'

const CAP = 256 * 1024

describe('fetchPage against hostile servers stays bounded', () => {
  let server: WebServer
  let fetcher: Fetcher

  beforeAll(async () => {
    server = await startRoutes({
      '/trickle': trickle(20),
      '/stall': stall,
      '/silent': silent,
      '/huge': huge(50 * 1024 * 1024),
      '/bomb': encoded(gzipBomb(64 * 1024 * 1024), 'gzip'),
      '/bomb-br': encoded(brotliBomb(32 * 1024 * 1024), 'br'),
      '/bomb-deflate': encoded(zlib.deflateSync(Buffer.alloc(64 * 1024 * 1024, ' '), { level: 9 }), 'deflate'),
      '/bomb-twice': encoded(zlib.gzipSync(gzipBomb(16 * 1024 * 1024)), 'gzip, gzip'),
    })
    fetcher = createFetcher(testConfig({ maxBytes: CAP, headersTimeoutMs: 300, idleTimeoutMs: 300, totalTimeoutMs: 800 }))
  })
  afterAll(async () => {
    await fetcher.close()
    await server.close()
  })

  it('gives up on a body that trickles forever at the total deadline (E002)', async () => {
    const started = performance.now()
    const out = await fetcher.fetchPage(server.url('/trickle'))
    const took = performance.now() - started
    expect(out.error).toEqual({ code: 'E002', reason: 'no complete response within 800 ms' })
    expect(out.status).toBe(200)
    expect(took).toBeGreaterThanOrEqual(750)
    expect(took).toBeLessThan(2_000)
  })

  it('gives up on a body that stops mid-way at the idle timeout (E002)', async () => {
    const started = performance.now()
    const out = await fetcher.fetchPage(server.url('/stall'))
    expect(out.error?.code).toBe('E002')
    expect(out.error?.reason).toMatch(/300 ms|timeout/i)
    expect(performance.now() - started).toBeLessThan(800)
  })

  it('gives up on a server that never sends headers (E002)', async () => {
    // A total deadline far beyond the headers timeout, so only the headers timeout can end it, however
    // loaded the machine.
    const patient = createFetcher(testConfig({ headersTimeoutMs: 300, totalTimeoutMs: 10_000 }))
    const started = performance.now()
    const out = await patient.fetchPage(server.url('/silent'))
    const took = performance.now() - started
    await patient.close()
    expect(out).toMatchObject({ status: null, error: { code: 'E002' } })
    expect(out.error?.reason).toMatch(/headers timeout/i)
    expect(took).toBeLessThan(10_000)
  })

  it('cuts a huge body at the cap and flags it truncated', async () => {
    const out = await fetcher.fetchPage(server.url('/huge'))
    expect(out.error).toBeNull()
    expect(out.truncated).toBe(true)
    expect(out.html?.length).toBe(CAP)
    expect(out.html?.startsWith('<html><body>aaa')).toBe(true)
  })

  it('stops inflating a gzip bomb at the cap', async () => {
    const out = await fetcher.fetchPage(server.url('/bomb'))
    expect(out.error).toBeNull()
    expect(out.truncated).toBe(true)
    expect(out.html?.length).toBe(CAP)
  })

  it.each(['/bomb-br', '/bomb-deflate', '/bomb-twice'])('stops inflating %s at the cap', async (path) => {
    const out = await fetcher.fetchPage(server.url(path))
    expect(out.error).toBeNull()
    expect(out.truncated).toBe(true)
    expect(out.html?.length).toBe(CAP)
  })

  it('stops when the caller aborts', async () => {
    const ctl = new AbortController()
    setTimeout(() => ctl.abort(), 100)
    const started = performance.now()
    const out = await fetcher.fetchPage(server.url('/trickle'), { signal: ctl.signal })
    expect(out.error).toEqual({ code: 'E002', reason: 'cancelled by the caller' })
    expect(performance.now() - started).toBeLessThan(500)
  })
})

describe('timeouts that bound one URL', () => {
  let server: WebServer

  beforeAll(async () => {
    let n = 0
    server = await startRoutes({
      // Each hop answers after 300 ms and sends the client one hop further: six hops take 1.8 s.
      '/hop': (_req, res) => void setTimeout(() => res.writeHead(302, { location: `/hop?${++n}` }).end(), 300),
      '/busy': (_req, res) => void setTimeout(() => res.writeHead(503, { 'content-type': 'text/plain' }).end('busy'), 200),
    })
  })
  afterAll(() => server.close())

  it('gives up on a connection that never completes at the connect timeout (E002), well before the total timeout', async () => {
    // The name never resolves, so the socket never connects: only the connect timeout can end it. Loopback only.
    const never = createFetcher(testConfig({ connectTimeoutMs: 200, totalTimeoutMs: 5_000, resolver: () => new Promise(() => {}) }))
    const started = performance.now()
    const out = await never.fetchPage('http://never-connects.test/page')
    const took = performance.now() - started
    await never.close()
    expect(out).toMatchObject({ status: null, error: { code: 'E002' } })
    expect(out.error?.reason).toMatch(/connect timeout/i)
    expect(took).toBeGreaterThanOrEqual(190)
    expect(took).toBeLessThan(2_000)
  })

  it('applies the total timeout to all redirect hops of a URL together', async () => {
    const fetcher = createFetcher(testConfig({ maxRedirects: 5, headersTimeoutMs: 1_000, totalTimeoutMs: 1_000 }))
    const started = performance.now()
    const out = await fetcher.fetchPage(server.url('/hop'))
    const took = performance.now() - started
    await fetcher.close()
    expect(out.error).toEqual({ code: 'E002', reason: 'no complete response within 1000 ms' })
    expect(took).toBeGreaterThanOrEqual(950)
    expect(took).toBeLessThan(1_600)
  })

  it('applies the total timeout to all retries of a URL together, backoff included', async () => {
    const fetcher = createFetcher(testConfig({ retries: 10, retryBaseDelayMs: 100, totalTimeoutMs: 1_000 }))
    const started = performance.now()
    const out = await fetcher.fetchPage(server.url('/busy'))
    const took = performance.now() - started
    await fetcher.close()
    // 200 ms answer, 100 ms wait, 200, 200 wait, 200: the next 400 ms wait no longer fits in 1 s. On a
    // loaded machine an answer can take longer, so fewer tries fit; never all ten.
    expect(out.error?.code).toBe('E002')
    const tries = server.hits.filter((h) => h.path === '/busy').length
    expect(tries).toBeGreaterThanOrEqual(1)
    expect(tries).toBeLessThanOrEqual(3)
    if (tries === 3) expect(out).toMatchObject({ status: 503, error: { reason: 'HTTP 503' } })
    expect(took).toBeLessThan(2_500)
  })
})
