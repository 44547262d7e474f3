/**
 * The one HTTP client of the scraping feature. Every request goes through the SSRF-guarded agent
 * and the politeness gate, follows redirects by hand (each hop re-vetted by the caller), retries
 * 5xx/429 a bounded number of times, and never throws: failures come back as values.
 */

import type { Dispatcher } from 'undici'
import { request } from 'undici'
import { discard, readBody } from './body.ts'
import type { Fault } from './failure.ts'
import { FetchFailure, toFailure } from './failure.ts'
import type { Politeness, PolitenessOptions } from './politeness.ts'
import { createPoliteness } from './politeness.ts'
import { sleep } from './sleep.ts'
import type { Classifier, Resolver } from './ssrf-guard.ts'
import { createGuardedAgent } from './ssrf-guard.ts'

export interface HttpClientConfig extends PolitenessOptions {
  userAgent: string
  allowPrivate: boolean
  connectTimeoutMs: number
  headersTimeoutMs: number
  idleTimeoutMs: number
  /**
   * Time budget of one `get`: every redirect hop and retry, from connection to last body byte, plus
   * the backoff and Retry-After waits between attempts. Time queued for a politeness slot is not counted.
   */
  totalTimeoutMs: number
  /** Extra attempts after a 5xx, a 429 or a dropped connection. */
  retries: number
  /** First backoff delay; doubles on each retry. */
  retryBaseDelayMs: number
  /** A Retry-After longer than this is not waited out (the request fails); the host is still paused this long. */
  maxRetryAfterMs: number
  /** DNS override, for tests. */
  resolver?: Resolver
}

export interface GetOptions {
  accept: string
  maxBytes: number
  maxRedirects: number
  /** Vets a redirect target: a reason to refuse it, or null to follow. */
  checkRedirect?: (target: URL, from: URL) => string | null | Promise<string | null>
  /** Whether the final response's body is worth reading; other bodies are discarded unread. */
  wantBody?: (status: number, headers: Headers) => boolean
  signal?: AbortSignal
}

export type Headers = Record<string, string>

export interface HttpResponse {
  ok: true
  finalUrl: string
  status: number
  headers: Headers
  /** Null when `wantBody` declined it. */
  body: Buffer | null
  truncated: boolean
}

export interface HttpFailure {
  ok: false
  finalUrl: string
  /** Status of the last response seen, when a failure follows one (e.g. a refused redirect). */
  status: number | null
  fault: Fault
  reason: string
}

export type HttpResult = HttpResponse | HttpFailure

export interface HttpClient {
  get(url: URL, opts: GetOptions): Promise<HttpResult>
  close(): Promise<void>
}

const REDIRECTS = new Set([301, 302, 303, 307, 308])
const RETRY_STATUSES = new Set([429, 500, 502, 503, 504])
// Statuses whose Retry-After is honoured (RFC 9110 §10.2.3, RFC 6585 §4).
const RETRY_AFTER_STATUSES = new Set([429, 503])
const ACCEPT_ENCODING = 'gzip, deflate, br'

function flatten(raw: Record<string, string | string[] | undefined>): Headers {
  const out: Headers = {}
  for (const [k, v] of Object.entries(raw)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v
  return out
}

/** Retry-After in ms (delta-seconds or HTTP-date), or null when absent or unreadable. */
export function retryAfterMs(value: string | undefined, nowMs: number = Date.now()): number | null {
  if (!value) return null
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000
  const at = Date.parse(value)
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs)
}

type Hop = HttpResponse | HttpFailure

/** What is left of one `get`'s time budget (totalTimeoutMs). */
interface Budget {
  left(): number
  spend(ms: number): void
  expired(): FetchFailure
}

function createBudget(totalMs: number): Budget {
  let spent = 0
  return {
    left: () => totalMs - spent,
    spend: (ms) => void (spent += ms),
    expired: () => new FetchFailure('timeout', `no complete response within ${totalMs} ms`),
  }
}

/** Seams for tests only; production code passes nothing. */
export interface HttpClientInternals {
  /** Lets a test treat its own loopback fixture as public while every other private address stays refused. */
  classify?: Classifier
}

