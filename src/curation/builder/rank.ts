/**
 * The segment ranker: finds candidate pages in the index and scores them against what the buyer
 * asked for (docs/curation.md "How a segment is built").
 *
 * Candidates come from three places, each bounded so a build's cost does not grow with the index:
 *  - category membership (page_categories) for the prompt's categories, the requested taxonomy node
 *    and the example pages' categories, best category evidence first (candidateLimit);
 *  - full-text search (pages.search) for the prompt's rare words (names, brands, specific terms),
 *    which category membership cannot find, and for all its words when its categories find few pages;
 *  - the example pages themselves and the pages reached by crawl hops.
 * Each candidate's score (0..1) is a weighted mean of the prompt fit (a calibrated probability,
 * content/topics/relevance.ts), the similarity to the example pages, and its category score for the
 * requested taxonomy node; the parts that matched are kept as the URL's reasons.
 */

import type { Embedding, ScoredCategory } from '../../content/classify/index.ts'
import { similarity } from '../../content/classify/index.ts'
import { searchPrefix } from '../../content/classify/text.ts'
import { semanticCosine, vectorOf } from '../../content/semantic/vectors.ts'
import { ancestry, children, getNode } from '../../content/taxonomy/taxonomy.ts'
import type { PromptIntent } from '../../content/topics/interpret-prompt.ts'
import { promptFit, topicCertainty } from '../../content/topics/relevance.ts'
import type { Queryable } from '../../platform/db/db.ts'
import type { Candidate, CandidateSource, UrlReasons } from '../quality/filters.ts'
import { datedArticleSql } from '../quality/filters.ts'
import { pageMfaScoreSql } from '../quality/mfa.ts'
import type { SegmentRow } from '../segments/repository.ts'

export interface RankRequest {
  /** The prompt as read (interpretPrompt, with the segment's expansions); null without a prompt. */
  intent: PromptIntent | null
  /** The prompt's sentence vector (content/semantic/); null when the encoder is off or failed. */
  promptVector?: Int8Array | null
  /** The requested taxonomy node: candidates must be classified under it. */
  taxonomyId: number | null
  /** Pages whose likeness is wanted (examples, expand seeds); unusable ones are reported back. */
  seedPageIds: number[]
  /** Pages that are candidates whatever the category evidence says (crawl hops), with their source. */
  extraCandidates: Map<number, CandidateSource>
  /** Source recorded for pages found in the index. */
  defaultSource: CandidateSource
  /** Source recorded for the seed pages themselves. */
  seedSource: CandidateSource
  candidateLimit: number
  minScore: number
  signal?: AbortSignal
}

export interface Seed {
  pageId: number
  url: string
  errors: string[]
  state: string
  usable: boolean
}

export interface RankResult {
  /** Scored candidates at or above minScore, best first. */
  ranked: Candidate[]
  seeds: Seed[]
  /** The taxonomy node the request is about: the requested one, else the prompt's, else the seeds'. */
  taxonomyId: number | null
  /** False when there was nothing to rank against (no prompt, no usable seed, no taxonomy). */
  hasQuery: boolean
  candidatesScored: number
}

interface PageData {
  id: number
  url: string
  host: string
  tld: string
  word_count: number | null
  dated_article: boolean
  page_mfa_score: number | null
  language: string | null
  primary_category: number | null
  embedding: Embedding | null
  categories: ScoredCategory[] | null
  simhash: string | null
  /** the page's sentence vector, read only when the prompt has one */
  semantic: Int8Array | null
}

const MAX_PROMPT_CATEGORIES = 6
const MAX_SEED_CATEGORIES = 3
const MAX_TEXT_MATCHES = 2000
// Fewer category candidates than this: the prompt's words are searched as well (bounded by MAX_TEXT_MATCHES).
const FEW_CATEGORY_CANDIDATES = 100
// A prompt less sure of its topics than this (topicCertainty) is searched by all its words too.
const UNSURE_TOPIC = 0.5
const WEIGHTS = { prompt: 1, seeds: 1, taxonomy: 0.5 } as const
// A page at least this much about a category the prompt excludes ("not politics") is left out.
const BLOCKED_CATEGORY_SHARE = 0.3

