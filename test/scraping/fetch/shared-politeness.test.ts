import { afterAll, beforeAll, expect, it } from 'vitest'
import type { FetcherConfig } from '../../../src/scraping/fetch/config.ts'
import { createDbHostGate, sweepHostGates } from '../../../src/scraping/fetch/db-host-gate.ts'
import type { Fetcher } from '../../../src/scraping/fetch/fetcher.ts'
import { createFetcher } from '../../../src/scraping/fetch/fetcher.ts'
import type { SharedHostGate } from '../../../src/scraping/fetch/politeness.ts'
import type { TestDb } from '../../helpers/db.ts'
import { describeEachEngine } from '../../helpers/db.ts'
import type { Handler, WebServer } from '../fixtures/web-server.ts'
import { html, startRoutes, testConfig } from '../fixtures/web-server.ts'

const slow =
  (ms: number): Handler =>
  (_req, res) =>
    void setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>slow</p>'), ms)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * Each fetcher stands for one worker process: its own in-memory politeness gate, the database's
 * gate shared with the other.
 */
describeEachEngine('per-host politeness shared by two workers through the database', (get) => {
  let server: WebServer
  const fetchers: Fetcher[] = []
  beforeAll(async () => {
    let limited = 0
    server = await startRoutes({
      '/slow': slow(60),
      '/page': html('<p>x</p>'),
      '/limited': (req, res) => {
        if (limited++ === 0) return void res.writeHead(429, { 'retry-after': '1' }).end()
        html('<p>after</p>')(req, res)
      },
    })
  })
  afterAll(async () => {
    await Promise.all(fetchers.map((f) => f.close()))
    await server.close()
  })

  /**
   * One worker's fetcher. `claimedAt` collects the database-clock time (ms) of each slot it was granted:
   * a lease is the claim's time plus leaseMs.
   */
  function worker(t: TestDb, overrides: Partial<FetcherConfig>, shared = true, claimedAt?: number[]): Fetcher {
    const cfg = testConfig(overrides)
    const leaseMs = cfg.totalTimeoutMs + 1_000
    const gate = createDbHostGate(t.db, { perHostConcurrency: cfg.perHostConcurrency, perHostDelayMs: cfg.perHostDelayMs, leaseMs })
    const sharedHosts: SharedHostGate = {
      ...gate,
      async tryClaim(host) {
        const claim = await gate.tryClaim(host)
        if ('lease' in claim) claimedAt?.push(Number(claim.lease) / 1000 - leaseMs)
        return claim
      },
    }
    const f = createFetcher({ ...cfg, ...(shared ? { sharedHosts } : {}) })
    fetchers.push(f)
    return f
  }

  const crawl = (f: Fetcher, path: string, n: number, tag: string) =>
    Promise.all(Array.from({ length: n }, (_, i) => f.fetchPage(server.url(`${path}?${tag}${i}`))))

  it('never has more than perHostConcurrency requests in flight on one host across both workers', async () => {
    // Control: without the shared gate each worker keeps its own limit, so the host sees both.
    const [a0, b0] = [worker(get(), { perHostConcurrency: 2 }, false), worker(get(), { perHostConcurrency: 2 }, false)]
    server.inFlight.max = 0
    await Promise.all([crawl(a0, '/slow', 8, 'a0-'), crawl(b0, '/slow', 8, 'b0-')])
    expect(server.inFlight.max).toBe(4)

    const [a, b] = [worker(get(), { perHostConcurrency: 2 }), worker(get(), { perHostConcurrency: 2 })]
    server.inFlight.max = 0
    const outs = (await Promise.all([crawl(a, '/slow', 8, 'a-'), crawl(b, '/slow', 8, 'b-')])).flat()
    expect(outs.every((o) => o.error === null)).toBe(true)
    expect(server.inFlight.max).toBe(2)
  })

  it('spaces request starts to one host by perHostDelayMs across both workers', async () => {
    const claimedAt: number[] = []
    const [a, b] = [worker(get(), { perHostDelayMs: 200 }, true, claimedAt), worker(get(), { perHostDelayMs: 200 }, true, claimedAt)]
    const before = server.hits.length
    await Promise.all([crawl(a, '/page', 3, 'sa-'), crawl(b, '/page', 3, 'sb-')])
    const at = server.hits
      .slice(before)
      .map((h) => h.at)
      .sort((x, y) => x - y)
    expect(at).toHaveLength(6)
    // A start is the granted claim, on the database's clock: exactly spaced. Arrivals at the server
    // also carry each request's way there (on a loaded machine a request granted at once can arrive
    // 190 ms later, just before the next), so they only show the spacing held for the six together.
    expect(claimedAt).toHaveLength(6)
    claimedAt.sort((x, y) => x - y)
    for (let i = 1; i < claimedAt.length; i++) expect(claimedAt[i]! - claimedAt[i - 1]!).toBeGreaterThanOrEqual(200)
    expect(at[5]! - at[0]!).toBeGreaterThanOrEqual(5 * 200 - 60)
  })

  it('passes a Retry-After pause from one worker to the other', async () => {
    const [a, b] = [worker(get(), {}), worker(get(), {})]
    const first = await a.fetchPage(server.url('/limited?1'))
    expect(first.status).toBe(429)
    const started = performance.now()
    const second = await b.fetchPage(server.url('/limited?2'))
    expect(second).toMatchObject({ status: 200, error: null })
    expect(performance.now() - started).toBeGreaterThanOrEqual(900)
  })

  /** Moves a host's leases `ms` into the past, as if that much time had gone by (leases are in microseconds). */
  const ageLeases = (host: string, ms: number) =>
    get().db.query('UPDATE scrape_host_gates SET leases = ARRAY(SELECT l - $2::bigint FROM unnest(leases) AS l) WHERE host = $1', [host, ms * 1000])

  it('lets the lease of a worker that never released it lapse, and frees a released one at once', async () => {
    // The lease is long, so nothing lapses while the claims run however loaded the machine; the lapse
    // is then made by moving the leases back, as if a minute had passed.
    const gate = createDbHostGate(get().db, { perHostConcurrency: 2, perHostDelayMs: 0, leaseMs: 60_000 })
    const one = await gate.tryClaim('lapse.test')
    const two = await gate.tryClaim('lapse.test')
    expect('lease' in one && 'lease' in two).toBe(true)
    expect(await gate.tryClaim('lapse.test')).toHaveProperty('retryInMs')
    if ('lease' in two) await gate.release('lapse.test', two.lease)
    const three = await gate.tryClaim('lapse.test')
    expect(three).toHaveProperty('lease')
    expect(await gate.tryClaim('lapse.test')).toHaveProperty('retryInMs')
    // `one` and `three` were never released: their holders "crashed". Their leases still hold ten seconds on…
    await ageLeases('lapse.test', 50_000)
    expect(await gate.tryClaim('lapse.test')).toHaveProperty('retryInMs')
    // …and lapse once their time is past.
    await ageLeases('lapse.test', 20_000)
    expect(await gate.tryClaim('lapse.test')).toHaveProperty('lease')
  })

  it('gives every claim its own lease, even within one tick of the clock, so a release frees one slot', async () => {
    // The embedded engine's clock ticks in milliseconds: claims in one tick had equal leases, and
    // releasing one freed them all (CI flaked on the lapse test above).
    const gate = createDbHostGate(get().db, { perHostConcurrency: 20, perHostDelayMs: 0, leaseMs: 60_000 })
    const leases: number[] = []
    for (let i = 0; i < 20; i++) {
      const claim = await gate.tryClaim('tick.test')
      if ('lease' in claim) leases.push(claim.lease)
    }
    expect(new Set(leases).size).toBe(20)
    await gate.release('tick.test', leases[5]!)
    const { rows } = await get().db.query<{ n: number }>(`SELECT cardinality(leases) AS n FROM scrape_host_gates WHERE host = 'tick.test'`)
    expect(Number(rows[0]?.n)).toBe(19)
  })

  it('reports how long to wait while the spacing holds, and sweeps idle hosts', async () => {
    const gate = createDbHostGate(get().db, { perHostConcurrency: 4, perHostDelayMs: 5_000, leaseMs: 100 })
    expect(await gate.tryClaim('spaced.test')).toHaveProperty('lease')
    const again = await gate.tryClaim('spaced.test')
    expect('retryInMs' in again && again.retryInMs > 3_000 && again.retryInMs <= 5_000).toBe(true)
    await sleep(150)
    await sweepHostGates(get().db, 0)
    const { rows } = await get().db.query<{ host: string }>(`SELECT host FROM scrape_host_gates WHERE host = 'spaced.test'`)
    expect(rows).toHaveLength(1) // next start still ahead
    await get().db.query(`UPDATE scrape_host_gates SET next_start = 0 WHERE host = 'spaced.test'`)
    expect(await sweepHostGates(get().db, 0)).toBeGreaterThanOrEqual(1)
    const left = await get().db.query(`SELECT host FROM scrape_host_gates WHERE host = 'spaced.test'`)
    expect(left.rows).toHaveLength(0)
  })
})
