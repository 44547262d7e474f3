/**
 * Fetches and parses the ads.txt of a root domain (public suffix + one label), as IAB ads.txt 1.1
 * and our spec describe it:
 * - https://<root>/ads.txt first, then http:// when https gives no usable file;
 * - redirects are followed while they stay inside the root domain; one hop may leave it (a
 *   delegation), and a redirect from there is an error;
 * - only a 200 with Content-Type text/plain counts; 404/410 mean not_found; anything else is an error;
 * - the body is capped (1 MiB by default; the largest real file we have seen is 89 KB).
 * Goes through the fetcher's HTTP client, so the SSRF guard and per-host politeness apply.
 * robots.txt does not apply to ads.txt (the IAB crawler does not consult it).
 */
import { rootDomain } from '../../content/urls/domains.ts'
import { decodeText } from '../fetch/charset.ts'
import type { HttpClient, HttpResult } from '../fetch/client.ts'
import { mediaType } from '../fetch/content.ts'
import type { AdsTxtEntry, AdsTxtVariables } from './parse.ts'
import { emptyVariables, parseAdsTxt } from './parse.ts'

export type AdsTxtStatus = 'found' | 'not_found' | 'error'

export interface AdsTxtResult {
  status: AdsTxtStatus
  /** Number of entries (record lines other than the placeholder; duplicates are counted). */
  seller_count: number
  entries: AdsTxtEntry[]
  variables: AdsTxtVariables
  invalid_lines: number
  /** The root domain the file belongs to. */
  domain: string | null
  /** URL the file was finally read from. */
  source_url: string | null
  /** Why the status is not_found or error; null when found. */
  reason: string | null
  fetched_at: string
}

export interface AdsTxtFetchOptions {
  http: HttpClient
  /** Body cap in bytes. */
  maxBytes?: number
  /** Ports to ask on, for tests and local setups; 443 and 80 otherwise. */
  ports?: { https?: number; http?: number }
  now?: () => number
  signal?: AbortSignal
}

export const ADS_TXT_MAX_BYTES = 1024 * 1024
// "Any number" of hops inside the root domain, bounded so a loop-free chain still ends.
const MAX_REDIRECTS = 10

function result(status: AdsTxtStatus, domain: string | null, now: () => number, fields: Partial<AdsTxtResult> = {}): AdsTxtResult {
  return {
    status,
    seller_count: 0,
    entries: [],
    variables: emptyVariables(),
    invalid_lines: 0,
    domain,
    source_url: null,
    reason: null,
    fetched_at: new Date(now()).toISOString(),
    ...fields,
  }
}

/** Turns one HTTP result into an ads.txt verdict. */
function interpret(res: HttpResult, domain: string, now: () => number): AdsTxtResult {
  const at = { source_url: res.finalUrl }
  if (!res.ok) return result('error', domain, now, { ...at, reason: res.reason })
  if (res.status === 404 || res.status === 410) return result('not_found', domain, now, { ...at, reason: `HTTP ${res.status}` })
  if (res.status !== 200) return result('error', domain, now, { ...at, reason: `HTTP ${res.status}` })
  const type = mediaType(res.headers['content-type'])
  if (type !== 'text/plain') return result('error', domain, now, { ...at, reason: `content type ${type ?? 'missing'}, not text/plain` })
  if (res.truncated || !res.body) return result('error', domain, now, { ...at, reason: 'file larger than the size cap' })
  const text = decodeText(res.body, res.headers['content-type'] ?? null, { html: false }).text
  // A soft 404: an HTML error page served as text/plain (the IAB crawler refuses these too).
  if (/<\s*(html|body|div|span)\b/i.test(text)) return result('error', domain, now, { ...at, reason: 'body is HTML, not an ads.txt file' })
  const parsed = parseAdsTxt(text)
  const hasVariables = Object.values(parsed.variables).some((v) => (Array.isArray(v) ? v.length > 0 : v !== null))
  // Empty files are deprecated and to be ignored (ads.txt 1.1); the placeholder record is the way to say "nobody".
  if (parsed.entries.length === 0 && !parsed.placeholder && !hasVariables) {
    return result('not_found', domain, now, { ...at, invalid_lines: parsed.invalid_lines, reason: 'file has no records' })
  }
  return result('found', domain, now, {
    ...at,
    seller_count: parsed.entries.length,
    entries: parsed.entries,
    variables: parsed.variables,
    invalid_lines: parsed.invalid_lines,
  })
}

const RANK: Record<AdsTxtStatus, number> = { found: 2, not_found: 1, error: 0 }

/** Fetches the ads.txt of the root domain of `hostOrUrl`. Never throws. */
export async function fetchAdsTxt(hostOrUrl: string, opts: AdsTxtFetchOptions): Promise<AdsTxtResult> {
  const now = opts.now ?? Date.now
  const domain = rootDomain(hostOrUrl)
  if (!domain) return result('error', null, now, { reason: `no registrable domain in "${hostOrUrl.slice(0, 200)}"` })
  let best: { verdict: AdsTxtResult; score: number } | null = null
  for (const scheme of ['https', 'http'] as const) {
    const port = opts.ports?.[scheme]
    const url = new URL(`${scheme}://${domain}${port ? `:${port}` : ''}/ads.txt`)
    let leftRoot = false
    const res = await opts.http.get(url, {
      accept: 'text/plain',
      maxBytes: opts.maxBytes ?? ADS_TXT_MAX_BYTES,
      maxRedirects: MAX_REDIRECTS,
      checkRedirect: (target) => {
        if (leftRoot) return 'ads.txt redirected again after leaving the root domain'
        if (rootDomain(target.hostname) !== domain) leftRoot = true
        return null
      },
      wantBody: (status, headers) => status === 200 && mediaType(headers['content-type']) === 'text/plain',
      signal: opts.signal,
    })
    const verdict = interpret(res, domain, now)
    if (verdict.status === 'found') return verdict
    // Keep the more telling verdict: not_found beats error, and an HTTP answer beats a failed connection.
    const score = RANK[verdict.status] * 2 + (res.ok || res.status !== null ? 1 : 0)
    if (!best || score > best.score) best = { verdict, score }
  }
  return best?.verdict ?? result('error', domain, now, { reason: 'not fetched' })
}
