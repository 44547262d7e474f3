/**
 * Made-for-advertising (MFA) score. Each page gets a score in 0..1 from the signals the extractor
 * stores (pages.signals); a domain's score is the mean over its indexed pages, so one odd page does
 * not condemn a site and a site of ad-stuffed pages cannot hide behind one clean page.
 *
 *   ad density   0.35 × clamp((ad slots per 1000 words − 30) / 70, 0, 1)   (30 → 0, 100 or more → 1)
 *   auto-refresh 0.25 if the page reloads itself (meta refresh or a scripted reload)
 *   slideshow    0.25 if it is a slideshow / paginated gallery page
 *   templated    0.15 if it is thin (< 300 words) and main text is under 35% of the page's text
 *
 * No single signal reaches the default threshold (0.5); two strong ones do — the trade bodies'
 * definition asks for "most of" the traits, not any one. The density scale is set on real pages:
 * the extractor counts 20–40 ad slots per 1000 words on ordinary news articles (235 labelled dev
 * pages, fixtures/classification), up to ~100 on the most ad-heavy; the ad-stuffed slideshow
 * fixture has over 200.
 */
import type { Queryable } from '../../platform/db/db.ts'

export const mfaWeights = { adDensity: 0.35, refresh: 0.25, slideshow: 0.25, templated: 0.15 } as const

const adExpr = `LEAST(1, GREATEST(0, (COALESCE((signals->>'ad_slots_per_1000_words')::float8, 0) - 30) / 70))`
const refreshExpr = `(CASE WHEN COALESCE((signals->>'has_meta_refresh')::boolean, false) OR COALESCE((signals->>'has_js_refresh')::boolean, false) THEN 1 ELSE 0 END)`
const slideshowExpr = `(CASE WHEN COALESCE((signals->>'slideshow_pattern')::boolean, false) OR COALESCE((signals->>'url_is_paginated')::boolean, false) THEN 1 ELSE 0 END)`
const templatedExpr = `(CASE WHEN COALESCE(word_count, 0) < 300 AND COALESCE((signals->>'main_text_ratio')::float8, 1) < 0.35 THEN 1 ELSE 0 END)`

/** The page score as SQL over a `pages` row. */
export const pageMfaScoreSql = `(${mfaWeights.adDensity} * ${adExpr} + ${mfaWeights.refresh} * ${refreshExpr} + ${mfaWeights.slideshow} * ${slideshowExpr} + ${mfaWeights.templated} * ${templatedExpr})`

export interface PageSignalsLike {
  ad_slots_per_1000_words?: number
  has_meta_refresh?: boolean
  has_js_refresh?: boolean
  slideshow_pattern?: boolean
  url_is_paginated?: boolean
  main_text_ratio?: number
}

/** The same score in TypeScript (tests and docs). */
export function pageMfaScore(signals: PageSignalsLike | null, wordCount: number | null): number {
  if (!signals) return 0
  const ad = Math.min(1, Math.max(0, ((signals.ad_slots_per_1000_words ?? 0) - 30) / 70))
  const refresh = signals.has_meta_refresh || signals.has_js_refresh ? 1 : 0
  const slideshow = signals.slideshow_pattern || signals.url_is_paginated ? 1 : 0
  const templated = (wordCount ?? 0) < 300 && (signals.main_text_ratio ?? 1) < 0.35 ? 1 : 0
  return mfaWeights.adDensity * ad + mfaWeights.refresh * refresh + mfaWeights.slideshow * slideshow + mfaWeights.templated * templated
}

export interface DomainMfa {
  domain: string
  pages: number
  score: number
  /** Means of the components, for the exclusion's explanation. */
  ad_density: number
  refresh_share: number
  slideshow_share: number
  templated_share: number
}

/** The MFA score of each domain (registrable domain, `pages.tld`) over all its indexed pages. */
export async function domainMfaScores(db: Queryable, domains: string[]): Promise<Map<string, DomainMfa>> {
  const out = new Map<string, DomainMfa>()
  if (!domains.length) return out
  const { rows } = await db.query<DomainMfa>(
    `SELECT tld AS domain, count(*)::int AS pages, avg(${pageMfaScoreSql})::float8 AS score,
            avg(${adExpr})::float8 AS ad_density, avg(${refreshExpr})::float8 AS refresh_share,
            avg(${slideshowExpr})::float8 AS slideshow_share, avg(${templatedExpr})::float8 AS templated_share
       FROM pages
      WHERE tld = ANY($1::text[]) AND state = 'done' AND signals IS NOT NULL AND jsonb_typeof(signals) = 'object'
      GROUP BY tld`,
    [domains],
  )
  for (const r of rows) out.set(r.domain, r)
  return out
}
