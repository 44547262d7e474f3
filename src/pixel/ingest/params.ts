// Parameters of a pixel load or beacon (docs/pixel.md, "Parameters"): the page, its referrer, the
// serving domain, and the DSP macros passed through. A value still shaped like a macro was never
// expanded by the DSP: it is kept, flagged `unexpanded:<name>`, and not used as a page or domain.
// A value that is neither a macro nor well-formed is junk: flagged `bad:<name>`, and the load is
// recorded as invalid.
import { stripNul } from './event.ts'
import { parseHttpUrl, readQuery } from './url.ts'

/** DSP pass-through parameters, stored as sent in the event's `macros`. */
export const MACRO_PARAMS = ['deal', 'price', 'cur', 'cb', 'imp', 'site', 'dsp'] as const
/** Every parameter the collector reads; others are ignored. */
export const PIXEL_PARAMS: ReadonlySet<string> = new Set(['u', 'r', 'd', 'wd', ...MACRO_PARAMS])

export interface PixelParams {
  pageUrl: string | null
  referrer: string | null
  domain: string | null
  macros: Record<string, string> | null
  webdriver: boolean | undefined
  flags: string[]
  /** Some parameter was junk. */
  bad: boolean
}

const MAX_URL = 2048
const MAX_ID = 256

// ${AUCTION_PRICE}, %%TTD_SITE%%, {deal_id}, [timestamp] as the whole value; ${…} or %%…%% anywhere.
const WHOLE_MACRO = /^(?:\$\{[^}]*\}|%%[^%]*%%|\{[^}]*\}|\[[^\]]*\])$/
const INNER_MACRO = /\$\{[A-Za-z0-9_]+\}|%%[A-Za-z0-9_]+%%/
const HOSTNAME = /^[a-z0-9](?:[a-z0-9-]{0,62}\.)*[a-z0-9-]{1,63}$/i
// A decimal price, or an exchange-encrypted one (Google's %%WINNING_PRICE%%: websafe base64).
const PRICE = /^(?:\d{1,12}(?:\.\d{1,10})?|[A-Za-z0-9_-]{16,64}={0,2})$/

export const isUnexpanded = (v: string): boolean => WHOLE_MACRO.test(v) || INNER_MACRO.test(v)

type Check = 'url' | 'host' | 'price' | 'id'

/**
 * How a value reads: 'ok', 'unexpanded' (a DSP macro), 'audit' (OpenRTB's placeholder for an
 * unknown value, sent on test and ad-quality renders) or 'bad'.
 */
function assess(v: string, check: Check): 'ok' | 'unexpanded' | 'audit' | 'bad' {
  if (v.length > (check === 'url' ? MAX_URL : MAX_ID)) return 'bad'
  if (isUnexpanded(v)) return 'unexpanded'
  if (v === 'AUDIT') return 'audit'
  switch (check) {
    case 'url':
      return parseHttpUrl(v) ? 'ok' : 'bad'
    case 'host':
      return HOSTNAME.test(v) ? 'ok' : 'bad'
    case 'price':
      return PRICE.test(v) ? 'ok' : 'bad'
    case 'id':
      return 'ok'
  }
}

export function parsePixelParams(input: Record<string, string>): PixelParams {
  const out: PixelParams = { pageUrl: null, referrer: null, domain: null, macros: null, webdriver: undefined, flags: [], bad: false }
  for (const name of ['u', 'r', 'd'] as const) {
    const v = input[name]
    if (!v) continue
    const verdict = assess(v, name === 'd' ? 'host' : 'url')
    if (verdict !== 'ok') {
      out.flags.push(`${verdict}:${name}`)
      if (verdict === 'bad') out.bad = true
    } else if (name === 'u') out.pageUrl = v
    else if (name === 'r') out.referrer = v
    else out.domain = v.toLowerCase()
  }
  for (const name of MACRO_PARAMS) {
    const v = input[name]
    if (!v) continue
    ;(out.macros ??= {})[name] = stripNul(v.length > MAX_ID ? v.slice(0, MAX_ID) : v)
    const verdict = assess(v, name === 'price' ? 'price' : 'id')
    if (verdict !== 'ok') {
      out.flags.push(`${verdict}:${name}`)
      if (verdict === 'bad') out.bad = true
    }
  }
  const wd = input.wd
  if (wd !== undefined) out.webdriver = wd === '1' || wd === 'true'
  return out
}

/**
 * Adds a beacon body's parameters to `into`: the same form as a query string (what the snippet
 * sends with sendBeacon as text/plain), or a flat JSON object. False when it is neither.
 */
export function readBeaconBody(body: string, into: Record<string, string>): boolean {
  const text = body.trim()
  if (!text.startsWith('{')) {
    readQuery(text, PIXEL_PARAMS, into)
    return true
  }
  try {
    const parsed: unknown = JSON.parse(text)
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return false
    for (const [k, v] of Object.entries(parsed as Record<string, unknown>)) {
      if (PIXEL_PARAMS.has(k) && (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')) into[k] = String(v)
    }
    return true
  } catch {
    return false
  }
}
