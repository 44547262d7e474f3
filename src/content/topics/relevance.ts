// How well a page fits a prompt, as a calibrated score: the estimated probability that a reader of
// the prompt's topic would judge the page relevant. A logistic model over four measurements, fitted
// on the tuning half of the relevance benchmark (bench/relevance.bench.ts, docs/curation.md):
//  - topic: the chance that the page is about the prompt's tier-1 topics (Σ q·p / Σ q over topics);
//  - detail: the page's score for the prompt's deeper categories (Basketball, Elections…);
//  - terms: how strongly the page uses the prompt's own words (and learned expansions);
//  - similarity: the embedding similarity of prompt and page (concepts and terms, embed.ts), times
//    the square root of the page's confidence, as the classifier's prompt ranking measures it;
//  - themes: the similarity of their theme distributions (theme-model.ts: the corpora's own classes,
//    finer than the taxonomy where it is coarse), weighed by how sure the prompt is of its likeliest
//    theme (themeWeight); its coefficient was swept on the tuning half with the others kept;
//  - semantic: the cosine of the prompt's and the page's sentence vectors (content/semantic/), less
//    what an unrelated pair shows (SEMANTIC_BASELINE), so a page without a vector, or a service with
//    the encoder off, scores as the other five measurements alone say; swept like themes.
// Because the scale is the same for every prompt, a prompt the index cannot serve gets low scores.
import { type Embedding, similarity as embeddingSimilarity, themeSimilarity } from '../classify/embed.ts'
import { getNode } from '../taxonomy/taxonomy.ts'
import type { PromptIntent } from './interpret-prompt.ts'
import { themeName } from './theme-model.ts'

export interface FitReasons {
  categories: { taxonomy_id: number; name: string; score: number }[]
  terms: string[]
  /** the theme prompt and page share most, when themes moved the score */
  theme?: { name: string; similarity: number }
  /** the cosine of the prompt's and the page's sentence vectors, when it raised the score */
  meaning?: { similarity: number }
}

export interface PromptFit {
  score: number
  topic: number
  detail: number
  terms: number
  similarity: number
  themes: number
  /** the sentence vectors' cosine; null when the prompt or the page has none */
  semantic: number | null
  reasons: FitReasons
}

/** What was measured of the page beside its embedding. */
export interface PageMeasures {
  /** share of the prompt's rare words a full-text search found in the page */
  textShare?: number
  /** cosine of the prompt's and the page's sentence vectors, when both have one */
  semantic?: number | null
}

/**
 * Logistic coefficients: intercept, topic, detail, terms, similarity, themes, semantic. The best-ranking
 * mix on the tuning half, calibrated (fit (2) of `RELEVANCE_FIT=1 npm run bench -- relevance`;
 * docs/curation.md); themes and semantic swept on the tuning half with the others kept.
 */
export interface FitCoefficients {
  intercept: number
  topic: number
  detail: number
  terms: number
  similarity: number
  themes: number
  semantic: number
}
export const FIT_COEFFICIENTS: FitCoefficients = { intercept: -5.05, topic: 1.08, detail: 0.54, terms: 4.33, similarity: 4.33, themes: 5, semantic: 3 }

/**
 * Where the sentence vectors' cosine starts to count for a page: above what a candidate about
 * something else shows (an unrelated prompt and page: 0.12 on average, 0.25 at the 90th percentile;
 * a relevant pair 0.34). Swept with the coefficient on the tuning half so that the scores stay
 * calibrated; a page without a vector counts as if at the baseline.
 */
export const SEMANTIC_BASELINE = 0.24

// A term weight (saturated page term strength) of 1 is about two mentions in the body.
const TERM_SATURATION = 1
// A word found by full-text search but not among the page's strongest words: a passing mention.
const TEXT_MATCH_WEIGHT = 0.3

/**
 * How sure the prompt is of its tier-1 topics: the tier-1 probability its words keep (0..1). "trains,
 * ships and aircraft" reads as Business and Finance at 0.19: its pages are better found by its words.
 */
export function topicCertainty(intent: Pick<PromptIntent, 'categories'>): number {
  let sum = 0
  for (const c of intent.categories) if ((getNode(c.id)?.tier ?? 1) === 1) sum += c.score
  return Math.min(1, sum)
}

/** Below this theme measurement, themes moved the score too little to be named as a reason. */
const THEME_REASON = 0.05