/**
 * Pages like a segment's expand seeds (optimizations): no prompt, within the segment's own taxonomy
 * node when one was requested. Used when an expansion is applied and again on every rebuild.
 */
export function rankExpansion(
  db: Queryable,
  seg: Pick<SegmentRow, 'taxonomy_given' | 'taxonomy_id'>,
  seedPageIds: number[],
  limits: { candidateLimit: number; minScore: number },
  signal?: AbortSignal,
): Promise<RankResult> {
  return rankCandidates(db, {
    intent: null,
    taxonomyId: seg.taxonomy_given ? seg.taxonomy_id : null,
    seedPageIds,
    extraCandidates: new Map(),
    defaultSource: 'expand',
    seedSource: 'expand',
    candidateLimit: limits.candidateLimit,
    minScore: limits.minScore,
    ...(signal ? { signal } : {}),
  })
}

export async function rankCandidates(db: Queryable, req: RankRequest): Promise<RankResult> {
  const { intent } = req
  const seeds = await loadSeeds(db, req.seedPageIds)
  const usableSeeds = seeds.filter((s) => s.usable)
  const seedData = await loadPages(
    db,
    usableSeeds.map((s) => s.pageId),
    false,
  )
  const seedPages = seedData.filter((p) => (p.embedding?.confidence ?? 0) > 0)
  const seedEmbeddings = seedPages.map((p) => p.embedding!)

  const taxonomyId = req.taxonomyId ?? derivedTaxonomy(intent, seedData)
  const promptUsable = intent !== null && intent.topical && (intent.categories.length > 0 || intent.termWeights.size > 0)
  const hasQuery = promptUsable || seedEmbeddings.length > 0 || req.taxonomyId !== null
  if (!hasQuery) return { ranked: [], seeds, taxonomyId, hasQuery, candidatesScored: 0 }

  // Category weights for retrieval.
  const weights = new Map<number, number>()
  const addWeight = (id: number, w: number) => weights.set(id, (weights.get(id) ?? 0) + w)
  for (const c of intent?.categories.slice(0, MAX_PROMPT_CATEGORIES) ?? []) addWeight(c.id, c.score)
  if (req.taxonomyId !== null) addWeight(req.taxonomyId, 1)
  for (const p of seedData) {
    for (const c of (p.categories ?? []).slice(0, MAX_SEED_CATEGORIES)) addWeight(c.id, c.score / Math.max(1, seedData.length))
  }

  const ids = new Set<number>()
  for (const id of await categoryCandidates(db, weights, req.taxonomyId, req.candidateLimit)) ids.add(id)
  // Rare prompt words (names, specific terms) bring the pages that use them, whatever their category.
  const stats = await termStats(db, intent ? [...intent.termWeights.keys()] : [])
  const allTerms = searchesAllWords(intent, ids.size)
  const textTerms = searchedOnce(allTerms ? [...stats.df].filter(([, df]) => df > 0).map(([t]) => t) : rareTerms(stats))
  const weighted = intent ? weighByRarity(intent, stats) : null
  const textMatches = await textCandidates(db, textTerms, req.taxonomyId)
  for (const id of textMatches.keys()) ids.add(id)
  const blocked = new Set(intent?.interpretation.blocks.categories.map((c) => c.taxonomy_id) ?? [])
  for (const s of usableSeeds) ids.add(s.pageId)
  for (const id of req.extraCandidates.keys()) ids.add(id)
  req.signal?.throwIfAborted()

  const promptVector = promptUsable ? (req.promptVector ?? null) : null
  const pages = await loadPages(db, [...ids], promptVector !== null)
  const seedIds = new Set(usableSeeds.map((s) => s.pageId))
  const subtree = req.taxonomyId !== null ? req.taxonomyId : null
  const ranked: Candidate[] = []
  let scored = 0
  for (const p of pages) {
    if (!p.embedding) continue
    if (subtree !== null && !seedIds.has(p.id) && !inSubtree(p, subtree)) continue
    if (++scored % 2000 === 0) await new Promise((r) => setImmediate(r)) // let the event loop breathe
    if (blocked.size && p.embedding.concepts.some(([id, share]) => blocked.has(id) && share >= BLOCKED_CATEGORY_SHARE)) continue
    let sum = 0
    let norm = 0
    const reasons: UrlReasons = {}
    if (promptUsable && intent) {
      const matched = textMatches.get(p.id)
      const fit = promptFit(weighted ?? intent, p.embedding, {
        textShare: matched ? matched / Math.max(1, textTerms.length) : 0,
        semantic: promptVector && p.semantic ? semanticCosine(promptVector, p.semantic) : null,
      })
      sum += WEIGHTS.prompt * fit.score
      norm += WEIGHTS.prompt
      if (fit.reasons.categories.length) reasons.categories = fit.reasons.categories
      if (fit.reasons.terms.length) reasons.terms = fit.reasons.terms
      if (fit.reasons.theme) reasons.theme = fit.reasons.theme
      if (fit.reasons.meaning) reasons.meaning = fit.reasons.meaning
    }
    if (seedEmbeddings.length) {
      let max = 0
      let total = 0
      let best = -1
      for (const [i, s] of seedEmbeddings.entries()) {
        const sim = similarity(s, p.embedding)
        total += sim
        if (sim > max) [max, best] = [sim, i]
      }
      sum += WEIGHTS.seeds * (0.5 * max + (0.5 * total) / seedEmbeddings.length)
      norm += WEIGHTS.seeds
      const example = seedPages[best]?.url
      if (example && max > 0) reasons.example = { url: example, similarity: Math.round(max * 1000) / 1000 }
    }
    if (req.taxonomyId !== null) {
      const own = categoryScore(p, req.taxonomyId)
      sum += WEIGHTS.taxonomy * own
      norm += WEIGHTS.taxonomy
      if (own > 0) reasons.taxonomy = { taxonomy_id: req.taxonomyId, score: Math.round(own * 1000) / 1000 }
    }
    const score = norm > 0 ? sum / norm : 0
    const isSeed = seedIds.has(p.id)
    if (score < req.minScore && !isSeed) continue
    ranked.push({
      pageId: p.id,
      url: p.url,
      host: p.host,
      tld: p.tld,
      wordCount: p.word_count,
      datedArticle: p.dated_article,
      pageMfaScore: p.page_mfa_score,
      language: p.language,
      taxonomyId: p.primary_category,
      simhash: p.simhash,
      score: Math.round(score * 10000) / 10000,
      source: isSeed ? req.seedSource : (req.extraCandidates.get(p.id) ?? req.defaultSource),
      reasons,
    })
  }
  ranked.sort((a, b) => b.score - a.score || a.pageId - b.pageId)
  return { ranked, seeds, taxonomyId, hasQuery, candidatesScored: scored }
}

