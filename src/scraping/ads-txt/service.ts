/**
 * ads.txt per root domain, cached and shared by every URL of that domain (spec §2.7).
 * - Expiry 7 days (ads.txt §3.6); errors are retried after an hour.
 * - On an error, the last good copy is served (sellers.json practice) until a fetch succeeds.
 * - Concurrent lookups for one domain share one fetch.
 * The store is pluggable: in memory by default; the scraper uses the database (db-store.ts).
 */
import { rootDomain } from '../../content/urls/domains.ts'
import type { AdsTxtFetchOptions, AdsTxtResult } from './fetch-ads-txt.ts'
import { fetchAdsTxt } from './fetch-ads-txt.ts'

export interface AdsTxtCacheEntry {
  result: AdsTxtResult
  /** Epoch ms after which the entry should be fetched again. Stores keep expired entries: they are the "last good copy". */
  expiresAt: number
}

export interface AdsTxtStore {
  get(domain: string): Promise<AdsTxtCacheEntry | null>
  set(domain: string, entry: AdsTxtCacheEntry): Promise<void>
}

/** In-memory store, oldest entry dropped past `maxEntries`. */
export function createMemoryAdsTxtStore(maxEntries = 100_000): AdsTxtStore {
  const entries = new Map<string, AdsTxtCacheEntry>()
  return {
    get: async (domain) => entries.get(domain) ?? null,
    async set(domain, entry) {
      entries.delete(domain)
      entries.set(domain, entry)
      if (entries.size > maxEntries) {
        const oldest = entries.keys().next()
        if (!oldest.done) entries.delete(oldest.value)
      }
    },
  }
}

export const ADS_TXT_TTL_MS = 7 * 24 * 60 * 60 * 1000
export const ADS_TXT_ERROR_TTL_MS = 60 * 60 * 1000

export interface AdsTxtServiceOptions extends Omit<AdsTxtFetchOptions, 'signal'> {
  store?: AdsTxtStore
  ttlMs?: number
  errorTtlMs?: number
}

export interface AdsTxtService {
  /** The ads.txt data for the root domain of a URL or host name; fetched again when the cached copy is older than `maxAgeMs`. Never throws. */
  forUrl(urlOrHost: string, opts?: { maxAgeMs?: number }): Promise<AdsTxtResult>
}

export function createAdsTxtService(opts: AdsTxtServiceOptions): AdsTxtService {
  const store = opts.store ?? createMemoryAdsTxtStore()
  const now = opts.now ?? Date.now
  const ttl = opts.ttlMs ?? ADS_TXT_TTL_MS
  const errorTtl = opts.errorTtlMs ?? ADS_TXT_ERROR_TTL_MS
  const inFlight = new Map<string, Promise<AdsTxtResult>>()

  async function refresh(domain: string, previous: AdsTxtCacheEntry | null): Promise<AdsTxtResult> {
    const fresh = await fetchAdsTxt(domain, opts)
    const keepOld = fresh.status === 'error' && previous?.result.status === 'found'
    const result = keepOld ? previous.result : fresh
    await store.set(domain, { result, expiresAt: now() + (fresh.status === 'error' ? errorTtl : ttl) })
    return result
  }

  async function lookup(domain: string, maxAgeMs: number | undefined): Promise<AdsTxtResult> {
    const cached = await store.get(domain)
    const young = maxAgeMs === undefined || (cached !== null && now() - Date.parse(cached.result.fetched_at) <= maxAgeMs)
    if (cached && cached.expiresAt > now() && young) return cached.result
    return refresh(domain, cached)
  }

  return {
    async forUrl(urlOrHost, forOpts = {}) {
      const domain = rootDomain(urlOrHost)
      // Without a root domain there is nothing to share or cache; fetchAdsTxt reports why.
      if (!domain) return fetchAdsTxt(urlOrHost, opts)
      let pending = inFlight.get(domain)
      if (!pending) {
        pending = lookup(domain, forOpts.maxAgeMs)
          // A failing store must not fail the lookup: serve an uncached fetch instead.
          .catch(() => fetchAdsTxt(domain, opts))
          .finally(() => inFlight.delete(domain))
        inFlight.set(domain, pending)
      }
      return pending
    },
  }
}
