// Page classifier: keyword evidence → IAB Content Taxonomy 3.1 categories with scores in 0..1.
import { children, getNode } from '../taxonomy/taxonomy.ts'
import { softmax, topicModel } from '../topics/topic-model.ts'
import { type Analysis, analyze } from './analyze.ts'
import { model } from './model.ts'

export interface PageInput {
  title: string
  text: string
  url?: string
  metaDescription?: string
  /** ISO 639-1 code if known; the vocabulary is English, so other languages need more evidence. */
  language?: string
  /** the page's sentence vector, once index.semantic has read it (analyze.ts) */
  semantic?: Int8Array | null
}

export interface ScoredCategory {
  /** taxonomy node id (spec `taxonomy_id`) */
  id: number
  /**
   * 0..1: for a tier-1 node, the estimated probability that the page is about it (learned model and
   * curated vocabulary together); a deeper node gets its tier-1's probability times its share of the
   * branch's vocabulary evidence
   */
  score: number
}

export interface PageClassification {
  /** tier-1 categories and their more specific descendants, best first, all ≥ the threshold */
  categories: ScoredCategory[]
  /** false: not enough evidence for any category (the caller reports E007) */
  classified: boolean
  /** GARM-derived "Sensitive Topics" nodes found on the page (brand safety), best first */
  sensitive: ScoredCategory[]
}

export interface ClassifyOptions {
  /** minimum score of a returned category; default 0.1 */
  threshold?: number
  /** minimum raw vocabulary evidence for the best tier-1 category; default 3 */
  minEvidence?: number
  /** distinct vocabulary terms that must match with minEvidence; default 2 (a page naming one term once is not about it) */
  minTerms?: number
  /** words and word pairs the learned model must know, when the vocabulary evidence is short of minEvidence; default 6 (a greeting and a few common words are not a topic) */
  minFeatures?: number
}

/**
 * Languages the classifier reads (docs/taxonomy-and-classification.md): English fully, and the big
 * topical categories in German, French, Spanish, Italian, Portuguese and Dutch (vocab/european.ts).
 * A page in another language is E006 at scrape time and is not classified, rather than an E007 that
 * blames the page.
 */
export const classifierLanguages: ReadonlySet<string> = new Set(['en', 'de', 'fr', 'es', 'it', 'pt', 'nl'])

const DEFAULT_THRESHOLD = 0.1
const DEFAULT_MIN_EVIDENCE = 3
const DEFAULT_MIN_FEATURES = 6
// Below this probability the best category is a guess, not a classification.
const MIN_TOP_PROBABILITY = 0.2
// Weight of the curated vocabulary's evidence (log1p) added to the learned model's scores; chosen on
// the labelled dev pages (docs/taxonomy-and-classification.md, "Ablation").
const VOCABULARY_WEIGHT = 0.5
// Pages in the other languages the classifier reads (vocab/european.ts): the model is English, so
// their tier-1 probabilities come from the vocabulary only.
const OTHER_LANGUAGE_VOCABULARY_WEIGHT = 2
const MAX_CATEGORIES = 10
const SENSITIVE_MIN_DENSITY = 2.5

export function classifyPage(input: PageInput, options: ClassifyOptions = {}): PageClassification {
  return classifyAnalysis(readPage(input, false), languageOptions(input, options))
}

/** The analysis of a page's fields (title, description, URL words count extra); `withTerms` as for analyze. */
export function readPage(input: PageInput, withTerms = true): Analysis {
  return analyze(
    { body: input.text, title: input.title, description: input.metaDescription, url: input.url, language: input.language, semantic: input.semantic },
    withTerms,
  )
}

/**
 * The learned model is English and the vocabulary of the other languages (vocab/european.ts) is
 * shorter: a page in another language must show twice the evidence.
 */
export function languageOptions(input: PageInput, options: ClassifyOptions = {}): ClassifyOptions {
  const factor = !input.language || input.language.toLowerCase().startsWith('en') ? 1 : 2
  return {
    ...options,
    minEvidence: (options.minEvidence ?? DEFAULT_MIN_EVIDENCE) * factor,
    minFeatures: (options.minFeatures ?? DEFAULT_MIN_FEATURES) * factor,
  }
}

/**
 * Probability per topical tier-1 category, highest first: a softmax over the learned model's scores
 * plus the vocabulary's evidence (for a page in another language, the vocabulary's alone). Empty
 * when neither knows a word of the text.
 */
export function tier1Probabilities(a: Analysis, vocabularyWeight = VOCABULARY_WEIGHT): ScoredCategory[] {
  const m = topicModel()
  const evidence = a.nodeScores
  if (a.topicFeatures === 0 && a.matchedTerms === 0) return []
  if (!a.english) return vocabularyTier1(a)
  const logits = Float64Array.from(a.topicLogits, (l, i) => l + vocabularyWeight * Math.log1p(evidence.get(m.classIds[i] as number) ?? 0))
  return scored(softmax(logits))
}

