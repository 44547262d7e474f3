/**
 * The catalog job (`curation.catalog`, every CATALOG_REFRESH_MINUTES): recounts the index, lists
 * the IAB tier-1 and tier-2 nodes with enough pages as public segments, and rebuilds the seasonal
 * segments whose window is open or opens within CATALOG_SEASONAL_LEAD_DAYS.
 */

import { allNodes, getNode } from '../../content/taxonomy/taxonomy.ts'
import { interpretPrompt } from '../../content/topics/interpret-prompt.ts'
import type { CurationConfig } from '../../platform/config.ts'
import type { Queryable } from '../../platform/db/db.ts'
import type { JobHandler } from '../../platform/jobs/handler.ts'
import type { Periodic } from '../../platform/jobs/kinds.ts'
import { runPeriodicNow } from '../../platform/jobs/queue.ts'
import { rankCandidates } from '../builder/rank.ts'
import type { CurationContext } from '../context.ts'
import { aboveThinFloorSql, applyFilters, loadQualityData, noBlocks } from '../quality/filters.ts'
import { currentWindows, isoDate, seasonalId } from './calendar.ts'

export const catalogKind = 'curation.catalog'

declare module '../../platform/jobs/kinds.ts' {
  interface JobPayloads {
    'curation.catalog': Periodic
    'curation.catalog_watch': Periodic
  }
}

/** How often the index is compared with the one the catalog was computed on. */
export const CATALOG_WATCH_MS = 30_000

/**
 * Pages that count for coverage: fetched, classified text of at least its thin-content floor, with
 * the floors and the MFA threshold in $1, $2 and $3 (thinFloorParams).
 */
const countedPage = `p.state = 'done' AND p.embedding IS NOT NULL AND ${aboveThinFloorSql('$1', '$2', '$3')}`
const thinFloorParams = (cfg: CurationConfig): number[] => [cfg.minWords, cfg.minArticleWords, cfg.mfaThreshold]

/** Indexed pages per language (read outside any transaction: on the embedded engine a transaction holds the whole database). */
async function countIndex(db: Queryable, cfg: CurationConfig): Promise<Map<string, number>> {
  const { rows } = await db.query<{ language: string; pages: number }>(
    `SELECT COALESCE(p.language, 'und') AS language, count(*)::int AS pages FROM pages p WHERE ${countedPage} GROUP BY 1`,
    thinFloorParams(cfg),
  )
  return new Map(rows.map((r) => [r.language, r.pages]))
}

async function writeIndexStats(tx: Queryable, totals: Map<string, number>, now: Date): Promise<void> {
  await tx.query('DELETE FROM catalog_index_stats')
  await tx.query(`INSERT INTO catalog_index_stats (language, pages, updated_at) SELECT l, n, $3 FROM unnest($1::text[], $2::int[]) AS s(l, n)`, [
    [...totals.keys()],
    [...totals.values()],
    now,
  ])
}

const shares = (byLanguage: Map<string, number>, totals: Map<string, number>) => {
  const out: Record<string, number> = {}
  for (const [lang, n] of byLanguage) {
    const t = totals.get(lang) ?? 0
    if (t > 0) out[lang] = Math.round((n / t) * 10000) / 10000
  }
  return out
}
const sum = (m: Map<string, number>): number => [...m.values()].reduce((a, b) => a + b, 0)

/** Pages per tier-1/tier-2 node and language (read outside any transaction). */
async function countNodes(db: Queryable, cfg: CurationConfig): Promise<Map<number, Map<string, number>>> {
  const ids = allNodes()
    .filter((n) => n.tier <= 2)
    .map((n) => n.id)
  const { rows } = await db.query<{ taxonomy_id: number; language: string; pages: number }>(
    `SELECT pc.taxonomy_id, COALESCE(p.language, 'und') AS language, count(*)::int AS pages
       FROM page_categories pc JOIN pages p ON p.id = pc.page_id
      WHERE pc.taxonomy_id = ANY($4::int[]) AND pc.score >= $5 AND ${countedPage}
      GROUP BY 1, 2`,
    [...thinFloorParams(cfg), ids, cfg.catalog.minCategoryScore],
  )
  const perNode = new Map<number, Map<string, number>>()
  for (const r of rows) {
    const m = perNode.get(r.taxonomy_id) ?? new Map<string, number>()
    m.set(r.language, r.pages)
    perNode.set(r.taxonomy_id, m)
  }
  return perNode
}

