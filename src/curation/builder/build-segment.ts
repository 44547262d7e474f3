/**
 * The segment build job (`curation.build`): pending → processing → complete.
 *
 *  1. example URLs without a fresh copy in the index are scraped; `extra_hops_count` rounds of their
 *     links are crawled for more candidates;
 *  2. candidates are found and scored (rank.ts);
 *  3. quality filters and blocks are applied (quality/filters.ts), each exclusion kept with its reason;
 *  4. the URL list, exclusions, warnings and errors are stored with the job's completion.
 * A build that cannot produce a segment still completes, with processing_errors saying why.
 */

import { getNode } from '../../content/taxonomy/taxonomy.ts'
import { interpretPrompt, type PromptIntent } from '../../content/topics/interpret-prompt.ts'
import { normalizeDomain } from '../../content/urls/domains.ts'
import { isNormalizeError, normalizeUrl } from '../../content/urls/normalize-url.ts'
import type { CurationConfig } from '../../platform/config.ts'
import type { Queryable } from '../../platform/db/db.ts'
import type { JobHandler } from '../../platform/jobs/handler.ts'
import { PermanentJobError } from '../../platform/jobs/handler.ts'
import type { WebhookEventType } from '../../platform/webhooks/events.ts'
import { emitEvent } from '../../platform/webhooks/outbox.ts'
import type { CurationContext } from '../context.ts'
import type { Candidate, CandidateSource, Exclusion } from '../quality/filters.ts'
import { applyFilters, loadQualityData } from '../quality/filters.ts'
import { enforceRemovals } from '../removals/repository.ts'
import type { Problem, SegmentRow } from '../segments/repository.ts'
import { buildKind, getSegment, toRecord } from '../segments/repository.ts'
import { crawlHops, indexSeeds } from './crawl.ts'
import { rankCandidates, rankExpansion } from './rank.ts'
import { loadBlockRules } from './rules.ts'
import { recordChange, refreshSegmentStats, replaceSegmentUrls } from './store.ts'

/** What the E-codes mean, for warnings about example URLs (spec part 7). */
export const scrapeErrorNames: Record<string, string> = {
  E001: 'URL not fully processed',
  E002: 'URL not accessible',
  E003: 'content not parseable',
  E004: 'insufficient content',
  E005: 'language could not be determined',
  E006: 'language not supported',
  E007: 'classification failure',
  E008: 'incomplete extraction',
}

export interface BuildOutcome {
  kept: Candidate[]
  excluded: Exclusion[]
  taxonomyId: number | null
  errors: Problem[]
  warnings: Problem[]
  stats: { candidates_scored: number; ranked: number; hop_pages: number }
}