/** The theme with the largest product of the two texts' probabilities. */
function sharedTheme(a: Embedding, b: Embedding): number | null {
  const other = new Map(b.themes ?? [])
  let best: number | null = null
  let bestProduct = 0
  for (const [t, p] of a.themes ?? []) {
    const product = p * (other.get(t) ?? 0)
    if (product > bestProduct) {
      best = t
      bestProduct = product
    }
  }
  return best
}

/**
 * How far a prompt's themes count: the square of its likeliest theme's probability. A prompt that names
 * one ("electronics hobbyists building circuits": 0.85) is read through it; one spread over many
 * ("tech-savvy readers interested in software…": 0.17 at most) hardly, since its pages' themes come
 * from corpora of another time and style (BENCHMARKS.md, seventeenth stop).
 */
function themeWeight(e: Embedding): number {
  let peak = 0
  for (const [, p] of e.themes ?? []) peak = Math.max(peak, p)
  return peak * peak
}

/**
 * `measured.textShare` floors the terms measurement, since a page keeps only its strongest words in its
 * embedding; `measured.semantic` is the sentence vectors' cosine, when both have one.
 */
export function promptFit(intent: PromptIntent, page: Embedding, measured: PageMeasures = {}, coefficients: FitCoefficients = FIT_COEFFICIENTS): PromptFit {
  const textShare = measured.textShare ?? 0
  const semantic = measured.semantic ?? null
  const shares = new Map(page.concepts)
  let topic = 0
  let topicNorm = 0
  let detail = 0
  let detailNorm = 0
  const matched: { id: number; contribution: number; score: number }[] = []
  for (const c of intent.categories) {
    const p = shares.get(c.id) ?? 0
    if ((getNode(c.id)?.tier ?? 1) === 1) {
      topic += c.score * p
      topicNorm += c.score
    } else {
      detail += c.score * Math.min(1, p * 2)
      detailNorm += c.score
    }
    if (p > 0.05) matched.push({ id: c.id, contribution: c.score * p, score: p })
  }
  // The page's probability of the prompt's topic mixture: normalised by the prompt's tier-1 weights,
  // so a prompt whose words also touch other topics ("sports fans following … transfer news") does
  // not cap every page's fit; how sure the prompt itself is shows in the terms and detail parts.
  topic = topicNorm > 0 ? topic / topicNorm : 0
  detail = detailNorm > 0 ? detail / detailNorm : 0

  let terms = 0
  let termNorm = 0
  const found: string[] = []
  const pageTerms = new Map(page.terms)
  for (const [t, w] of intent.termWeights) {
    const s = pageTerms.get(t) ?? 0
    terms += (w * s) / (s + TERM_SATURATION)
    termNorm += w
    if (s > 0) found.push(intent.surface.get(t) ?? t)
  }
  terms = Math.max(termNorm > 0 ? terms / termNorm : 0, TEXT_MATCH_WEIGHT * textShare)

  const k = coefficients
  // Without a recognised topic the prompt has only its words: a page using them is taken to be on
  // its topic, else no page could ever score as likely.
  // The prompt's own certainty about its topics (topicCertainty) decides how far the topic part counts.
  const certainty = Math.min(1, topicNorm)
  const onTopic = certainty * topic + (1 - certainty) * terms
  const similarity = embeddingSimilarity(intent.embedding, page) * Math.sqrt(page.confidence)
  const themeMatch = themeSimilarity(intent.embedding, page)
  const themes = themeMatch * themeWeight(intent.embedding)
  const z =
    k.intercept +
    k.topic * onTopic +
    k.detail * detail +
    k.terms * terms +
    k.similarity * similarity +
    k.themes * themes +
    (semantic === null ? 0 : k.semantic * (semantic - SEMANTIC_BASELINE))
  const score = 1 / (1 + Math.exp(-z))
  matched.sort((a, b) => b.contribution - a.contribution)
  const shared = themes >= THEME_REASON ? sharedTheme(intent.embedding, page) : null
  return {
    score,
    topic,
    detail,
    terms,
    similarity,
    themes,
    semantic,
    reasons: {
      categories: matched.slice(0, 3).map((m) => ({ taxonomy_id: m.id, name: getNode(m.id)?.name ?? String(m.id), score: round(m.score) })),
      terms: found.slice(0, 8),
      ...(shared === null ? {} : { theme: { name: themeName(shared), similarity: round(themeMatch) } }),
      // Named when the sentence vectors raised the score: above the baseline a page counts from.
      ...(semantic !== null && semantic > SEMANTIC_BASELINE ? { meaning: { similarity: round(semantic) } } : {}),
    },
  }
}

const round = (x: number): number => Math.round(x * 1000) / 1000
