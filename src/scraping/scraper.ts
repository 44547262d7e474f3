import type { AppContext } from '../platform/context.ts'
import { fetcherConfig } from './fetch/config.ts'
import { createFetcher } from './fetch/fetcher.ts'
import type { Fetcher } from './fetch/fetcher.ts'
import { analyzePage } from './index/analyze-page.ts'
import type { NormalizedUrl } from './index/normalize-url.ts'
import { queuePages, savePage } from './index/pages-repository.ts'

export interface Scraper {
  readonly fetcher: Fetcher
  /**
   * Makes sure each URL is in the index: fetched, analyzed and stored, unless it was fetched within
   * the freshness window. Resolves to each URL's page id (errors are recorded on the page).
   */
  indexUrls(urls: NormalizedUrl[], opts?: { signal?: AbortSignal; concurrency?: number }): Promise<Map<string, number>>
  close(): Promise<void>
}

const scrapers = new WeakMap<AppContext, Scraper>()

/** The process's scraper: one fetcher per process, so politeness and robots caches are shared. */
export function scraperFor(ctx: AppContext): Scraper {
  let s = scrapers.get(ctx)
  if (!s) {
    s = createScraper(ctx)
    scrapers.set(ctx, s)
  }
  return s
}

export async function closeScraper(ctx: AppContext): Promise<void> {
  await scrapers.get(ctx)?.close()
  scrapers.delete(ctx)
}

function createScraper(ctx: AppContext): Scraper {
  const { scrape } = ctx.config
  const fetcher = createFetcher(
    fetcherConfig({
      userAgent: scrape.userAgent,
      allowPrivate: scrape.allowPrivate,
      perHostDelayMs: scrape.perHostDelayMs,
      totalTimeoutMs: scrape.timeoutMs,
      now: () => ctx.clock.now().getTime(),
    }),
  )

  async function fresh(ids: number[]): Promise<Set<number>> {
    const since = new Date(ctx.clock.now().getTime() - scrape.freshnessMs)
    const { rows } = await ctx.db.query<{ id: number }>(
      `SELECT id FROM pages WHERE id = ANY($1::bigint[]) AND state = 'done' AND fetched_at >= $2`,
      [ids, since],
    )
    return new Set(rows.map((r) => r.id))
  }

  return {
    fetcher,
    async indexUrls(urls, opts = {}) {
      const ids = await queuePages(ctx.db, urls, ctx.clock.now())
      const skip = await fresh([...ids.values()])
      const todo = [...ids].filter(([, id]) => !skip.has(id))
      let next = 0
      const worker = async () => {
        while (next < todo.length && !opts.signal?.aborted) {
          const [url, id] = todo[next++]!
          const outcome = await fetcher.fetchPage(url, opts.signal ? { signal: opts.signal } : {})
          await savePage(ctx.db, id, analyzePage(outcome))
        }
      }
      await Promise.all(Array.from({ length: Math.min(opts.concurrency ?? 16, todo.length) }, worker))
      return ids
    },
    close: () => fetcher.close(),
  }
}
