import { setMaxListeners } from 'node:events'
import { rootDomain } from '../content/urls/domains.ts'
import type { NormalizedUrl } from '../content/urls/normalize-url.ts'
import type { AppContext } from '../platform/context.ts'
import { createDbAdsTxtStore, freshAdsTxtDomains } from './ads-txt/db-store.ts'
import type { AdsTxtService } from './ads-txt/service.ts'
import { createAdsTxtService } from './ads-txt/service.ts'
import type { HttpClientInternals } from './fetch/client.ts'
import type { FetcherConfig } from './fetch/config.ts'
import { fetcherConfig } from './fetch/config.ts'
import { createDbHostGate } from './fetch/db-host-gate.ts'
import type { Fetcher } from './fetch/fetcher.ts'
import { createFetcher } from './fetch/fetcher.ts'
import { analyzePage } from './index/analyze-page.ts'
import type { FetchedState } from './index/freshness.ts'
import { isFresh } from './index/freshness.ts'
import { createPageWriter } from './index/page-writer.ts'
import { queuePages } from './index/pages-repository.ts'

export interface IndexOptions {
  signal?: AbortSignal
  /** Pages fetched at once by this call (politeness still applies per host). */
  concurrency?: number
  /** Called with the number of URLs settled so far (fresh ones count at once). */
  onProgress?: (done: number) => void
  /** Fetch again what is older than this (a request's max_age or force), besides what is stale anyway. */
  maxAgeMs?: number
}

export interface Scraper {
  readonly fetcher: Fetcher
  readonly adsTxt: AdsTxtService
  /**
   * Makes sure each URL is in the index: fetched, analyzed and stored, unless its last fetch is still
   * fresh (index/freshness.ts); the ads.txt of each root domain is refreshed once its cached copy
   * expires or is older than `maxAgeMs`.
   * Resolves to each URL's page id (errors are recorded on the page). A URL whose fetch is cut short
   * by the signal is left queued, not stored as a failure.
   */
  indexUrls(urls: NormalizedUrl[], opts?: IndexOptions): Promise<Map<string, number>>
  close(): Promise<void>
}

/** Test and benchmark seams; production builds the scraper from the config alone. */
export interface ScraperOptions {
  /** Fetcher settings over those derived from the config (timeouts, caps, a DNS resolver). */
  fetcher?: Partial<FetcherConfig>
  internals?: HttpClientInternals
  /** Ports ads.txt is asked on (443 and 80 otherwise). */
  adsTxtPorts?: { https?: number; http?: number }
}

const HOST_LEASE_MARGIN_MS = 10_000

// ads.txt files fetched at once by one indexUrls call.
const ADS_TXT_CONCURRENCY = 4

/** Runs fn over items, `width` at a time; the first failure stops the other lanes and rejects. */
async function pool<T>(items: T[], width: number, fn: (item: T) => Promise<unknown>, signal?: AbortSignal): Promise<void> {
  let next = 0
  let failed = false
  const lane = async (): Promise<void> => {
    while (next < items.length && !failed && !signal?.aborted) {
      try {
        await fn(items[next++]!)
      } catch (err) {
        failed = true
        throw err
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane))
}

/**
 * The process's scraper, built once at start-up and passed in the context: one fetcher per
 * process, so robots caches and the global limit are shared; per-host limits are shared by all
 * processes.
 */
export function createScraper(ctx: AppContext, opts: ScraperOptions = {}): Scraper {
  const { scrape } = ctx.config
  const now = () => ctx.clock.now().getTime()
  const config = fetcherConfig({
    userAgent: scrape.userAgent,
    allowPrivate: scrape.allowPrivate,
    perHostDelayMs: scrape.perHostDelayMs,
    totalTimeoutMs: scrape.timeoutMs,
    now,
    ...opts.fetcher,
  })
  // Per-host limits held for every worker process together, through the database. A lease outlives
  // its request's deadline by a margin, so a worker that dies mid-request frees the slot on its own.
  // The embedded engine is opened by one process only (its data directory is locked), so there the
  // in-process limits are already global and the round trips are skipped.
  if (ctx.db.engine === 'postgres') {
    config.sharedHosts ??= createDbHostGate(ctx.db, {
      perHostConcurrency: config.perHostConcurrency,
      perHostDelayMs: config.perHostDelayMs,
      leaseMs: config.totalTimeoutMs + HOST_LEASE_MARGIN_MS,
    })
  }
  const fetcher = createFetcher(config, opts.internals)
  const adsTxt = createAdsTxtService({
    http: fetcher.http,
    store: createDbAdsTxtStore(ctx.db),
    now,
    ...(opts.adsTxtPorts ? { ports: opts.adsTxtPorts } : {}),
  })

  const pages = createPageWriter(ctx.db)

  async function fresh(ids: number[], maxAgeMs: number | undefined): Promise<Set<number>> {
    // Only pages fetched within the longest window can be fresh; the rule itself is freshness.ts's.
    const now = ctx.clock.now().getTime()
    const since = new Date(now - Math.min(scrape.freshnessMs, maxAgeMs ?? Number.POSITIVE_INFINITY))
    const { rows } = await ctx.db.query<FetchedState & { id: number }>(
      `SELECT id, fetched_at, errors, failed_fetches FROM pages WHERE id = ANY($1::bigint[]) AND state = 'done' AND fetched_at >= $2`,
      [ids, since],
    )
    return new Set(rows.filter((r) => isFresh(r, now, scrape, maxAgeMs)).map((r) => r.id))
  }

  /** Fetches the ads.txt of every root domain among `urls` whose cached copy has expired or is older than `maxAgeMs`. */
  async function refreshAdsTxt(urls: NormalizedUrl[], signal: AbortSignal | undefined, maxAgeMs: number | undefined): Promise<void> {
    const domains = [...new Set(urls.map((u) => rootDomain(u.host)).filter((d): d is string => d !== null))]
    const cached = await freshAdsTxtDomains(ctx.db, domains, ctx.clock.now(), maxAgeMs)
    await pool(
      domains.filter((d) => !cached.has(d)),
      ADS_TXT_CONCURRENCY,
      (d) => adsTxt.forUrl(d, maxAgeMs === undefined ? {} : { maxAgeMs }),
      signal,
    )
  }

  return {
    fetcher,
    adsTxt,
    async indexUrls(urls, opts = {}) {
      const { signal, onProgress, maxAgeMs } = opts
      // Every fetch in flight listens on the caller's signal; that many listeners is expected.
      if (signal) setMaxListeners(0, signal)
      const ids = await queuePages(ctx.db, urls, ctx.clock.now())
      const skip = await fresh([...ids.values()], maxAgeMs)
      const todo = [...ids].filter(([, id]) => !skip.has(id))
      let settled = ids.size - todo.length
      onProgress?.(settled)
      await Promise.all([
        pool(
          todo,
          opts.concurrency ?? 16,
          async ([url, id]) => {
            const outcome = await fetcher.fetchPage(url, signal ? { signal } : {})
            if (signal?.aborted) return
            await pages.save(id, analyzePage(outcome))
            onProgress?.(++settled)
          },
          signal,
        ),
        refreshAdsTxt(urls, signal, maxAgeMs),
      ])
      return ids
    },
    close: () => fetcher.close(),
  }
}
