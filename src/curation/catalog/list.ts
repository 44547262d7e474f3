/**
 * The catalog as one typed list, for the REST route and for the AdCP signals work:
 *  - public:   IAB tier-1/tier-2 segments (`iab:<taxonomy id>`), from the catalog job;
 *  - seasonal: calendar segments with their window (`seasonal:<slug>:<year>`), from the catalog job;
 *  - personal: the client's own complete, non-empty segments (`segment:<id>`).
 * Coverage is the segment's share of the indexed pages (all, and per page language); prices come from
 * configuration (CATALOG_CPM_*).
 */

import { getNode } from '../../content/taxonomy/taxonomy.ts'
import type { CurationConfig } from '../../platform/config.ts'
import type { Queryable } from '../../platform/db/db.ts'
import { aboveThinFloorSql } from '../quality/filters.ts'

export type CatalogType = 'public' | 'seasonal' | 'personal'

export interface CatalogEntry {
  /** Stable id: iab:<taxonomy id>, seasonal:<slug>:<year> or segment:<segment id>. */
  id: string
  type: CatalogType
  name: string
  description: string
  taxonomy_id: number | null
  level1_name: string | null
  level2_name: string | null
  level3_name: string | null
  page_count: number
  coverage: {
    /** Share (0..1) of all indexed pages. */
    share_of_index: number
    /** Same, in percent (AdCP coverage_percentage). */
    percentage: number
    /** Share (0..1) of the indexed pages of each language. */
    by_language: Record<string, number>
  }
  pricing: { cpm: number; currency: string }
  window: { start: string; end: string; active: boolean } | null
  updated_at: string
}

export interface ListCatalogOptions {
  type?: CatalogType
  /** Case-insensitive match on name and description. */
  q?: string
  limit?: number
  offset?: number
  now: Date
  config: CurationConfig
}

interface CatalogRow {
  id: string
  type: 'public' | 'seasonal'
  name: string
  description: string
  taxonomy_id: number | null
  window_start: string | null
  window_end: string | null
  page_count: number
  share_of_index: number
  by_language: Record<string, number>
  built_at: Date
}

interface PersonalRow {
  id: number
  name: string | null
  prompt: string | null
  taxonomy_id: number | null
  url_count: number
  language_counts: Record<string, number> | null
  last_updated_date: Date | null
  processed_date: Date
}

const round = (x: number, digits = 4): number => Math.round(x * 10 ** digits) / 10 ** digits

function levels(taxonomyId: number | null) {
  const n = taxonomyId === null ? undefined : getNode(taxonomyId)
  return { level1_name: n?.level1_name ?? null, level2_name: n?.level2_name ?? null, level3_name: n?.level3_name ?? null }
}

function matches(q: string | undefined, ...texts: (string | null)[]): boolean {
  const needle = q?.trim().toLowerCase()
  return !needle || texts.some((t) => t?.toLowerCase().includes(needle))
}

/**
 * The shared catalog rows, read again only when the catalog changed: a large catalog (thousands of
 * segments) is most of a listing's cost otherwise. The fingerprint (row count, last build, and the
 * sum of page counts) changes with every refresh, which rewrites the rows; per database handle.
 */
const rowCache = new WeakMap<Queryable, Map<string, { fingerprint: string; rows: CatalogRow[] }>>()

async function catalogRows(db: Queryable, type: string | null): Promise<CatalogRow[]> {
  const { rows: fp } = await db.query<{ n: string; built: Date | null; pages: string | null }>(
    `SELECT count(*) AS n, max(built_at) AS built, sum(page_count) AS pages FROM catalog_segments`,
  )
  const fingerprint = `${fp[0]!.n}|${fp[0]!.built?.valueOf() ?? ''}|${fp[0]!.pages ?? ''}`
  let byType = rowCache.get(db)
  if (!byType) rowCache.set(db, (byType = new Map()))
  const hit = byType.get(type ?? '*')
  if (hit?.fingerprint === fingerprint) return hit.rows
  const { rows } = await db.query<CatalogRow>(
    `SELECT id, type, name, description, taxonomy_id, window_start, window_end, page_count, share_of_index, by_language, built_at
       FROM catalog_segments WHERE ($1::text IS NULL OR type = $1) AND page_count > 0 ORDER BY type, page_count DESC, id`,
    [type],
  )
  byType.set(type ?? '*', { fingerprint, rows })
  return rows
}