export async function buildSegment(ctx: CurationContext, seg: SegmentRow, cfg: CurationConfig, signal?: AbortSignal): Promise<BuildOutcome> {
  const warnings: Problem[] = []
  const seeds = await indexSeeds(ctx, seg.example_urls, signal)
  const seedIds = seeds.flatMap((s) => (s.pageId === null ? [] : [s.pageId]))

  const extra = new Map<number, CandidateSource>()
  let hopPages = 0
  const hops = seg.extra_hops_count ?? 0
  if (hops > 0 && seedIds.length) {
    const reached = await crawlHops(ctx, seedIds, {
      hops,
      linksPerPage: cfg.hopLinksPerPage,
      maxPagesPerHop: cfg.hopMaxPages,
      blockedDomains: seg.block_tlds ?? [],
      ...(signal ? { signal } : {}),
    })
    for (const id of reached) extra.set(id, 'hop')
    hopPages = reached.length
  }
  const expandSeeds = await expandSeedPages(ctx.db, seg)
  signal?.throwIfAborted()

  // The prompt is read once per build: ranking, its exclusions and the warnings share it.
  const intent = seg.prompt ? interpretPrompt(seg.prompt, seg.interpretation?.expansions ?? []) : null
  const ranking = await rankCandidates(ctx.db, {
    intent,
    promptVector: await promptVectorOf(ctx, seg.prompt),
    taxonomyId: seg.taxonomy_given ? seg.taxonomy_id : null,
    seedPageIds: seedIds,
    extraCandidates: extra,
    defaultSource: 'prompt',
    seedSource: 'example',
    candidateLimit: cfg.candidateLimit,
    minScore: cfg.minScore,
    ...(signal ? { signal } : {}),
  })

  // Expansions applied to this segment (optimizations) are rebuilt too: pages like their seeds.
  if (expandSeeds.length) {
    const expanded = await rankExpansion(ctx.db, seg, expandSeeds, cfg, signal)
    const have = new Set(ranking.ranked.map((c) => c.pageId))
    ranking.ranked.push(...expanded.ranked.filter((c) => !have.has(c.pageId)).slice(0, cfg.expandMaxUrls))
    ranking.ranked.sort((x, y) => y.score - x.score || x.pageId - y.pageId)
  }

  const seedById = new Map(ranking.seeds.map((s) => [s.pageId, s]))
  for (const s of seeds) {
    const page = s.pageId === null ? undefined : seedById.get(s.pageId)
    const codes = page?.errors ?? []
    if (!page || page.state !== 'done') {
      warnings.push({ code: 'E001', message: `example URL could not be processed: ${scrapeErrorNames.E001}`, url: s.input, index: s.index })
    } else if (!page.usable) {
      const code = codes[0] ?? 'E007'
      warnings.push({ code, message: `example URL not used: ${scrapeErrorNames[code] ?? code}`, url: s.input, index: s.index })
    } else if (codes.length) {
      const code = codes[0]!
      warnings.push({ code, message: `example URL used with a problem: ${scrapeErrorNames[code] ?? code}`, url: s.input, index: s.index })
    }
  }

  // Words the prompt excludes ("excluding gambling") block like block_keywords.
  const promptBlocks = intent?.interpretation.blocks.terms ?? []
  const rules = await loadBlockRules(ctx.db, { ...seg, block_keywords: [...(seg.block_keywords ?? []), ...promptBlocks] }, ranking.taxonomyId)
  const data = await loadQualityData(ctx.db, ranking.ranked, rules)
  const { kept, excluded } = applyFilters(ranking.ranked, rules, data, cfg, cfg.maxSegmentUrls)
  for (const e of excluded) {
    if (e.candidate.source !== 'example') continue
    const s = seeds.find((x) => x.pageId === e.candidate.pageId)
    warnings.push({
      code: 'example_excluded',
      message: `example URL left out of the segment: ${e.reason}`,
      reason: e.reason,
      ...(s ? { url: s.input, index: s.index } : {}),
    })
  }

  if (intent) warnings.push(...promptWarnings(intent, kept))
  const errors: Problem[] = []
  if (!ranking.hasQuery) {
    errors.push({
      code: 'no_usable_input',
      message: seg.prompt
        ? 'the prompt names no topic the classifier knows and no example URL could be used'
        : 'none of the example URLs could be fetched and classified, and there is no prompt',
    })
  } else if (!ranking.ranked.length) {
    errors.push({ code: 'no_matching_pages', message: 'the index holds no page relevant enough to this request yet' })
  } else if (!kept.length) {
    errors.push({ code: 'all_excluded', message: `all ${excluded.length} relevant pages were excluded by quality filters or blocks (see the exclusions)` })
  }
  return {
    kept,
    excluded,
    taxonomyId: ranking.taxonomyId,
    errors,
    warnings,
    stats: { candidates_scored: ranking.candidatesScored, ranked: ranking.ranked.length, hop_pages: hopPages },
  }
}

/** A URL at or above this prompt-fit score is more likely relevant than not (the score is a probability). */
const LIKELY_FIT = 0.5
/** Fewer likely-relevant URLs than this: the index cannot serve the prompt well yet, and the buyer is told. */
const FEW_LIKELY = 20

/** What the buyer should know about how the prompt was served: audience words unused, few pages that fit. */
function promptWarnings(intent: PromptIntent, kept: readonly Candidate[]): Problem[] {
  const out: Problem[] = []
  const read = intent.interpretation
  // A place the content is about was searched ("travel in Japan"); only the audience's is set aside.
  const places = read.ignored.filter((x) => x.why === 'geography').map((x) => x.word)
  if (read.audience.length || places.length) {
    const geo = places.length
      ? `; places (${places.join(', ')}) did not select pages either, and the countries (${read.geo.join(', ')}) are offered to activation as geo targeting`
      : ''
    out.push({
      code: 'audience_not_targeted',
      message: `audience words (${read.audience.join(', ') || 'none'}) describe people, not content, and did not select pages${geo}`,
    })
  }
  if (intent.topical && !read.categories.length) {
    out.push({
      code: 'prompt_topic_unknown',
      message: `no topic was recognised in the prompt; pages were matched on its words only (${read.terms.join(', ')})`,
    })
  }
  const likely = kept.filter((c) => c.source === 'prompt' && c.score >= LIKELY_FIT).length
  if (likely < FEW_LIKELY) {
    out.push({
      code: 'few_relevant_pages',
      message: `only ${likely} indexed page${likely === 1 ? ' is' : 's are'} likely (score ≥ ${LIKELY_FIT}) to fit the prompt; the rest of the segment, if any, is uncertain. The index may not cover this topic yet.`,
    })
  }
  return out
}