/**
 * Whether all the prompt's words are searched as text, not only the rare ones: a prompt without a
 * recognised topic has only its words; one whose categories the index barely holds (pages filed under
 * a neighbouring topic), or whose words name no topic with even odds ("trains, ships and aircraft"),
 * needs them too.
 */
export function searchesAllWords(intent: Pick<PromptIntent, 'categories'> | null, categoryCandidates: number): boolean {
  if (intent === null) return false
  return !intent.categories.length || categoryCandidates < FEW_CATEGORY_CANDIDATES || topicCertainty(intent) < UNSURE_TOPIC
}

function inSubtree(p: PageData, taxonomyId: number): boolean {
  if ((p.categories ?? []).some((c) => c.id === taxonomyId)) return true
  return p.primary_category !== null && ancestry(p.primary_category).some((n) => n.id === taxonomyId)
}

function categoryScore(p: PageData, taxonomyId: number): number {
  const own = (p.categories ?? []).find((c) => c.id === taxonomyId)?.score
  if (own !== undefined) return Math.min(1, own * 2)
  return p.primary_category !== null && ancestry(p.primary_category).some((n) => n.id === taxonomyId) ? 0.2 : 0
}

/**
 * The taxonomy node the prompt, or else the seed pages taken together, are most about: the best
 * tier-1 category, then down to a child only while one child clearly leads (at least half its
 * parent's score, and ahead of its siblings) — a prompt's stray keyword does not make it specific.
 */
