/**
 * Everything that keeps URLs out of one segment besides the built-in quality filters: the request's
 * block_tlds and block_keywords, the blocks of its optimizations, and the client's removals by
 * domain. Builds, rebuilds and expansions all read them from here, so a removal stays removed.
 */

import { normalizeDomain } from '../../content/urls/domains.ts'
import { isNormalizeError, normalizeUrl } from '../../content/urls/normalize-url.ts'
import type { Queryable } from '../../platform/db/db.ts'
import type { BlockRules } from '../quality/filters.ts'

export interface OptimizationBlock {
  urls?: string[]
  domains?: string[]
  keywords?: string[]
}

export async function loadBlockRules(
  db: Queryable,
  segment: { id: number; client_id: number; block_tlds: string[] | null; block_keywords: string[] | null },
  segmentTaxonomyId: number | null,
): Promise<BlockRules> {
  const [opts, removals] = await Promise.all([
    db.query<{ block: OptimizationBlock | null }>(
      `SELECT block FROM optimizations WHERE segment_id = $1 AND client_id = $2 AND block IS NOT NULL ORDER BY id`,
      [segment.id, segment.client_id],
    ),
    db.query<{ tld: string; taxonomy_leaf_id: number }>(`SELECT tld, taxonomy_leaf_id FROM tld_removals WHERE client_id = $1`, [segment.client_id]),
  ])
  const urls = new Set<string>()
  const domains = new Set<string>()
  const keywords = new Set(segment.block_keywords ?? [])
  for (const { block } of opts.rows) {
    for (const u of block?.urls ?? []) {
      const n = normalizeUrl(u)
      if (!isNormalizeError(n)) urls.add(n.url)
    }
    for (const d of block?.domains ?? []) {
      const n = normalizeDomain(d)
      if (n) domains.add(n)
    }
    for (const k of block?.keywords ?? []) keywords.add(k)
  }
  const removalMap = new Map<string, Set<number>>()
  for (const r of removals.rows) {
    const set = removalMap.get(r.tld) ?? new Set<number>()
    set.add(r.taxonomy_leaf_id)
    removalMap.set(r.tld, set)
  }
  return {
    tlds: segment.block_tlds ?? [],
    domains: [...domains],
    urls,
    keywords: [...keywords],
    removals: removalMap,
    segmentTaxonomyId,
  }
}
