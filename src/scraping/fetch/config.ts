/** Fetcher settings. Defaults are for production crawling; tests shorten the timeouts. */
import type { SharedHostGate } from './politeness.ts'
import type { Resolver } from './ssrf-guard.ts'

export interface FetcherConfig {
  /** Names the service and a contact URL, e.g. 'CurataBot/0.1 (+https://curata.example/bot)'. Its product token is matched against robots.txt. */
  userAgent: string
  /** Lets requests reach private, loopback and other non-public addresses (env SCRAPE_ALLOW_PRIVATE=true). Off by default. */
  allowPrivate: boolean
  /** Cap on page bytes, applied to the raw and to the decompressed body; a longer body is cut and flagged `truncated`. */
  maxBytes: number
  maxRedirects: number
  connectTimeoutMs: number
  /** From request sent to response headers received. */
  headersTimeoutMs: number
  /** Longest silence while reading the body. */
  idleTimeoutMs: number
  /**
   * Time budget of one URL's request chain: every redirect hop and retry (connection to last byte)
   * plus the backoff and Retry-After waits between attempts. Waiting for a politeness slot does not count.
   */
  totalTimeoutMs: number
  /** Requests in flight to one host at once (across every process sharing `sharedHosts`). */
  perHostConcurrency: number
  /** Minimum spacing between the starts of two requests to the same host. */
  perHostDelayMs: number
  globalConcurrency: number
  /** Extra attempts after a 5xx, 429 or dropped connection. */
  retries: number
  /** First retry backoff; doubles each attempt. */
  retryBaseDelayMs: number
  /** A Retry-After longer than this fails the request instead of waiting; the host is paused this long at most. */
  maxRetryAfterMs: number
  respectRobots: boolean
  /** robots.txt cache lifetime; capped at 24 h. */
  robotsTtlMs: number
  /** Wall clock for timestamps and cache expiry (not for politeness delays, which use the monotonic clock). */
  now?: () => number
  /** DNS override; tests use it to point names at loopback or private addresses. */
  resolver?: Resolver
  /** Keeps the per-host limits for all worker processes together (the scraper passes the database's). */
  sharedHosts?: SharedHostGate
}

export const DEFAULT_USER_AGENT = 'CurataBot/0.1 (+https://curata.example/bot)'

export const defaultFetcherConfig: Readonly<FetcherConfig> = {
  userAgent: DEFAULT_USER_AGENT,
  allowPrivate: false,
  maxBytes: 10 * 1024 * 1024,
  maxRedirects: 5,
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 15_000,
  idleTimeoutMs: 15_000,
  totalTimeoutMs: 30_000,
  perHostConcurrency: 2,
  perHostDelayMs: 1_000,
  globalConcurrency: 64,
  retries: 2,
  retryBaseDelayMs: 1_000,
  maxRetryAfterMs: 60_000,
  respectRobots: true,
  robotsTtlMs: 24 * 60 * 60 * 1000,
}

export function fetcherConfig(overrides: Partial<FetcherConfig> = {}): FetcherConfig {
  return { ...defaultFetcherConfig, ...overrides }
}