export function derivedTaxonomy(rep: Pick<PromptIntent, 'categories'> | null, seeds: { categories: ScoredCategory[] | null }[]): number | null {
  let categories: ScoredCategory[] = rep?.categories ?? []
  if (!categories.length) {
    const sums = new Map<number, number>()
    for (const p of seeds) for (const c of p.categories ?? []) sums.set(c.id, (sums.get(c.id) ?? 0) + c.score / seeds.length)
    categories = [...sums].map(([id, score]) => ({ id, score }))
  }
  const scores = new Map(categories.filter((c) => getNode(c.id)).map((c) => [c.id, c.score]))
  let top: number | null = null
  for (const [id, score] of scores) if (getNode(id)?.tier === 1 && (top === null || score > scores.get(top)!)) top = id
  if (top === null) return null
  let best: number = top
  for (;;) {
    const kids: { id: number; score: number }[] = children(best)
      .map((k) => ({ id: k.id, score: scores.get(k.id) ?? 0 }))
      .sort((a, b) => b.score - a.score)
    const [first, second] = kids
    if (!first || first.score < 0.5 * scores.get(best)! || (second && second.score >= 0.8 * first.score)) return best
    best = first.id
  }
}

async function loadSeeds(db: Queryable, ids: number[]): Promise<Seed[]> {
  if (!ids.length) return []
  const { rows } = await db.query<{ id: number; url: string; state: string; errors: string[]; usable: boolean }>(
    `SELECT id, url, state, errors,
            (state = 'done' AND embedding IS NOT NULL AND COALESCE((embedding->>'confidence')::float8, 0) > 0) AS usable
       FROM pages WHERE id = ANY($1::bigint[])`,
    [ids],
  )
  const byId = new Map(rows.map((r) => [r.id, r]))
  return ids.flatMap((id) => {
    const r = byId.get(id)
    return r ? [{ pageId: r.id, url: r.url, errors: r.errors, state: r.state, usable: r.usable }] : []
  })
}

/**
 * Candidate pages with their embeddings. The JSON columns come back as text and are parsed here:
 * on the embedded engine that is about twice as fast as letting it build the objects on its thread
 * and copying them over.
 */
/** `withSemantic`: read the pages' sentence vectors too (512 bytes a page). */
async function loadPages(db: Queryable, ids: number[], withSemantic: boolean): Promise<PageData[]> {
  if (!ids.length) return []
  const { rows } = await db.query<
    Omit<PageData, 'embedding' | 'categories' | 'semantic'> & { embedding: string | null; categories: string | null; semantic: Uint8Array | null }
  >(
    `SELECT id, url, host, tld, word_count, language, primary_category, embedding::text AS embedding, categories::text AS categories,
            simhash::text AS simhash, ${datedArticleSql} AS dated_article, ${withSemantic ? 'semantic' : 'NULL::bytea AS semantic'},
            ${pageMfaScoreSql}::float8 AS page_mfa_score
       FROM pages WHERE id = ANY($1::bigint[]) AND state = 'done' AND embedding IS NOT NULL AND jsonb_typeof(embedding) = 'object'`,
    [ids],
  )
  const out: PageData[] = []
  for (const [i, r] of rows.entries()) {
    if (i % 2000 === 1999) await new Promise((resolve) => setImmediate(resolve))
    out.push({
      ...r,
      embedding: r.embedding === null ? null : (JSON.parse(r.embedding) as Embedding),
      categories: r.categories === null ? null : (JSON.parse(r.categories) as ScoredCategory[]),
      semantic: vectorOf(r.semantic),
    })
  }
  return out
}

/** Page ids with the most category evidence for the weighted categories (restricted to a taxonomy subtree if given). */
async function categoryCandidates(db: Queryable, weights: Map<number, number>, taxonomyId: number | null, limit: number): Promise<number[]> {
  if (!weights.size) return []
  const { rows } = await db.query<{ page_id: number }>(
    `SELECT pc.page_id
       FROM page_categories pc
       JOIN unnest($1::int[], $2::float8[]) AS q(taxonomy_id, w) ON q.taxonomy_id = pc.taxonomy_id
      WHERE ($4::int IS NULL OR EXISTS (SELECT 1 FROM page_categories t WHERE t.page_id = pc.page_id AND t.taxonomy_id = $4::int))
      GROUP BY pc.page_id
      ORDER BY sum(pc.score * q.w) DESC, pc.page_id
      LIMIT $3`,
    [[...weights.keys()], [...weights.values()], limit, taxonomyId],
  )
  return rows.map((r) => r.page_id)
}

