/**
 * When the index serves a page as it is and when a request fetches it again (docs/scraping.md,
 * "Freshness"). A good fetch stays fresh for SCRAPE_FRESHNESS_HOURS. A failed one (E002: timeout,
 * refused, 5xx) is retried sooner, SCRAPE_FAILED_RETRY_MINUTES after the first failure and twice as
 * long after each further failure in a row, so a dead site is not hammered and a blip does not stick
 * for a week. A job or search may ask for younger copies (`max_age`, `force`), never younger than
 * SCRAPE_MIN_REFETCH_SECONDS.
 */
import type { Config } from '../../platform/config.ts'

type ScrapeConfig = Config['scrape']

export interface FetchedState {
  fetched_at: Date | null
  errors: readonly string[]
  failed_fetches: number
}

/** How long this page's last fetch stays fresh. */
export function freshForMs(page: Pick<FetchedState, 'errors' | 'failed_fetches'>, cfg: Pick<ScrapeConfig, 'freshnessMs' | 'failedRetryMs'>): number {
  if (!page.errors.includes('E002')) return cfg.freshnessMs
  const doublings = Math.min(20, Math.max(0, page.failed_fetches - 1))
  return Math.min(cfg.freshnessMs, cfg.failedRetryMs * 2 ** doublings)
}

/** Whether the index may serve the page without fetching it again, for a request allowing `maxAgeMs`. */
export function isFresh(page: FetchedState, nowMs: number, cfg: Pick<ScrapeConfig, 'freshnessMs' | 'failedRetryMs'>, maxAgeMs?: number): boolean {
  if (!page.fetched_at) return false
  const age = nowMs - page.fetched_at.getTime()
  return age <= Math.min(freshForMs(page, cfg), maxAgeMs ?? Number.POSITIVE_INFINITY)
}

/** The max age a request asked for (`force` = the smallest allowed), in ms; undefined when it asked for none. */
export function requestedMaxAgeMs(
  req: { max_age?: number | undefined; force?: boolean | undefined },
  cfg: Pick<ScrapeConfig, 'minRefetchMs'>,
): number | undefined {
  if (req.force) return cfg.minRefetchMs
  if (req.max_age === undefined) return undefined
  return Math.max(cfg.minRefetchMs, req.max_age * 1000)
}