async function writePublic(
  tx: Queryable,
  cfg: CurationConfig,
  perNode: Map<number, Map<string, number>>,
  totals: Map<string, number>,
  now: Date,
): Promise<number> {
  const total = sum(totals)
  const entries = [...perNode].filter(([, m]) => sum(m) >= cfg.catalog.minPages)
  await tx.query(`DELETE FROM catalog_segments WHERE type = 'public' AND NOT (id = ANY($1::text[]))`, [entries.map(([id]) => `iab:${id}`)])
  for (const [id, byLanguage] of entries) {
    const n = getNode(id)!
    const path = [n.level1_name, n.level2_name].filter(Boolean).join(' > ')
    const pages = sum(byLanguage)
    await tx.query(
      `INSERT INTO catalog_segments (id, type, name, description, taxonomy_id, page_count, share_of_index, by_language, built_at)
       VALUES ($1, 'public', $2, $3, $4, $5, $6, $7::jsonb, $8)
       ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, description = EXCLUDED.description, page_count = EXCLUDED.page_count,
         share_of_index = EXCLUDED.share_of_index, by_language = EXCLUDED.by_language, built_at = EXCLUDED.built_at`,
      [
        `iab:${id}`,
        path,
        `Pages about ${path} (IAB Content Taxonomy 3.1, tier ${n.tier})`,
        id,
        pages,
        total ? pages / total : 0,
        JSON.stringify(shares(byLanguage, totals)),
        now,
      ],
    )
  }
  return entries.length
}

async function refreshSeasonal(
  ctx: CurationContext,
  cfg: CurationConfig,
  totals: Map<string, number>,
  now: Date,
  run: <T>(fn: (tx: Queryable) => Promise<T>) => Promise<T>,
  signal?: AbortSignal,
): Promise<number> {
  const windows = currentWindows(now, cfg.catalog.seasonalLeadDays)
  const ids = windows.map((w) => seasonalId(w.moment.slug, w.year))
  await run((tx) => tx.query(`DELETE FROM catalog_segments WHERE type = 'seasonal' AND NOT (id = ANY($1::text[]))`, [ids]))
  const total = sum(totals)
  for (const w of windows) {
    signal?.throwIfAborted()
    const ranking = await rankCandidates(ctx.db, {
      intent: interpretPrompt(w.moment.prompt),
      taxonomyId: null,
      seedPageIds: [],
      extraCandidates: new Map(),
      defaultSource: 'prompt',
      seedSource: 'example',
      candidateLimit: cfg.candidateLimit,
      minScore: cfg.minScore,
      ...(signal ? { signal } : {}),
    })
    const data = await loadQualityData(ctx.db, ranking.ranked, noBlocks)
    const { kept } = applyFilters(ranking.ranked, noBlocks, data, cfg, cfg.catalog.seasonalMaxUrls)
    const byLanguage = new Map<string, number>()
    for (const c of kept) byLanguage.set(c.language ?? 'und', (byLanguage.get(c.language ?? 'und') ?? 0) + 1)
    const id = seasonalId(w.moment.slug, w.year)
    await run(async (tx) => {
      await tx.query(
        `INSERT INTO catalog_segments (id, type, name, description, taxonomy_id, window_start, window_end, page_count, share_of_index, by_language, built_at)
         VALUES ($1, 'seasonal', $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10)
         ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, description = EXCLUDED.description, taxonomy_id = EXCLUDED.taxonomy_id,
           window_start = EXCLUDED.window_start, window_end = EXCLUDED.window_end, page_count = EXCLUDED.page_count,
           share_of_index = EXCLUDED.share_of_index, by_language = EXCLUDED.by_language, built_at = EXCLUDED.built_at`,
        [
          id,
          `${w.moment.name} ${w.year}`,
          `Seasonal segment, window ${isoDate(w.start)} to ${isoDate(w.end)}: ${w.moment.prompt}`,
          ranking.taxonomyId,
          isoDate(w.start),
          isoDate(w.end),
          kept.length,
          total ? kept.length / total : 0,
          JSON.stringify(shares(byLanguage, totals)),
          now,
        ],
      )
      await tx.query('DELETE FROM catalog_segment_urls WHERE catalog_id = $1', [id])
      await tx.query(
        `INSERT INTO catalog_segment_urls (catalog_id, page_id, rank, score)
         SELECT $1, u.page_id, u.rank, u.score FROM unnest($2::bigint[], $3::int[], $4::real[]) AS u(page_id, rank, score)`,
        [id, kept.map((c) => c.pageId), kept.map((_c, i) => i + 1), kept.map((c) => c.score)],
      )
    })
  }
  return windows.length
}

