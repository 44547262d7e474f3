/**
 * The quality filters every segment goes through (docs/curation.md "Quality filtering"), and the
 * user's blocks. Candidates arrive best first; each one either stays or is excluded with exactly
 * one reason — the first rule, in the order of `exclusionReasons`, that applies.
 */

import { classifierLanguages } from '../../content/classify/index.ts'
import { domainMatcher } from '../../content/urls/domains.ts'
import type { CurationConfig } from '../../platform/config.ts'
import type { Queryable } from '../../platform/db/db.ts'
import type { DomainTraffic } from './bot-traffic.ts'
import { botShareByDomain, isBotHeavy } from './bot-traffic.ts'
import type { DomainMfa } from './mfa.ts'
import { domainMfaScores, pageMfaScoreSql } from './mfa.ts'
import { fingerprint, nearDuplicateIndex } from './near-duplicates.ts'

export const exclusionReasons = [
  'blocked_tld',
  'blocked_domain',
  'blocked_url',
  'removed_by_tld',
  'blocked_keyword',
  'bot_traffic',
  'mfa',
  'thin_content',
  'unsupported_language',
  'near_duplicate',
] as const
export type ExclusionReason = (typeof exclusionReasons)[number]

export type CandidateSource = 'prompt' | 'example' | 'hop' | 'expand'

export interface Candidate {
  pageId: number
  url: string
  host: string
  tld: string
  wordCount: number | null
  /** Its publisher marks it as a dated article: og:type article and a publication date. */
  datedArticle: boolean
  /** The page's own made-for-advertising score (mfa.ts), null when unknown. */
  pageMfaScore: number | null
  language: string | null
  /** The page's most specific category (result_taxonomy_leaf_id). */
  taxonomyId: number | null
  simhash: string | null
  score: number
  source: CandidateSource
  /** Why the page is in the segment (docs/curation.md "Reasons"); stored with the URL. */
  reasons?: UrlReasons
}

export interface UrlReasons {
  /** the prompt's categories the page is about, with the page's score for each */
  categories?: { taxonomy_id: number; name: string; score: number }[]
  /** the prompt's words (and learned expansions) the page uses */
  terms?: string[]
  /** the theme (a class of the topic model's corpora) the prompt and the page share most, when it moved the score */
  theme?: { name: string; similarity: number }
  /** the cosine of the prompt's and the page's sentence vectors (what each is about, beyond its words), when it raised the score */
  meaning?: { similarity: number }
  /** the example URL the page is most like */
  example?: { url: string; similarity: number }
  /** the page's score for the requested taxonomy node */
  taxonomy?: { taxonomy_id: number; score: number }
}

/**
 * The thin-content floor a page is held to (docs/curation.md "Quality filtering"). Word count is
 * not what makes content thin — trade bodies define made-for-advertising by ad load, refresh,
 * slideshows and templating (the mfa filter), not length — but a page with little text is often not
 * content at all: a home, section or about page, a product or video page, a stub. So every page
 * needs minWords, except a short news brief (a result, a transfer, a police report): a page its
 * publisher marks as a dated article, whose own MFA score stays under the threshold, needs only
 * minArticleWords (by default the index's own E004 floor, the least text it classifies).
 */
export function thinContentFloor(
  c: Pick<Candidate, 'datedArticle' | 'pageMfaScore'>,
  cfg: Pick<CurationConfig, 'minWords' | 'minArticleWords' | 'mfaThreshold'>,
): number {
  const brief = c.datedArticle && (c.pageMfaScore ?? 0) < cfg.mfaThreshold
  return brief ? Math.min(cfg.minArticleWords, cfg.minWords) : cfg.minWords
}

/** SQL over a `pages` row: the publisher marks it as a dated article (Candidate.datedArticle). */
export const datedArticleSql = `(published_date IS NOT NULL AND lower(metadata->>'og_type') = 'article')`

/**
 * SQL over a `pages` row: it reaches its thin-content floor (thinContentFloor), given the
 * placeholders holding minWords, minArticleWords and mfaThreshold.
 */
export function aboveThinFloorSql(minWords: string, minArticleWords: string, mfaThreshold: string): string {
  return `(COALESCE(word_count, 0) >= ${minWords} OR (COALESCE(word_count, 0) >= ${minArticleWords} AND ${datedArticleSql} AND ${pageMfaScoreSql} < ${mfaThreshold}))`
}

export interface Exclusion {
  candidate: Candidate
  reason: ExclusionReason
  detail: Record<string, unknown>
}

export interface BlockRules {
  /** The request's block_tlds (normalized): a page is blocked when its host is one of them or under one. */
  tlds: string[]
  /** Domains and URLs blocked by optimizations. */
  domains: string[]
  urls: ReadonlySet<string>
  /** The request's block_keywords and the optimizations' keywords: matched against title and text. */
  keywords: string[]
  /** Removals by domain (DELETE …/url-classifications/by-tld): tld → taxonomy leaves it is removed from. */
  removals: ReadonlyMap<string, ReadonlySet<number>>
  /** The segment's taxonomy id: removals for it apply to every URL of the segment. */
  segmentTaxonomyId: number | null
}

export const noBlocks: BlockRules = { tlds: [], domains: [], urls: new Set(), keywords: [], removals: new Map(), segmentTaxonomyId: null }

export interface QualityData {
  mfa: Map<string, DomainMfa>
  traffic: Map<string, DomainTraffic>
  keywordHits: Map<number, string>
}

