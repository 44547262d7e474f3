import { getDomain } from 'tldts'

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/

/**
 * A domain as users write it in block lists and removals: case-folded, IDN in punycode, a leading
 * "*." or "." and a trailing dot dropped. Returns null when it is not a host name.
 */
export function normalizeDomain(input: string): string | null {
  let d = input.trim().toLowerCase()
  if (d.startsWith('*.')) d = d.slice(2)
  else if (d.startsWith('.')) d = d.slice(1)
  if (d.endsWith('.')) d = d.slice(0, -1)
  if (!d || d.length > 253 || /[\s/?#@:\\]/.test(d)) return null
  let host: string
  try {
    host = new URL(`http://${d}`).hostname
  } catch {
    return null
  }
  if (!host || host.length > 253) return null
  return host.split('.').every((l) => LABEL.test(l)) ? host : null
}

/**
 * The one domain rule (docs/scraping.md, "Domains"): the registrable domain of a host name or URL is
 * its public suffix plus one label, by the Public Suffix List including its private section, so
 * `user.github.io` or `shop.myshopify.com` is a domain of its own (each has its own owner and its own
 * ads.txt). Null for IP literals and single-label hosts.
 */
export function rootDomain(hostOrUrl: string): string | null {
  return getDomain(hostOrUrl, { allowPrivateDomains: true })
}

/** The spec's `tld` of a host: its registrable domain, or the host itself (an IP, a bare name) when it has none. */
export function registrableDomain(host: string): string {
  return rootDomain(host) ?? host.replace(/^\[|\]$/g, '')
}

/** A matcher over a block list: one Set look-up per suffix of the host. */
export function domainMatcher(domains: Iterable<string>): (host: string) => string | null {
  const set = new Set(domains)
  if (set.size === 0) return () => null
  return (host) => {
    let h = host
    for (;;) {
      if (set.has(h)) return h
      const dot = h.indexOf('.')
      if (dot < 0) return null
      h = h.slice(dot + 1)
    }
  }
}
