import { afterAll, describe, expect, it, vi } from 'vitest'
import { retryAfterMs } from '../../../src/scraping/fetch/client.ts'
import { createFetcher } from '../../../src/scraping/fetch/fetcher.ts'
import { createPoliteness } from '../../../src/scraping/fetch/politeness.ts'
import { flapping } from '../fixtures/hostile-handlers.ts'
import type { Handler, WebServer } from '../fixtures/web-server.ts'
import { html, reply, startRoutes, startServer, testConfig } from '../fixtures/web-server.ts'

const servers: WebServer[] = []
afterAll(() => Promise.all(servers.map((s) => s.close())))
const serve = async (routes: Record<string, Handler>): Promise<WebServer> => {
  const s = await startRoutes(routes)
  servers.push(s)
  return s
}
const slow =
  (ms: number): Handler =>
  (_req, res) =>
    void setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>slow</p>'), ms)

describe('politeness gate', () => {
  it('limits concurrency per host and overall, and releases on abort', async () => {
    const gate = createPoliteness({ perHostConcurrency: 2, perHostDelayMs: 0, globalConcurrency: 3 })
    const a1 = await gate.acquire('a')
    const a2 = await gate.acquire('a')
    let a3Granted = false
    const a3 = gate.acquire('a').then((r) => ((a3Granted = true), r))
    const b1 = await gate.acquire('b')
    const ctl = new AbortController()
    const b2 = gate.acquire('b', ctl.signal) // waits for a global slot
    await new Promise((r) => setTimeout(r, 20))
    expect(a3Granted).toBe(false)
    ctl.abort(new Error('stop'))
    await expect(b2).rejects.toThrow('stop')
    a1()
    const r3 = await a3
    expect(a3Granted).toBe(true)
    for (const r of [a2, r3, b1]) r()
  })

  it('spaces request starts to one host by the minimum delay, not requests to other hosts', async () => {
    // On fake timers and a fake clock: the spacing is exact, whatever else the machine is doing.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] })
    try {
      const gate = createPoliteness({ perHostConcurrency: 5, perHostDelayMs: 60, globalConcurrency: 10 })
      const started = performance.now()
      const times: number[] = []
      const three = Promise.all(
        [1, 2, 3].map(async () => {
          const release = await gate.acquire('a')
          times.push(performance.now() - started)
          release()
        }),
      )
      await vi.advanceTimersByTimeAsync(500)
      await three
      expect(times).toEqual([0, 60, 120])
      // Another host is not held back by the first one's spacing: granted without the clock moving.
      const other = performance.now()
      ;(await gate.acquire('b'))()
      expect(performance.now() - other).toBe(0)
    } finally {
      vi.useRealTimers()
    }
  })

  it('reads Retry-After as seconds or as a date', () => {
    expect(retryAfterMs('3')).toBe(3000)
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6_000)
    expect(retryAfterMs('soon')).toBeNull()
    expect(retryAfterMs(undefined)).toBeNull()
  })
})

