/**
 * Getting seed pages into the index: example URLs (and expand seeds) are scraped when the index has
 * no fresh copy, and `extra_hops_count` rounds of their links are crawled to find more candidates.
 * Fetching, politeness and freshness belong to the scraper (src/scraping/scraper.ts).
 */

import { domainMatcher } from '../../content/urls/domains.ts'
import type { NormalizedUrl } from '../../content/urls/normalize-url.ts'
import { isNormalizeError, normalizeUrl } from '../../content/urls/normalize-url.ts'
import type { Queryable } from '../../platform/db/db.ts'
import type { CurationContext } from '../context.ts'

export interface IndexedSeed {
  /** As given by the user. */
  input: string
  index: number
  pageId: number | null
}

/**
 * Page ids of the URLs: those with a fresh copy in the index (scrape.freshnessMs) straight from it,
 * the others after the scraper fetched and stored them.
 */
export async function ensureIndexed(ctx: CurationContext, urls: NormalizedUrl[], signal?: AbortSignal): Promise<Map<string, number>> {
  if (!urls.length) return new Map()
  const since = new Date(ctx.clock.now().getTime() - ctx.config.scrape.freshnessMs)
  const { rows } = await ctx.db.query<{ id: number; url: string }>(
    `SELECT id, url FROM pages WHERE url = ANY($1::text[]) AND state = 'done' AND fetched_at >= $2`,
    [urls.map((u) => u.url), since],
  )
  const ids = new Map(rows.map((r) => [r.url, r.id]))
  const missing = urls.filter((u) => !ids.has(u.url))
  if (missing.length) {
    for (const [url, id] of await ctx.scraper.indexUrls(missing, signal ? { signal } : {})) ids.set(url, id)
  }
  return ids
}

/** Normalizes and indexes the URLs (fetching those without a fresh copy); keeps the caller's order. */
export async function indexSeeds(ctx: CurationContext, inputs: string[], signal?: AbortSignal): Promise<IndexedSeed[]> {
  const normalized = inputs.map((input) => normalizeUrl(input))
  const valid = normalized.filter((n): n is NormalizedUrl => !isNormalizeError(n))
  const ids = await ensureIndexed(ctx, valid, signal)
  return inputs.map((input, index) => {
    const n = normalized[index]!
    return { input, index, pageId: isNormalizeError(n) ? null : (ids.get(n.url) ?? null) }
  })
}

export interface HopOptions {
  hops: number
  linksPerPage: number
  maxPagesPerHop: number
  /** Links into these domains are not followed (the request's block_tlds). */
  blockedDomains: string[]
  signal?: AbortSignal
}

/** Follows links from the start pages for `hops` rounds; returns the ids of the pages reached. */
export async function crawlHops(ctx: CurationContext, startPageIds: number[], opts: HopOptions): Promise<number[]> {
  const reached = new Set<number>(startPageIds)
  const found: number[] = []
  const blocked = domainMatcher(opts.blockedDomains)
  let frontier = startPageIds
  for (let hop = 0; hop < opts.hops && frontier.length; hop++) {
    const links = await linksOf(ctx.db, frontier)
    const next: NormalizedUrl[] = []
    const seen = new Set<string>()
    for (const list of links) {
      let taken = 0
      for (const link of list) {
        if (taken >= opts.linksPerPage || next.length >= opts.maxPagesPerHop) break
        const n = normalizeUrl(link)
        if (isNormalizeError(n) || seen.has(n.url) || blocked(n.host)) continue
        seen.add(n.url)
        next.push(n)
        taken++
      }
    }
    if (!next.length) break
    opts.signal?.throwIfAborted()
    const ids = await ensureIndexed(ctx, next, opts.signal)
    frontier = []
    for (const id of ids.values()) {
      if (reached.has(id)) continue
      reached.add(id)
      found.push(id)
      frontier.push(id)
    }
  }
  return found
}

async function linksOf(db: Queryable, pageIds: number[]): Promise<string[][]> {
  const { rows } = await db.query<{ links: unknown }>(
    `SELECT links FROM pages WHERE id = ANY($1::bigint[]) AND state = 'done' AND jsonb_typeof(links) = 'array' ORDER BY id`,
    [pageIds],
  )
  return rows.map((r) => (Array.isArray(r.links) ? r.links.filter((l): l is string => typeof l === 'string') : []))
}
