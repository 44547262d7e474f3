/**
 * Applying an optimization (`curation.optimize`):
 *  - block removes the segment's URLs that match a blocked URL, lie on a blocked domain (or its
 *    subdomains) or whose title/text contains a blocked keyword (full-text phrase match); each removal
 *    is recorded as an exclusion. Blocks stay in force for later builds and expansions.
 *  - expand scrapes the seed URLs and the home pages of the seed domains, then adds the index's pages
 *    most similar to those seeds (same ranking and quality filters as a build, new URLs only).
 * The URL list change, the optimization's applied_date and a segment_changes row (the hook through
 * which live deals of the segment pick the change up) commit together.
 */

import { normalizeDomain } from '../../content/urls/domains.ts'
import { isNormalizeError, normalizeUrl } from '../../content/urls/normalize-url.ts'
import type { CurationConfig } from '../../platform/config.ts'
import type { Queryable } from '../../platform/db/db.ts'
import type { JobHandler } from '../../platform/jobs/handler.ts'
import { PermanentJobError } from '../../platform/jobs/handler.ts'
import type { WebhookEventType } from '../../platform/webhooks/events.ts'
import { emitEvent } from '../../platform/webhooks/outbox.ts'
import { indexSeeds } from '../builder/crawl.ts'
import { rankExpansion } from '../builder/rank.ts'
import { loadBlockRules } from '../builder/rules.ts'
import { insertUrls, recordChange, recordExclusions, refreshSegmentStats, rerank } from '../builder/store.ts'
import type { CurationContext } from '../context.ts'
import type { BlockRules, Candidate, Exclusion } from '../quality/filters.ts'
import { applyFilters, blockChecker, keywordMatches, loadQualityData, noBlocks } from '../quality/filters.ts'
import { enforceRemovals } from '../removals/repository.ts'
import type { SegmentRow } from '../segments/repository.ts'
import { getSegment } from '../segments/repository.ts'
import type { BlockSpec, ExpandSpec, FailedResult, OptimizationRow } from './repository.ts'
import { getOptimization, optimizeKind, toRecord } from './repository.ts'

interface SegmentUrlData {
  page_id: number
  url: string
  host: string
  tld: string
  taxonomy_id: number | null
  score: number
  source: Candidate['source']
}

async function currentUrls(db: Queryable, seg: SegmentRow): Promise<Candidate[]> {
  const { rows } = await db.query<SegmentUrlData>(
    `SELECT page_id, url, host, tld, taxonomy_id, score::float8 AS score, source FROM segment_urls WHERE segment_id = $1 AND client_id = $2`,
    [seg.id, seg.client_id],
  )
  return rows.map((r) => ({
    pageId: r.page_id,
    url: r.url,
    host: r.host,
    tld: r.tld,
    wordCount: null,
    datedArticle: false,
    pageMfaScore: null,
    language: null,
    taxonomyId: r.taxonomy_id,
    simhash: null,
    score: r.score,
    source: r.source,
  }))
}

/** The segment's URLs that this block removes, with the reason. */
async function blockedUrls(db: Queryable, seg: SegmentRow, block: BlockSpec): Promise<Exclusion[]> {
  const urls = new Set<string>()
  for (const u of block.urls) {
    const n = normalizeUrl(u)
    if (!isNormalizeError(n)) urls.add(n.url)
  }
  const domains = block.domains.map((d) => normalizeDomain(d)).filter((d): d is string => d !== null)
  const rules: BlockRules = { ...noBlocks, domains, urls, keywords: block.keywords }
  const current = await currentUrls(db, seg)
  const hits = await keywordMatches(
    db,
    current.map((c) => c.pageId),
    block.keywords,
  )
  const check = blockChecker(rules, hits)
  return current.flatMap((c) => {
    const v = check(c)
    return v ? [{ candidate: c, ...v }] : []
  })
}

/**
 * The home page of each expand domain as the index knows it — https or http, with or without
 * `www.` — else `https://domain/` (fetched like a seed URL).
 */
async function domainHomePages(db: Queryable, domains: string[]): Promise<string[]> {
  const variantsOf = (d: string) => {
    const bare = d.replace(/^www\./, '')
    return [`https://${d}/`, `https://www.${bare}/`, `https://${bare}/`, `http://${d}/`, `http://www.${bare}/`, `http://${bare}/`]
  }
  const { rows } = await db.query<{ url: string }>(`SELECT url FROM pages WHERE url = ANY($1::text[]) AND state = 'done' AND NOT ('E002' = ANY(errors))`, [
    domains.flatMap(variantsOf),
  ])
  const known = new Set(rows.map((r) => r.url))
  return domains.flatMap((d) => {
    const found = [...new Set(variantsOf(d))].filter((u) => known.has(u))
    return found.length ? found : [`https://${d}/`]
  })
}