/** One full catalog refresh; `run` wraps each write (the job's lease check, or a plain transaction). */
export async function refreshCatalog(
  ctx: CurationContext,
  run: <T>(fn: (tx: Queryable) => Promise<T>) => Promise<T> = (fn) => ctx.db.transaction(fn),
  signal?: AbortSignal,
): Promise<{ public: number; seasonal: number; indexed_pages: number }> {
  const cfg = ctx.config.curation
  const now = ctx.clock.now()
  const totals = await countIndex(ctx.db, cfg)
  const perNode = await countNodes(ctx.db, cfg)
  signal?.throwIfAborted()
  const publicCount = await run(async (tx) => {
    await writeIndexStats(tx, totals, now)
    return writePublic(tx, cfg, perNode, totals, now)
  })
  const seasonal = await refreshSeasonal(ctx, cfg, totals, now, run, signal)
  return { public: publicCount, seasonal, indexed_pages: sum(totals) }
}

/**
 * Whether the index has grown materially since the catalog was computed: by a tenth, and by at
 * least 20 pages (so a catalog computed on an empty or tiny index is redone as soon as pages arrive).
 */
export async function indexGrewSinceCatalog(db: Queryable, cfg: CurationConfig): Promise<{ grew: boolean; now: number; then: number }> {
  const { rows } = await db.query<{ now: number; then: number }>(
    `SELECT (SELECT count(*)::int FROM pages p WHERE ${countedPage}) AS now,
            (SELECT coalesce(sum(pages), 0)::int FROM catalog_index_stats) AS then`,
    thinFloorParams(cfg),
  )
  const { now, then } = rows[0]!
  return { grew: now - then >= Math.max(20, then * 0.1), now, then }
}

/** Every 30 s: when the index has grown materially, the catalog refresh runs now instead of at its next turn. */
export function catalogWatchJob(ctx: CurationContext): JobHandler<'curation.catalog_watch'> {
  return {
    kind: 'curation.catalog_watch',
    everyMs: CATALOG_WATCH_MS,
    maxAttempts: 1,
    async run() {
      if ((await indexGrewSinceCatalog(ctx.db, ctx.config.curation)).grew) await runPeriodicNow(ctx.db, catalogKind, ctx.clock.now())
    },
  }
}

export function catalogJob(ctx: CurationContext): JobHandler<'curation.catalog'> {
  return {
    kind: catalogKind,
    everyMs: ctx.config.curation.catalog.refreshMs,
    maxAttempts: 2,
    async run(_payload, job) {
      await refreshCatalog(ctx, (fn) => job.withLease(fn), job.signal)
    },
  }
}