/** Share of the index a term may appear in and still be searched as text (a name, not a common word). */
const RARE_TERM_SHARE = 0.02
/** Document frequencies are counted up to this share of the index; beyond it a term is common. */
const COMMON_TERM_SHARE = 0.1

export interface TermStats {
  /** indexed pages */
  pages: number
  /** term → pages containing it, counted up to COMMON_TERM_SHARE of the index (via the GIN index) */
  df: Map<string, number>
}

async function termStats(db: Queryable, terms: string[]): Promise<TermStats> {
  const { rows: size } = await db.query<{ n: number }>(`SELECT GREATEST(reltuples, 0)::float8 AS n FROM pg_class WHERE oid = 'pages'::regclass`)
  let pages = size[0]?.n ?? 0
  if (pages < 10_000) pages = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pages`)).rows[0]?.n ?? 0
  if (!terms.length) return { pages, df: new Map() }
  const cap = Math.max(3, Math.floor(pages * COMMON_TERM_SHARE))
  const { rows } = await db.query<{ n: number; df: number }>(
    `SELECT t.n::int AS n, (SELECT count(*)::int FROM (SELECT 1 FROM pages p WHERE p.search @@ to_tsquery('simple', t.q) LIMIT $2 + 1) x) AS df
       FROM unnest($1::text[]) WITH ORDINALITY AS t(q, n)`,
    [terms.map(searchQuery), cap],
  )
  return { pages, df: new Map(rows.map((r) => [terms[r.n - 1] as string, r.df])) }
}

/** The terms found in at most RARE_TERM_SHARE of the indexed pages. */
function rareTerms(stats: TermStats): string[] {
  const cap = Math.max(3, Math.floor(stats.pages * RARE_TERM_SHARE))
  return [...stats.df].filter(([, df]) => df > 0 && df <= cap).map(([t]) => t)
}

/**
 * The prompt's term weights times each term's inverse document frequency in the index, so a
 * specific word ("mac") counts more than a common one ("computer"), as in BM25.
 */
export function weighByRarity(intent: PromptIntent, stats: TermStats): PromptIntent {
  const termWeights = new Map<string, number>()
  const n = Math.max(2, stats.pages)
  for (const [t, w] of intent.termWeights) {
    const df = stats.df.get(t) ?? 0
    termWeights.set(t, w * Math.log(1 + n / (df + 1)))
  }
  return { ...intent, termWeights }
}

/**
 * A stemmed term as the full-text search asks for it: as a word prefix, so that "car" finds "cars";
 * a term of two letters as itself, since as a prefix it finds other words ("uk" in "Ukraine", "ai" in "air").
 */
export function searchQuery(stemmed: string): string {
  return stemmed.length <= 2 ? stemmed : `${searchPrefix(stemmed)}:*`
}

/** One term for each query searched ("car" and "caring" are both searched as "car:*"). */
export function searchedOnce(terms: string[]): string[] {
  const seen = new Set<string>()
  return terms.filter((t) => {
    const query = searchQuery(t)
    if (seen.has(query)) return false
    seen.add(query)
    return true
  })
}

/** Pages containing the given stemmed terms (searchQuery), with how many of the terms each contains. */
async function textCandidates(db: Queryable, terms: string[], taxonomyId: number | null): Promise<Map<number, number>> {
  const out = new Map<number, number>()
  if (!terms.length) return out
  const queries = terms.map(searchQuery)
  const { rows } = await db.query<{ id: number; matched: number }>(
    `SELECT p.id, (SELECT count(*)::int FROM unnest($1::text[]) AS t(q) WHERE p.search @@ to_tsquery('simple', t.q)) AS matched
       FROM pages p
      WHERE p.search @@ to_tsquery('simple', $2) AND p.state = 'done'
        AND ($4::int IS NULL OR EXISTS (SELECT 1 FROM page_categories t WHERE t.page_id = p.id AND t.taxonomy_id = $4::int))
      ORDER BY matched DESC, p.id
      LIMIT $3`,
    [queries, queries.join(' | '), MAX_TEXT_MATCHES, taxonomyId],
  )
  for (const r of rows) out.set(r.id, r.matched)
  return out
}