/**
 * Tier-1 probabilities from the vocabulary's evidence alone, as squared shares of it ((1 + e)²
 * normalised, the previous classifier's scale): for a page in another language, whose words the
 * English model does not read, and for a prompt none of whose words the model knows (interpret-prompt.ts).
 */
export function vocabularyTier1(a: Analysis): ScoredCategory[] {
  const logits = Float64Array.from(topicModel().classIds, (id) => OTHER_LANGUAGE_VOCABULARY_WEIGHT * Math.log1p(a.nodeScores.get(id) ?? 0))
  return scored(softmax(logits))
}

function scored(probabilities: Float64Array): ScoredCategory[] {
  const ids = topicModel().classIds
  const out: ScoredCategory[] = []
  for (let i = 0; i < probabilities.length; i++) out.push({ id: ids[i] as number, score: probabilities[i] as number })
  return out.sort((x, y) => y.score - x.score)
}

/** Tier-1 topical evidence, highest first (raw, unnormalised). */
export function tier1Evidence(a: Analysis): { id: number; evidence: number }[] {
  const out: { id: number; evidence: number }[] = []
  for (const id of model().topicalRoots) {
    const e = a.nodeScores.get(id) ?? 0
    if (e > 0) out.push({ id, evidence: e })
  }
  return out.sort((x, y) => y.evidence - x.evidence)
}

/** `roots`: the tier-1 probabilities to descend from, when the caller read them otherwise (vocabularyTier1). */
export function classifyAnalysis(a: Analysis, options: ClassifyOptions = {}, roots: readonly ScoredCategory[] = tier1Probabilities(a)): PageClassification {
  const threshold = options.threshold ?? DEFAULT_THRESHOLD
  const minEvidence = options.minEvidence ?? DEFAULT_MIN_EVIDENCE
  const minFeatures = options.minFeatures ?? DEFAULT_MIN_FEATURES
  const sensitive = sensitiveTopics(a)
  const best = roots[0]
  const bestEvidence = tier1Evidence(a)[0]?.evidence ?? 0
  const readable = (bestEvidence >= minEvidence && a.matchedTerms >= (options.minTerms ?? 2)) || (a.english && a.topicFeatures >= minFeatures)
  if (!best || best.score < MIN_TOP_PROBABILITY || !readable) return { categories: [], classified: false, sensitive }

  const categories = categoryScores(a, roots, threshold)
  categories.sort((x, y) => y.score - x.score || (getNode(x.id)?.tier ?? 0) - (getNode(y.id)?.tier ?? 0))
  return { categories: categories.slice(0, MAX_CATEGORIES), classified: categories.length > 0, sensitive }
}

/**
 * Every category at or above the threshold: tier-1 probabilities, and below each tier-1 its
 * descendants, scored by their share of the branch's vocabulary evidence.
 */
export function categoryScores(a: Analysis, roots: readonly ScoredCategory[], threshold: number): ScoredCategory[] {
  const categories: ScoredCategory[] = []
  const descend = (id: number, rootScore: number, rootEvidence: number): void => {
    for (const c of children(id)) {
      const score = (rootScore * (a.nodeScores.get(c.id) ?? 0)) / rootEvidence
      if (score >= threshold) {
        categories.push({ id: c.id, score: round(score) })
        descend(c.id, rootScore, rootEvidence)
      }
    }
  }
  for (const r of roots) {
    if (r.score < threshold) break
    categories.push({ id: r.id, score: round(r.score) })
    const evidence = a.nodeScores.get(r.id) ?? 0
    if (evidence > 0) descend(r.id, r.score, evidence)
  }
  return categories
}

/**
 * The most specific category along the best branch (spec `result_taxonomy_leaf_id`): start at the
 * best tier-1 and keep stepping to its best-scoring returned child. Null when unclassified.
 */
export function primaryLeaf(result: PageClassification): number | null {
  const returned = new Map(result.categories.map((c) => [c.id, c.score]))
  let current = result.categories.find((c) => getNode(c.id)?.tier === 1)?.id
  if (current === undefined) return null
  for (;;) {
    let next: number | undefined
    let best = -1
    for (const c of children(current)) {
      const score = returned.get(c.id)
      if (score !== undefined && score > best) [next, best] = [c.id, score]
    }
    if (next === undefined) return current
    current = next
  }
}

/** Sensitive topics by density (evidence per ~300 tokens), so one passing mention in a long article does not flag it. */
function sensitiveTopics(a: Analysis): ScoredCategory[] {
  const root = model().sensitiveRoot
  const scale = Math.max(1, Math.sqrt(a.tokenCount / 300))
  const out: ScoredCategory[] = []
  for (const c of children(root)) {
    const density = (a.nodeScores.get(c.id) ?? 0) / scale
    if (density >= SENSITIVE_MIN_DENSITY) out.push({ id: c.id, score: round(1 - Math.exp(-density / 10)) })
  }
  return out.sort((x, y) => y.score - x.score)
}

const round = (x: number): number => Math.round(x * 1000) / 1000