describe('fetchPage politeness against a real server', () => {
  it('never has more than perHostConcurrency requests in flight on one host', async () => {
    const s = await serve({ '/slow': slow(40) })
    const fetcher = createFetcher(testConfig({ perHostConcurrency: 2 }))
    const outs = await Promise.all(Array.from({ length: 8 }, (_, i) => fetcher.fetchPage(s.url(`/slow?${i}`))))
    await fetcher.close()
    expect(outs.every((o) => o.error === null)).toBe(true)
    expect(s.inFlight.max).toBe(2)
  })

  it('honours the global limit across hosts', async () => {
    const shared = { now: 0, max: 0 }
    const counted: Handler = (req, res) => {
      shared.max = Math.max(shared.max, ++shared.now)
      res.on('close', () => shared.now--)
      slow(40)(req, res)
    }
    const hosts = await Promise.all([1, 2, 3].map(() => serve({ '/slow': counted })))
    const fetcher = createFetcher(testConfig({ perHostConcurrency: 4, globalConcurrency: 2 }))
    const outs = await Promise.all(hosts.flatMap((h) => [1, 2, 3].map((i) => fetcher.fetchPage(h.url(`/slow?${i}`)))))
    await fetcher.close()
    expect(outs.every((o) => o.error === null)).toBe(true)
    expect(shared.max).toBe(2)
  })

  it('waits at least perHostDelayMs between request starts on one host', async () => {
    const s = await serve({ '/page': html('<p>x</p>') })
    const fetcher = createFetcher(testConfig({ perHostDelayMs: 100 }))
    await Promise.all(Array.from({ length: 4 }, (_, i) => fetcher.fetchPage(s.url(`/page?${i}`))))
    await fetcher.close()
    const at = s.hits.map((h) => h.at)
    expect(at).toHaveLength(4)
    // Arrival times at the server carry connection jitter (on a loaded machine, one CI run saw the
    // four arrive over 264 ms for 300 ms of delays; the first request also opens the connection): the exact
    // spacing of starts is pinned by the gate test above; here the span proves the delay is applied
    // end to end (without it the four arrive within a few milliseconds).
    expect(at[3]! - at[0]!).toBeGreaterThanOrEqual(250)
    for (let i = 1; i < at.length; i++) expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(50)
  })

  it('waits out a 429 Retry-After before asking again', async () => {
    let calls = 0
    const s = await serve({
      '/limited': (req, res) => {
        if (calls++ === 0) return void res.writeHead(429, { 'retry-after': '1' }).end()
        html('<p>finally</p>')(req, res)
      },
    })
    const fetcher = createFetcher(testConfig({ retries: 2 }))
    const out = await fetcher.fetchPage(s.url('/limited'))
    await fetcher.close()
    expect(out).toMatchObject({ error: null, status: 200, html: '<p>finally</p>' })
    expect(s.hits).toHaveLength(2)
    expect(s.hits[1]!.at - s.hits[0]!.at).toBeGreaterThanOrEqual(950)
  })

  it('fails fast (E002, status 429) when Retry-After is longer than it is willing to wait', async () => {
    const s = await serve({ '/limited': reply(429, { 'retry-after': '3600' }) })
    const cfg = testConfig({ retries: 3 })
    const fetcher = createFetcher(cfg)
    const started = performance.now()
    const out = await fetcher.fetchPage(s.url('/limited'))
    await fetcher.close()
    expect(out).toMatchObject({ status: 429, error: { code: 'E002', reason: 'HTTP 429' } })
    expect(s.hits).toHaveLength(1)
    // Not a speed figure: waiting would take the cap (5 s); half of it leaves room for a loaded machine
    // (CI saw 0.76 s where 0.5 s was asked).
    expect(performance.now() - started).toBeLessThan(cfg.maxRetryAfterMs / 2)
  })

  it.each([
    ['within the cap', '1', 5_000, 950, 'HTTP 429'],
    ['above the cap', '3600', 700, 650, 'HTTP 429'],
  ])('holds back the next URL of the host after a 429 Retry-After %s, even with retries=0', async (_label, retryAfter, maxRetryAfterMs, minGap) => {
    let calls = 0
    const s = await serve({
      '/limited': (req, res) => {
        if (calls++ === 0) return void res.writeHead(429, { 'retry-after': retryAfter }).end()
        html('<p>next</p>')(req, res)
      },
    })
    const fetcher = createFetcher(testConfig({ retries: 0, maxRetryAfterMs }))
    const first = await fetcher.fetchPage(s.url('/limited?a'))
    const second = await fetcher.fetchPage(s.url('/limited?b'))
    await fetcher.close()
    expect(first).toMatchObject({ status: 429, error: { code: 'E002', reason: 'HTTP 429' } })
    expect(second).toMatchObject({ status: 200, error: null })
    expect(s.hits).toHaveLength(2)
    // The pause is min(Retry-After, maxRetryAfterMs): at least that long, and never the full hour.
    expect(s.hits[1]!.at - s.hits[0]!.at).toBeGreaterThanOrEqual(minGap)
    expect(s.hits[1]!.at - s.hits[0]!.at).toBeLessThan(maxRetryAfterMs + 1_000)
  })

  it('pauses the host on a 503 with Retry-After, and only that host', async () => {
    const s = await serve({ '/down': reply(503, { 'retry-after': '1' }), '/page': html('<p>x</p>') })
    const other = await serve({ '/page': html('<p>y</p>') })
    const fetcher = createFetcher(testConfig({ retries: 0 }))
    const started = performance.now()
    await fetcher.fetchPage(s.url('/down'))
    const elsewhere = await fetcher.fetchPage(other.url('/page'))
    const otherAt = performance.now() - started
    const same = await fetcher.fetchPage(s.url('/page'))
    await fetcher.close()
    expect(elsewhere.error).toBeNull()
    expect(same.error).toBeNull()
    expect(otherAt).toBeLessThan(500)
    expect(s.hits[1]!.at - s.hits[0]!.at).toBeGreaterThanOrEqual(950)
  })

  it('retries a flapping 5xx a bounded number of times with backoff', async () => {
    const s = await serve({ '/recovers': flapping(2, html('<p>up</p>')), '/down': reply(503, {}, 'down') })
    const fetcher = createFetcher(testConfig({ retries: 2, retryBaseDelayMs: 30 }))
    const recovered = await fetcher.fetchPage(s.url('/recovers'))
    expect(recovered).toMatchObject({ error: null, html: '<p>up</p>' })
    const recoveredHits = s.hits.filter((h) => h.path === '/recovers')
    expect(recoveredHits).toHaveLength(3)
    expect(recoveredHits[2]!.at - recoveredHits[1]!.at).toBeGreaterThanOrEqual(55) // 30 ms, then 60 ms

    const down = await fetcher.fetchPage(s.url('/down'))
    await fetcher.close()
    expect(down).toMatchObject({ status: 503, error: { code: 'E002', reason: 'HTTP 503' } })
    expect(s.hits.filter((h) => h.path === '/down')).toHaveLength(3)
  })

  it('does not retry when retries is 0', async () => {
    const s = await startServer(flapping(1, html('<p>up</p>')))
    servers.push(s)
    const fetcher = createFetcher(testConfig({ retries: 0 }))
    const out = await fetcher.fetchPage(s.url('/'))
    await fetcher.close()
    expect(out.status).toBe(503)
    expect(s.hits).toHaveLength(1)
  })
})