export function createHttpClient(cfg: HttpClientConfig, internals: HttpClientInternals = {}): HttpClient {
  const agent: Dispatcher = createGuardedAgent({ ...cfg, classify: internals.classify })
  let closed: Promise<void> | null = null
  const politeness: Politeness = createPoliteness(cfg)

  /** One request, no redirects, no retries: politeness slot, what is left of the budget, body. */
  async function once(url: URL, opts: GetOptions, budget: Budget): Promise<Hop> {
    const fail = (f: FetchFailure, status: number | null = null): HttpFailure => ({ ok: false, finalUrl: url.href, status, fault: f.fault, reason: f.message })
    let release: (() => void) | undefined
    try {
      release = await politeness.acquire(url.host, opts.signal)
    } catch {
      return fail(new FetchFailure('aborted', 'cancelled while waiting for a politeness slot'))
    }
    const started = performance.now()
    const deadline = new AbortController()
    const timer = setTimeout(() => deadline.abort(budget.expired()), Math.max(0, budget.left()))
    const signal = opts.signal ? AbortSignal.any([opts.signal, deadline.signal]) : deadline.signal
    let status: number | null = null
    try {
      if (budget.left() <= 0) return fail(budget.expired())
      const res = await request(url, {
        dispatcher: agent,
        method: 'GET',
        headers: { 'user-agent': cfg.userAgent, accept: opts.accept, 'accept-encoding': ACCEPT_ENCODING },
        signal,
      })
      status = res.statusCode
      const headers = flatten(res.headers)
      const isRedirect = REDIRECTS.has(status) && headers.location !== undefined
      if (isRedirect || !(opts.wantBody?.(status, headers) ?? (status >= 200 && status < 300))) {
        // Unread bodies are dropped with their connection: a hostile server cannot make us drain it.
        discard(res.body)
        return { ok: true, finalUrl: url.href, status, headers, body: null, truncated: false }
      }
      const body = await readBody(res.body, headers['content-encoding'], { maxBytes: opts.maxBytes, idleTimeoutMs: cfg.idleTimeoutMs, signal })
      return { ok: true, finalUrl: url.href, status, headers, body: body.bytes, truncated: body.truncated }
    } catch (err) {
      if (deadline.signal.aborted) return fail(deadline.signal.reason as FetchFailure, status)
      if (opts.signal?.aborted) return fail(new FetchFailure('aborted', 'cancelled by the caller'), status)
      return fail(toFailure(err), status)
    } finally {
      clearTimeout(timer)
      budget.spend(performance.now() - started)
      release()
    }
  }

  /**
   * One hop with bounded retries. A 429 or 503 with Retry-After pauses the whole host (up to
   * maxRetryAfterMs) whether or not this request tries again, so the next URL of the host waits too.
   */
  async function withRetries(url: URL, opts: GetOptions, budget: Budget): Promise<Hop> {
    for (let attempt = 0; ; attempt++) {
      const hop = await once(url, opts, budget)
      const wait = hop.ok && RETRY_AFTER_STATUSES.has(hop.status) ? retryAfterMs(hop.headers['retry-after']) : null
      if (wait !== null) await politeness.pause(url.host, Math.min(wait, cfg.maxRetryAfterMs))
      const retryable = hop.ok ? RETRY_STATUSES.has(hop.status) : hop.fault === 'network'
      if (attempt >= cfg.retries || !retryable) return hop
      if (wait !== null) {
        // The pause above makes the next attempt wait at the politeness gate; that wait is charged here.
        if (wait > cfg.maxRetryAfterMs || wait >= budget.left()) return hop
        budget.spend(wait)
      } else {
        const backoff = cfg.retryBaseDelayMs * 2 ** attempt
        if (backoff >= budget.left()) return hop
        try {
          await sleep(backoff, opts.signal)
        } catch {
          return hop
        }
        budget.spend(backoff)
      }
    }
  }

  async function get(start: URL, opts: GetOptions): Promise<HttpResult> {
    const seen = new Set([start.href])
    const budget = createBudget(cfg.totalTimeoutMs)
    let url = start
    for (let redirects = 0; ; redirects++) {
      const hop = await withRetries(url, opts, budget)
      const location = hop.ok && REDIRECTS.has(hop.status) ? hop.headers.location : undefined
      if (!hop.ok || location === undefined) return hop
      const refuse = (reason: string): HttpFailure => ({ ok: false, finalUrl: url.href, status: hop.status, fault: 'redirect', reason })
      if (redirects >= opts.maxRedirects) return refuse(`more than ${opts.maxRedirects} redirects`)
      let target: URL
      try {
        target = new URL(location, url)
      } catch {
        return refuse(`invalid redirect location "${location.slice(0, 200)}"`)
      }
      target.hash = ''
      if (target.protocol !== 'http:' && target.protocol !== 'https:') return refuse(`redirect to unsupported scheme ${target.protocol}`)
      if (seen.has(target.href)) return refuse(`redirect loop at ${target.href}`)
      const refusal = await opts.checkRedirect?.(target, url)
      if (refusal) return refuse(refusal)
      seen.add(target.href)
      url = target
    }
  }

  return {
    async get(url, opts) {
      try {
        return await get(url, opts)
      } catch (err) {
        // Unreachable in principle; the contract is "never throws".
        const f = toFailure(err)
        return { ok: false, finalUrl: url.href, status: null, fault: f.fault, reason: f.message }
      }
    },
    // Idempotent: undici rejects a second close, and a context's owner may close it twice.
    close: () => (closed ??= agent.close()),
  }
}
