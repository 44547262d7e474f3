// URL and query-string reading on the collector's write path, where every hit carries a page URL
// and a query string. The common shape is read with one regular expression; anything unusual
// (user info, IPv6 literals, backslashes, dot segments, characters a browser would escape) goes
// through the WHATWG URL parser, so both paths give the same answer.

export interface PageUrl {
  /** scheme://host[:port], lowercased, default port dropped: URL.origin */
  origin: string
  hostname: string
  /** URL.pathname ("/" at least) */
  pathname: string
  /** The query without "?" ("" when none). */
  query: string
}

const SIMPLE = /^(https?):\/\/([A-Za-z0-9.-]+)(?::(\d{1,5}))?(\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*)?(?:\?([^#]*))?(?:#.*)?$/i
const DOT_SEGMENT = /\/\.|%2e/i
const NUMERIC_LABEL = /(?:^|\.)(?:\d+|0x[0-9a-f]*)\.?$/i

/** An absolute http(s) URL, or null. */
export function parseHttpUrl(v: string): PageUrl | null {
  const m = SIMPLE.exec(v)
  // Hosts whose last label is numeric are IPv4 forms ("127.1", "0x7f.1") that URL rewrites.
  if (!m || (m[4] && DOT_SEGMENT.test(m[4])) || m[2]!.startsWith('.') || NUMERIC_LABEL.test(m[2]!)) return slow(v)
  const scheme = m[1]!.toLowerCase()
  const hostname = m[2]!.toLowerCase()
  const port = m[3] === undefined ? null : Number(m[3])
  if (port !== null && port > 65535) return null
  const isDefault = port === null || (scheme === 'http' && port === 80) || (scheme === 'https' && port === 443)
  return { origin: `${scheme}://${hostname}${isDefault ? '' : `:${port}`}`, hostname, pathname: m[4] ?? '/', query: m[5] ?? '' }
}

function slow(v: string): PageUrl | null {
  if (!/^https?:\/\//i.test(v)) return null
  try {
    const u = new URL(v)
    return { origin: u.origin, hostname: u.hostname, pathname: u.pathname, query: u.search.slice(1) }
  } catch {
    return null
  }
}

/**
 * Reads `name=value` pairs of a query string (or a beacon body in the same form), keeping only
 * `wanted` names; a later pair wins. Values are decoded like URLSearchParams does ("+" is a space,
 * a malformed %-escape is kept as it is).
 */
export function readQuery(query: string, wanted: ReadonlySet<string>, into: Record<string, string> = {}): Record<string, string> {
  let start = 0
  const n = query.length
  while (start <= n) {
    let end = query.indexOf('&', start)
    if (end < 0) end = n
    const eq = query.indexOf('=', start)
    const keyEnd = eq >= 0 && eq < end ? eq : end
    const key = decode(query.slice(start, keyEnd))
    if (wanted.has(key)) into[key] = keyEnd < end ? decode(query.slice(keyEnd + 1, end)) : ''
    start = end + 1
  }
  return into
}

function decode(s: string): string {
  const plus = s.includes('+') ? s.replaceAll('+', ' ') : s
  if (!plus.includes('%')) return plus
  try {
    return decodeURIComponent(plus)
  } catch {
    return plus.replace(/%[0-9a-fA-F]{2}/g, (e) => {
      try {
        return decodeURIComponent(e)
      } catch {
        return e
      }
    })
  }
}