export async function listCatalog(db: Queryable, clientId: number, opts: ListCatalogOptions): Promise<{ total: number; entries: CatalogEntry[] }> {
  const pricing = opts.config.catalog.pricing
  const entries: CatalogEntry[] = []
  const today = opts.now.toISOString().slice(0, 10)
  if (opts.type !== 'personal') {
    const rows = await catalogRows(db, opts.type ?? null)
    for (const r of rows) {
      if (!matches(opts.q, r.name, r.description)) continue
      const tier = r.taxonomy_id === null ? undefined : getNode(r.taxonomy_id)?.tier
      const cpm = r.type === 'seasonal' ? pricing.seasonal : tier === 1 ? pricing.iabTier1 : pricing.iabTier2
      entries.push({
        id: r.id,
        type: r.type,
        name: r.name,
        description: r.description,
        taxonomy_id: r.taxonomy_id,
        ...levels(r.taxonomy_id),
        page_count: r.page_count,
        coverage: { share_of_index: round(r.share_of_index), percentage: round(r.share_of_index * 100, 2), by_language: r.by_language },
        pricing: { cpm, currency: pricing.currency },
        window: r.window_start && r.window_end ? { start: r.window_start, end: r.window_end, active: r.window_start <= today && today <= r.window_end } : null,
        updated_at: r.built_at.toISOString(),
      })
    }
  }
  if (opts.type === undefined || opts.type === 'personal') {
    const [{ rows }, stats] = await Promise.all([
      db.query<PersonalRow>(
        `SELECT id, name, prompt, taxonomy_id, url_count, language_counts, last_updated_date, processed_date
           FROM segment_requests
          WHERE client_id = $1 AND NOT deleted AND status = 'complete' AND url_count > 0
          ORDER BY id`,
        [clientId],
      ),
      db.query<{ language: string; pages: number }>('SELECT language, pages FROM catalog_index_stats'),
    ])
    const totals = new Map(stats.rows.map((r) => [r.language, r.pages]))
    const all = [...totals.values()].reduce((a, b) => a + b, 0)
    for (const r of rows) {
      const name = r.name ?? (r.prompt ? r.prompt.slice(0, 80) : `Segment ${r.id}`)
      const description = r.prompt ?? `Custom segment ${r.id}`
      if (!matches(opts.q, name, description)) continue
      const byLanguage: Record<string, number> = {}
      for (const [lang, n] of Object.entries(r.language_counts ?? {})) {
        const t = totals.get(lang) ?? 0
        if (t > 0) byLanguage[lang] = round(Math.min(1, n / t))
      }
      const share = all > 0 ? Math.min(1, r.url_count / all) : 0
      entries.push({
        id: `segment:${r.id}`,
        type: 'personal',
        name,
        description,
        taxonomy_id: r.taxonomy_id,
        ...levels(r.taxonomy_id),
        page_count: r.url_count,
        coverage: { share_of_index: round(share), percentage: round(share * 100, 2), by_language: byLanguage },
        pricing: { cpm: pricing.personal, currency: pricing.currency },
        window: null,
        updated_at: (r.last_updated_date ?? r.processed_date).toISOString(),
      })
    }
  }
  const offset = opts.offset ?? 0
  const limit = opts.limit ?? entries.length
  return { total: entries.length, entries: entries.slice(offset, offset + limit) }
}

/** The URL list behind a catalog entry, best first (for activation). Null when the entry does not exist. */
export async function catalogSegmentUrls(
  db: Queryable,
  clientId: number,
  id: string,
  opts: { limit: number; offset: number; config: CurationConfig },
): Promise<{ url: string; score: number }[] | null> {
  const number = Number(/^(?:iab|segment):(\d{1,10})$/.exec(id)?.[1] ?? NaN)
  if (!(number <= 2_147_483_647)) {
    if (!id.startsWith('seasonal:')) return null
  }
  const iab = /^iab:(\d+)$/.exec(id)
  if (iab) {
    const { rows: exists } = await db.query(`SELECT 1 FROM catalog_segments WHERE id = $1`, [id])
    if (!exists.length) return null
    const { rows } = await db.query<{ url: string; score: number }>(
      `SELECT p.url, pc.score::float8 AS score FROM page_categories pc JOIN pages p ON p.id = pc.page_id
        WHERE pc.taxonomy_id = $1 AND pc.score >= $2 AND p.state = 'done' AND ${aboveThinFloorSql('$3', '$6', '$7')}
        ORDER BY pc.score DESC, p.id LIMIT $4 OFFSET $5`,
      [
        Number(iab[1]),
        opts.config.catalog.minCategoryScore,
        opts.config.minWords,
        opts.limit,
        opts.offset,
        opts.config.minArticleWords,
        opts.config.mfaThreshold,
      ],
    )
    return rows
  }
  const segment = /^segment:(\d+)$/.exec(id)
  if (segment) {
    const { rows: exists } = await db.query(`SELECT 1 FROM segment_requests WHERE id = $1 AND client_id = $2 AND NOT deleted`, [Number(segment[1]), clientId])
    if (!exists.length) return null
    const { rows } = await db.query<{ url: string; score: number }>(
      `SELECT url, score::float8 AS score FROM segment_urls WHERE segment_id = $1 AND client_id = $2 ORDER BY rank, page_id LIMIT $3 OFFSET $4`,
      [Number(segment[1]), clientId, opts.limit, opts.offset],
    )
    return rows
  }
  const { rows: exists } = await db.query(`SELECT 1 FROM catalog_segments WHERE id = $1 AND type = 'seasonal'`, [id])
  if (!exists.length) return null
  const { rows } = await db.query<{ url: string; score: number }>(
    `SELECT p.url, u.score::float8 AS score FROM catalog_segment_urls u JOIN pages p ON p.id = u.page_id
      WHERE u.catalog_id = $1 ORDER BY u.rank LIMIT $2 OFFSET $3`,
    [id, opts.limit, opts.offset],
  )
  return rows
}
