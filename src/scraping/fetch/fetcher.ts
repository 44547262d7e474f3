/**
 * Entry point of the web-fetching layer: `createFetcher(config).fetchPage(url)` fetches one page
 * politely and safely and always resolves to a FetchOutcome, bounded in time and memory.
 *
 * Error codes follow spec §7: E002 when the page cannot be had (HTTP error, timeout, DNS,
 * SSRF guard, robots.txt, redirect loop or too many redirects); E003 when bytes arrived but are not
 * a readable page (non-HTML type, binary under text/html, undecodable). A body cut at the size cap
 * comes back with `truncated: true`; the caller reports that as E008.
 */

import type { HttpClient, HttpClientInternals, HttpResult } from './client.ts'
import { createHttpClient } from './client.ts'
import type { FetcherConfig } from './config.ts'
import { isPageType, mediaType, readPage } from './content.ts'
import type { Fault } from './failure.ts'
import { createRobotsCache } from './robots-cache.ts'

export type { HttpClient } from './client.ts'
export type { FetcherConfig } from './config.ts'
export { DEFAULT_USER_AGENT, defaultFetcherConfig, fetcherConfig } from './config.ts'

export interface FetchError {
  code: 'E002' | 'E003'
  reason: string
}

export interface FetchOutcome {
  /** The URL as asked for. */
  url: string
  /** Where the last request went, after redirects. */
  finalUrl: string
  /** HTTP status of the last response, null when none arrived. */
  status: number | null
  contentType: string | null
  /** Decoded text when the body is HTML, XHTML or plain text; null on error. */
  html: string | null
  /** Encoding the body was decoded with (iconv-lite name). */
  encoding: string | null
  /** Response headers of the final response (lower-case names), e.g. last-modified, x-robots-tag. */
  headers: Record<string, string>
  /** The body went past `maxBytes` and was cut there: the caller sets E008. */
  truncated: boolean
  error: FetchError | null
  /** ISO timestamp of the start of the fetch. */
  fetchedAt: string
  elapsedMs: number
}

export interface Fetcher {
  fetchPage(url: string, opts?: { signal?: AbortSignal }): Promise<FetchOutcome>
  /** The guarded, polite HTTP client underneath, shared with the ads.txt module. */
  readonly http: HttpClient
  close(): Promise<void>
}

const HTML_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,text/plain;q=0.5,*/*;q=0.1'

function codeFor(fault: Fault): FetchError['code'] {
  return fault === 'content' ? 'E003' : 'E002'
}

function parseTarget(raw: string): URL | string {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return 'malformed URL'
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `unsupported scheme ${url.protocol}`
  url.hash = ''
  return url
}

export function createFetcher(config: FetcherConfig, internals?: HttpClientInternals): Fetcher {
  const now = config.now ?? Date.now
  const http = createHttpClient(config, internals)
  const robots = createRobotsCache({ http, userAgent: config.userAgent, ttlMs: config.robotsTtlMs, now })

  async function robotsRefusal(url: URL, signal?: AbortSignal): Promise<string | null> {
    return config.respectRobots ? robots.refusal(url, signal) : null
  }

  async function fetchPage(rawUrl: string, opts: { signal?: AbortSignal } = {}): Promise<FetchOutcome> {
    const started = performance.now()
    const base = {
      url: rawUrl,
      finalUrl: rawUrl,
      status: null,
      contentType: null,
      html: null,
      encoding: null,
      headers: {},
      truncated: false,
      fetchedAt: new Date(now()).toISOString(),
    }
    const done = (fields: Partial<FetchOutcome>): FetchOutcome => ({ ...base, error: null, ...fields, elapsedMs: Math.round(performance.now() - started) })
    const fail = (code: FetchError['code'], reason: string, fields: Partial<FetchOutcome> = {}): FetchOutcome => done({ ...fields, error: { code, reason } })
    try {
      const url = parseTarget(rawUrl)
      if (typeof url === 'string') return fail('E002', url)
      const refused = await robotsRefusal(url, opts.signal)
      if (refused) return fail('E002', refused, { finalUrl: url.href })

      const res: HttpResult = await http.get(url, {
        accept: HTML_ACCEPT,
        maxBytes: config.maxBytes,
        maxRedirects: config.maxRedirects,
        checkRedirect: (target) => robotsRefusal(target, opts.signal),
        wantBody: (status, headers) => status >= 200 && status < 300 && isPageType(headers['content-type'] ?? null),
        signal: opts.signal,
      })
      if (!res.ok) return fail(codeFor(res.fault), res.reason, { finalUrl: res.finalUrl, status: res.status })

      const contentType = res.headers['content-type'] ?? null
      const seen = { finalUrl: res.finalUrl, status: res.status, contentType, headers: res.headers }
      if (res.status < 200 || res.status >= 300) return fail('E002', `HTTP ${res.status}`, seen)
      if (!isPageType(contentType) || !res.body) return fail('E003', `content type ${mediaType(contentType)} is not HTML`, seen)
      const page = readPage(res.body, contentType, res.truncated)
      if (!page.ok) return fail('E003', page.reason, { ...seen, truncated: res.truncated })
      return done({ ...seen, html: page.text, encoding: page.encoding, truncated: res.truncated })
    } catch (err) {
      // fetchPage never throws; the only expected path here is the caller aborting a robots wait.
      return fail('E002', opts.signal?.aborted ? 'cancelled by the caller' : `unexpected: ${err instanceof Error ? err.message : String(err)}`)
    }
  }

  return { fetchPage, http, close: () => http.close() }
}
