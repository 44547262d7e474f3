import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFetcher } from '../../../src/scraping/fetch/fetcher.ts'
import type { Fetcher } from '../../../src/scraping/fetch/fetcher.ts'
import zlib from 'node:zlib'
import { brotliBomb, encoded, gzipBomb, huge, silent, stall, trickle } from '../fixtures/hostile-handlers.ts'
import { startRoutes, testConfig } from '../fixtures/web-server.ts'
import type { WebServer } from '../fixtures/web-server.ts'

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
    const started = performance.now()
    const out = await fetcher.fetchPage(server.url('/silent'))
    expect(out).toMatchObject({ status: null, error: { code: 'E002' } })
    expect(out.error?.reason).toMatch(/headers timeout/i)
    expect(performance.now() - started).toBeLessThan(800)
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

  it.each(['/bomb-br', '/bomb-twice'])('stops inflating %s at the cap', async (path) => {
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
