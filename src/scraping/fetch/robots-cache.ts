/**
 * robots.txt fetched once per origin (scheme + host + port) and kept at most 24 hours (RFC 9309 §2.4).
 * Status handling per RFC 9309 §2.3.1: 2xx → parse; 4xx → no robots.txt, everything allowed;
 * 5xx, 429 or unreachable → assume everything disallowed, and ask again sooner.
 */
import type { HttpClient } from './client.ts'
import type { RobotsPolicy } from './robots.ts'
import { ALLOW_ALL, DISALLOW_ALL, parseRobots, ROBOTS_MAX_BYTES } from './robots.ts'

const MAX_TTL_MS = 24 * 60 * 60 * 1000
// A transient outage should not block a site for a day.
const FAILURE_TTL_MS = 10 * 60 * 1000
const MAX_ORIGINS = 10_000

export interface RobotsCacheOptions {
  http: HttpClient
  userAgent: string
  /** Capped at 24 h. */
  ttlMs: number
  now: () => number
}

export interface RobotsCache {
  /** Null when our user agent may fetch `url`, else why not. The caller's signal only stops the wait. */
  refusal(url: URL, signal?: AbortSignal): Promise<string | null>
}

interface Verdict {
  policy: RobotsPolicy
  /** Why robots.txt could not be read, when the policy is the disallow-all fallback. */
  unavailable: string | null
}

interface Entry {
  expiresAt: number
  verdict: Promise<Verdict>
}

function untilAborted<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason)
    const onAbort = (): void => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

export function createRobotsCache(opts: RobotsCacheOptions): RobotsCache {
  const entries = new Map<string, Entry>()
  const ttl = Math.min(opts.ttlMs, MAX_TTL_MS)

  async function load(origin: string, entry: Entry): Promise<Verdict> {
    // No caller signal: the fetch is shared by every page of the origin.
    const res = await opts.http.get(new URL('/robots.txt', origin), {
      accept: 'text/plain',
      maxBytes: ROBOTS_MAX_BYTES,
      maxRedirects: 5,
    })
    const failed = (why: string): Verdict => {
      entry.expiresAt = Math.min(entry.expiresAt, opts.now() + FAILURE_TTL_MS)
      return { policy: DISALLOW_ALL, unavailable: why }
    }
    const allowAll: Verdict = { policy: ALLOW_ALL, unavailable: null }
    // Too many redirects means "unavailable" (§2.3.1.2), which is treated like a 4xx.
    if (!res.ok) return res.fault === 'redirect' ? allowAll : failed(res.reason)
    if (res.status >= 200 && res.status < 300) {
      const text = (res.body ?? Buffer.alloc(0)).toString('utf8').replace(/^\uFEFF/, '')
      return { policy: parseRobots(text, opts.userAgent), unavailable: null }
    }
    if (res.status >= 400 && res.status < 500 && res.status !== 429) return allowAll
    return failed(`HTTP ${res.status}`)
  }

  function verdictFor(origin: string): Promise<Verdict> {
    const now = opts.now()
    const cached = entries.get(origin)
    if (cached && cached.expiresAt > now) return cached.verdict
    entries.delete(origin)
    if (entries.size >= MAX_ORIGINS) {
      const oldest = entries.keys().next()
      if (!oldest.done) entries.delete(oldest.value)
    }
    const entry: Entry = { expiresAt: now + ttl, verdict: Promise.resolve({ policy: ALLOW_ALL, unavailable: null }) }
    entry.verdict = load(origin, entry)
    entries.set(origin, entry)
    return entry.verdict
  }

  return {
    async refusal(url, signal) {
      const { policy, unavailable } = await untilAborted(verdictFor(url.origin), signal)
      if (policy.isAllowed(url.pathname + url.search)) return null
      const robotsUrl = `${url.origin}/robots.txt`
      return unavailable ? `disallowed: ${robotsUrl} unavailable (${unavailable})` : `disallowed by ${robotsUrl}`
    },
  }
}