/** Pages similar to the expand seeds that the segment does not hold yet, filtered like a build. */
async function expansion(ctx: CurationContext, seg: SegmentRow, expand: ExpandSpec, cfg: CurationConfig, signal: AbortSignal) {
  const domains = expand.domains.map((d) => normalizeDomain(d)).filter((d): d is string => d !== null)
  const homePages = await domainHomePages(ctx.db, domains)
  const seeds = await indexSeeds(ctx, [...expand.urls, ...homePages], signal)
  const seedIds = [...new Set(seeds.flatMap((s) => (s.pageId === null ? [] : [s.pageId])))]
  const ranking = await rankExpansion(ctx.db, seg, seedIds, cfg, signal)
  const have = new Set((await currentUrls(ctx.db, seg)).map((c) => c.pageId))
  const fresh = ranking.ranked.filter((c) => !have.has(c.pageId))
  const rules = await loadBlockRules(ctx.db, seg, seg.taxonomy_id)
  const data = await loadQualityData(ctx.db, fresh, rules)
  const { kept, excluded } = applyFilters(fresh, rules, data, cfg, cfg.expandMaxUrls)
  const unusable = ranking.seeds.filter((s) => !s.usable).map((s) => ({ url: s.url, errors: s.errors.length ? s.errors : ['E007'] }))
  return { kept, excluded, unusable, seeds: seedIds.length }
}

export async function applyOptimization(
  ctx: CurationContext,
  opt: OptimizationRow,
  seg: SegmentRow,
  signal: AbortSignal,
  finish: (fn: (tx: Queryable) => Promise<void>) => Promise<void>,
) {
  const cfg = ctx.config.curation
  const expanded = opt.expand ? await expansion(ctx, seg, opt.expand, cfg, signal) : null
  // Read outside the finishing transaction (on the embedded engine a transaction holds the database).
  const removed = opt.block ? await blockedUrls(ctx.db, seg, opt.block) : []
  await finish(async (tx) => {
    const now = ctx.clock.now()
    if (removed.length) {
      await tx.query('DELETE FROM segment_urls WHERE segment_id = $1 AND client_id = $2 AND page_id = ANY($3::bigint[])', [
        seg.id,
        seg.client_id,
        removed.map((e) => e.candidate.pageId),
      ])
      await recordExclusions(tx, seg, removed, now)
    }
    let added = 0
    if (expanded) {
      added = await insertUrls(tx, seg, expanded.kept, 1_000_000_000)
      await recordExclusions(tx, seg, expanded.excluded, now)
      // A URL excluded earlier and added now is no longer an exclusion.
      await tx.query(
        `DELETE FROM segment_exclusions e USING segment_urls u
          WHERE e.segment_id = $1 AND e.client_id = $2 AND u.segment_id = $1 AND u.client_id = $2 AND u.page_id = e.page_id`,
        [seg.id, seg.client_id],
      )
      added -= await enforceRemovals(tx, seg, now)
    }
    await rerank(tx, seg)
    const total = await refreshSegmentStats(tx, seg, now)
    const result = {
      removed: removed.length,
      added,
      url_count: total,
      ...(expanded ? { expand_seeds_indexed: expanded.seeds, expand_seeds_unusable: expanded.unusable } : {}),
    }
    await tx.query(`UPDATE optimizations SET applied_date = $3, result = $4::jsonb WHERE id = $1 AND client_id = $2`, [
      opt.id,
      opt.client_id,
      now,
      JSON.stringify(result),
    ])
    await recordChange(tx, seg, 'optimization', now, opt.id)
    await emitOptimizationEvent(tx, opt.client_id, opt.id, 'optimization.applied', now)
  })
}

/** Only our own messages reach the user; anything else (a database fault) stays in the log and the job row. */
function failedMessage(reason: string): string {
  return /^segment \d+ is gone$/.test(reason)
    ? `the segment was deleted before the optimization could be applied (${reason})`
    : 'the optimization failed repeatedly on our side and was not applied; send it again or contact the operator'
}

export function optimizeJob(ctx: CurationContext): JobHandler<'curation.optimize'> {
  return {
    kind: optimizeKind,
    maxAttempts: 3,
    async run(payload, job) {
      const opt = await getOptimization(ctx.db, payload.clientId, payload.optimizationId)
      if (!opt) throw new PermanentJobError(`optimization ${payload.optimizationId} is gone`)
      if (opt.applied_date) return
      const seg = await getSegment(ctx.db, payload.clientId, opt.segment_id)
      if (!seg) throw new PermanentJobError(`segment ${opt.segment_id} is gone`)
      await applyOptimization(ctx, opt, seg, job.signal, async (fn) => {
        await job.finish(fn)
      })
    },
    async onFailed(payload, reason, tx) {
      // The spec's optimization has one state (accepted): the failure is recorded for GET to show.
      const now = ctx.clock.now()
      const failure: FailedResult = { failed: true, message: failedMessage(reason), failed_date: now.toISOString() }
      const { rowCount } = await tx.query(`UPDATE optimizations SET result = $3::jsonb WHERE id = $1 AND client_id = $2 AND applied_date IS NULL`, [
        payload.optimizationId,
        payload.clientId,
        JSON.stringify(failure),
      ])
      if (rowCount) await emitOptimizationEvent(tx, payload.clientId, payload.optimizationId, 'optimization.failed', now)
    },
  }
}

/** The optimization's webhook event, in the transaction that changed it: the record as GET returns it. */
async function emitOptimizationEvent(tx: Queryable, clientId: number, id: number, type: WebhookEventType, now: Date): Promise<void> {
  const row = await getOptimization(tx, clientId, id)
  if (row) await emitEvent(tx, { clientId, type, data: toRecord(row), now })
}
