import net from 'node:net'

import type { Resolver } from '../net/ssrf-guard.ts'
import { blockedRange, systemResolver } from '../net/ssrf-guard.ts'

/**
 * Why a webhook URL is refused, or null when it may be used: http(s) only, no credentials in it,
 * and — unless the private-address switch (SCRAPE_ALLOW_PRIVATE) is on — every address its host
 * resolves to must be public, as for the scraper. Checked when a target is registered; the delivery
 * connection checks the address it actually reaches again (a name may change what it resolves to).
 */
export async function checkWebhookUrl(raw: string, allowPrivate: boolean, resolver: Resolver = systemResolver): Promise<string | null> {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return 'is not an absolute URL'
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http or https URL'
  if (url.username || url.password) return 'must not carry credentials'
  if (!url.hostname) return 'has no host'
  if (allowPrivate) return null
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname
  let addresses: string[]
  if (net.isIP(host)) addresses = [host]
  else {
    try {
      addresses = (await resolver(host)).map((a) => a.address)
    } catch {
      return `host ${host} could not be resolved`
    }
  }
  if (!addresses.length) return `host ${host} could not be resolved`
  for (const a of addresses) {
    const range = blockedRange(a)
    if (range) return `reaches a non-public address (${a}, ${range}); webhooks go only to public addresses`
  }
  return null
}