/** Loads what the rules need about the candidates: domain MFA scores, pixel traffic, keyword matches. */
export async function loadQualityData(db: Queryable, candidates: Candidate[], rules: BlockRules): Promise<QualityData> {
  const tlds = [...new Set(candidates.map((c) => c.tld))]
  const names = [...new Set([...tlds, ...candidates.map((c) => c.host)])]
  const [mfa, traffic, keywordHits] = await Promise.all([
    domainMfaScores(db, tlds),
    botShareByDomain(db, names),
    keywordMatches(
      db,
      candidates.map((c) => c.pageId),
      rules.keywords,
    ),
  ])
  return { mfa, traffic, keywordHits }
}

/** Which pages match a keyword (full-text, as a phrase, case-insensitive), with the first keyword matched. */
export async function keywordMatches(db: Queryable, pageIds: number[], keywords: string[]): Promise<Map<number, string>> {
  const out = new Map<number, string>()
  const usable = keywords.map((k) => k.trim()).filter((k) => /[\p{L}\p{N}]/u.test(k))
  if (!pageIds.length || !usable.length) return out
  const { rows } = await db.query<{ id: number; keyword: string }>(
    `SELECT p.id, k.keyword
       FROM pages p
       JOIN unnest($2::text[]) WITH ORDINALITY AS k(keyword, n) ON p.search @@ phraseto_tsquery('simple', k.keyword)
      WHERE p.id = ANY($1::bigint[])
      ORDER BY p.id, k.n`,
    [pageIds, usable],
  )
  for (const r of rows) if (!out.has(r.id)) out.set(r.id, r.keyword)
  return out
}

type Verdict = Omit<Exclusion, 'candidate'>

/** The user's blocks and removals alone (no quality filters): what an optimization's block applies. */
export function blockChecker(rules: BlockRules, keywordHits: ReadonlyMap<number, string>): (c: Candidate) => Verdict | null {
  const blockedTld = domainMatcher(rules.tlds)
  const blockedDomain = domainMatcher(rules.domains)
  return (c) => {
    const tld = blockedTld(c.host)
    if (tld) return { reason: 'blocked_tld', detail: { blocked: tld } }
    const domain = blockedDomain(c.host)
    if (domain) return { reason: 'blocked_domain', detail: { blocked: domain } }
    if (rules.urls.has(c.url)) return { reason: 'blocked_url', detail: {} }
    const removedFrom = rules.removals.get(c.tld)
    if (removedFrom) {
      for (const leaf of [rules.segmentTaxonomyId, c.taxonomyId]) {
        if (leaf !== null && removedFrom.has(leaf)) return { reason: 'removed_by_tld', detail: { tld: c.tld, taxonomy_leaf_id: leaf } }
      }
    }
    const keyword = keywordHits.get(c.pageId)
    if (keyword !== undefined) return { reason: 'blocked_keyword', detail: { keyword } }
    return null
  }
}

/**
 * Walks the ranked candidates, keeping at most maxUrls. Near-duplicates are judged against the pages
 * already kept, so the best-ranked page of a group stays.
 */
export function applyFilters(
  ranked: Candidate[],
  rules: BlockRules,
  data: QualityData,
  cfg: Pick<CurationConfig, 'minWords' | 'minArticleWords' | 'mfaThreshold' | 'botMinLoads' | 'botShareThreshold' | 'nearDuplicateBits'>,
  maxUrls: number,
): { kept: Candidate[]; excluded: Exclusion[] } {
  const kept: Candidate[] = []
  const excluded: Exclusion[] = []
  const dups = nearDuplicateIndex<Candidate>(cfg.nearDuplicateBits)

  const isBlocked = blockChecker(rules, data.keywordHits)
  const verdict = (c: Candidate): Verdict | null => {
    const blocked = isBlocked(c)
    if (blocked) return blocked
    for (const name of [c.host, c.tld]) {
      const t = data.traffic.get(name)
      if (isBotHeavy(t, cfg.botMinLoads, cfg.botShareThreshold)) {
        return {
          reason: 'bot_traffic',
          detail: { domain: name, loads: t!.loads, non_human_loads: t!.non_human_loads, non_human_share: round(t!.share), threshold: cfg.botShareThreshold },
        }
      }
    }
    const mfa = data.mfa.get(c.tld)
    if (mfa && mfa.score >= cfg.mfaThreshold) {
      return {
        reason: 'mfa',
        detail: {
          domain: c.tld,
          mfa_score: round(mfa.score),
          threshold: cfg.mfaThreshold,
          pages: mfa.pages,
          ad_density: round(mfa.ad_density),
          refresh_share: round(mfa.refresh_share),
          slideshow_share: round(mfa.slideshow_share),
          templated_share: round(mfa.templated_share),
        },
      }
    }
    const floor = thinContentFloor(c, cfg)
    if ((c.wordCount ?? 0) < floor) return { reason: 'thin_content', detail: { word_count: c.wordCount ?? 0, min_words: floor } }
    // An example URL or a text match in a language the classifier does not read (its E006).
    if (c.language && !classifierLanguages.has(c.language)) {
      return { reason: 'unsupported_language', detail: { language: c.language, supported: [...classifierLanguages] } }
    }
    return null
  }

  for (const c of ranked) {
    if (kept.length >= maxUrls) break
    const v = verdict(c)
    if (v) {
      excluded.push({ candidate: c, ...v })
      continue
    }
    const f = fingerprint(c.simhash)
    if (f) {
      const dup = dups.check(f)
      if (dup) {
        excluded.push({ candidate: c, reason: 'near_duplicate', detail: { duplicate_of: dup.key.url, distance: dup.distance } })
        continue
      }
      dups.add(f, c)
    }
    kept.push(c)
  }
  return { kept, excluded }
}

const round = (x: number): number => Math.round(x * 1000) / 1000