/** Seeds of the segment's applied expand optimizations (URLs, and domains' home pages) that are in the index. */
async function expandSeedPages(db: Queryable, seg: SegmentRow): Promise<number[]> {
  const { rows } = await db.query<{ expand: { urls?: string[]; domains?: string[] } | null }>(
    `SELECT expand FROM optimizations WHERE segment_id = $1 AND client_id = $2 AND expand IS NOT NULL AND applied_date IS NOT NULL`,
    [seg.id, seg.client_id],
  )
  const urls = new Set<string>()
  for (const { expand } of rows) {
    const homes = (expand?.domains ?? []).flatMap((d) => {
      const n = normalizeDomain(d)
      return n ? [`https://${n}/`] : []
    })
    for (const u of [...(expand?.urls ?? []), ...homes]) {
      const n = normalizeUrl(u)
      if (!isNormalizeError(n)) urls.add(n.url)
    }
  }
  if (!urls.size) return []
  const { rows: pages } = await db.query<{ id: number }>(`SELECT id FROM pages WHERE url = ANY($1::text[]) AND state = 'done'`, [[...urls]])
  return pages.map((p) => p.id)
}

/** Stores a build: URL list, exclusions, state, warnings and errors, and the change row for deals. */
export async function storeBuild(tx: Queryable, seg: SegmentRow, out: BuildOutcome, now: Date): Promise<number> {
  await replaceSegmentUrls(tx, seg, out.kept, out.excluded, now)
  const node = seg.taxonomy_given || out.taxonomyId === null ? null : (getNode(out.taxonomyId) ?? null)
  await tx.query(
    `UPDATE segment_requests
        SET taxonomy_id = $3, level1_name = $4, level2_name = $5, level3_name = $6
      WHERE id = $1 AND client_id = $2 AND NOT taxonomy_given`,
    [seg.id, seg.client_id, node?.id ?? null, node?.level1_name ?? null, node?.level2_name ?? null, node?.level3_name ?? null],
  )
  await enforceRemovals(tx, seg, now)
  const n = await refreshSegmentStats(tx, seg, now)
  await tx.query(
    `UPDATE segment_requests
        SET status = 'complete', processed_date = $3, processing_errors = $4::jsonb, processing_warnings = $5::jsonb
      WHERE id = $1 AND client_id = $2`,
    [seg.id, seg.client_id, now, out.errors.length ? JSON.stringify(out.errors) : null, out.warnings.length ? JSON.stringify(out.warnings) : null],
  )
  await recordChange(tx, seg, 'build', now)
  await emitSegmentEvent(tx, seg.client_id, seg.id, 'segment.completed', now)
  return n
}

/**
 * The prompt's sentence vector, or null: with the encoder off or failing, ranking goes on with its other
 * measurements (the metric prompt_vectors_total tells an operator which happened).
 */
async function promptVectorOf(ctx: CurationContext, prompt: string | null): Promise<Int8Array | null> {
  if (!prompt) return null
  if (!ctx.encoder) {
    ctx.metrics.observePromptVector('off')
    return null
  }
  const vector = await ctx.encoder.encode([prompt]).then(
    (v) => v[0] ?? null,
    () => null,
  )
  ctx.metrics.observePromptVector(vector ? 'used' : 'unavailable')
  return vector
}

/** The segment's webhook event, in the transaction that changed it: the record as GET returns it. */
async function emitSegmentEvent(tx: Queryable, clientId: number, id: number, type: WebhookEventType, now: Date): Promise<void> {
  const row = await getSegment(tx, clientId, id)
  if (row) await emitEvent(tx, { clientId, type, data: toRecord(row), now })
}

/** Only our own build messages reach the user; anything else (a database fault) stays in the log. */
function buildFailedMessage(reason: string): string {
  return /^segment request \d+ is gone$/.test(reason) ? reason : 'the build failed repeatedly on our side; create the request again or contact the operator'
}

export function buildJob(ctx: CurationContext): JobHandler<'curation.build'> {
  return {
    kind: buildKind,
    maxAttempts: 3,
    async run(payload, job) {
      const seg = await getSegment(ctx.db, payload.clientId, payload.segmentId)
      if (!seg) throw new PermanentJobError(`segment request ${payload.segmentId} is gone`)
      await job.withLease((tx) =>
        tx.query(`UPDATE segment_requests SET status = 'processing', last_updated_date = $3 WHERE id = $1 AND client_id = $2 AND status = 'pending'`, [
          seg.id,
          seg.client_id,
          job.clock.now(),
        ]),
      )
      const out = await buildSegment(ctx, seg, ctx.config.curation, job.signal)
      await job.finish((tx) => storeBuild(tx, seg, out, job.clock.now()))
    },
    async onFailed(payload, reason, tx) {
      // The spec has no failed state for a segment: it completes, empty, with the reason.
      const now = ctx.clock.now()
      const { rowCount } = await tx.query(
        `UPDATE segment_requests
            SET status = 'complete', processed_date = $3, last_updated_date = $3, url_count = COALESCE(url_count, 0),
                processing_errors = $4::jsonb
          WHERE id = $1 AND client_id = $2 AND status <> 'complete'`,
        [payload.segmentId, payload.clientId, now, JSON.stringify([{ code: 'build_failed', message: buildFailedMessage(reason) }])],
      )
      if (rowCount) await emitSegmentEvent(tx, payload.clientId, payload.segmentId, 'segment.failed', now)
    },
  }
}
