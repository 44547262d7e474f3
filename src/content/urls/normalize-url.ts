import { registrableDomain } from './domains.ts'

/** Longest URL accepted anywhere (submission, search, example URLs). */
export const maxUrlLength = 2048

export type NormalizedUrl = { url: string; host: string; tld: string }

/**
 * The index key of a URL: http(s) only, scheme and host lower-cased (IDN hosts in punycode), the
 * default port and the fragment dropped, path and query kept as they are. Returns a reason instead
 * when the URL cannot be indexed.
 */
export function normalizeUrl(input: string): NormalizedUrl | { error: string } {
  const raw = input.trim()
  if (!raw) return { error: 'URL is empty' }
  if (raw.length > maxUrlLength) return { error: `URL is longer than ${maxUrlLength} characters` }
  let u: URL
  try {
    u = new URL(raw)
  } catch {
    return { error: 'not a valid absolute URL' }
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return { error: 'only http and https URLs can be scraped' }
  if (u.username || u.password) return { error: 'URLs with credentials are not accepted' }
  if (!u.hostname) return { error: 'URL has no host' }
  if (raw.includes('#')) u.hash = ''
  const host = u.hostname
  return { url: u.href, host, tld: registrableDomain(host) }
}

export function isNormalizeError(r: NormalizedUrl | { error: string }): r is { error: string } {
  return 'error' in r
}
