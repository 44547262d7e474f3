// Compact, JSON-serialisable representations of pages and buyer prompts for ranking.
// An embedding has two sparse parts: "concepts" (share of topical evidence per taxonomy node) and
// "terms" (sub-linear weights of stemmed words). Both come from the same keyword analysis as the
// classifier, so a prompt and a page meet in the taxonomy even when they share no word.
import { getNode } from '../taxonomy/taxonomy.ts'
import { corpusTopics } from '../topics/classes.ts'
import { type Analysis, analyze } from './analyze.ts'
import {
  categoryScores,
  classifyAnalysis,
  languageOptions,
  type PageClassification,
  type PageInput,
  readPage,
  type ScoredCategory,
  tier1Probabilities,
  vocabularyTier1,
} from './classify-page.ts'
import { model } from './model.ts'

export interface Embedding {
  /** [taxonomy id, probability (tier-1) or probability × share of the branch (deeper)], sorted by id */
  concepts: [number, number][]
  /** [stemmed term, weight], sorted by term; only the strongest terms are kept */
  terms: [string, number][]
  /** 0..1, grows with the amount of text the topic model can read; near 0 for text it cannot */
  confidence: number
  /** [theme, probability] of the likeliest themes (theme-model.ts), sorted by theme; absent for pages classified before classifier version 8 and for text not in English */
  themes?: [number, number][]
}

export interface QueryRepresentation {
  embedding: Embedding
  categories: ScoredCategory[]
}

const MAX_TERMS = 96
const MAX_CONCEPTS = 64
const CONCEPT_WEIGHT = 0.75
const CONCEPT_FLOOR = 0.01
// Known words and word pairs at which confidence reaches 1 − 1/e: a short paragraph.
const FEATURE_SCALE = 12
// Deep nodes refine the match without letting a single narrow keyword dominate it.
const TIER_FACTOR = [0, 1, 1, 0.6, 0.4] as const

export function embedPage(input: PageInput): Embedding {
  return embedAnalysis(readPage(input))
}

/** classifyPage and embedPage from one reading of the page (the index needs both). */
export function classifyAndEmbed(input: PageInput): { classification: PageClassification; embedding: Embedding } {
  const a = readPage(input)
  return { classification: classifyAnalysis(a, languageOptions(input)), embedding: embedAnalysis(a) }
}

export function embedQuery(text: string): Embedding {
  return embedAnalysis(analyze({ body: text }))
}

/**
 * The tier-1 probabilities an embedding keeps: the classifier's, but a topic no training corpus covers
 * (corpusTopics: Video Gaming, Law, War and Conflicts…) keeps at least the vocabulary's own probability
 * for it. The model learned such a topic from one-word pseudo-documents, which a long page's other
 * words drown: no gaming, law or war dev page reads it first (BENCHMARKS.md, eighteenth stop). Retrieval
 * and prompt fit read this; the page's categories (the classification) are the classifier's.
 */
export function conceptRoots(a: Analysis): ScoredCategory[] {
  const roots = tier1Probabilities(a)
  if (!a.english || a.matchedTerms === 0) return roots
  const covered = corpusTopics()
  const vocabulary = new Map(vocabularyTier1(a).map((c) => [c.id, c.score]))
  return roots.map((c) => (covered.has(c.id) ? c : { id: c.id, score: Math.max(c.score, vocabulary.get(c.id) ?? 0) })).sort((x, y) => y.score - x.score)
}

export function embedAnalysis(a: Analysis): Embedding {
  const m = model()
  const concepts = categoryScores(a, conceptRoots(a), CONCEPT_FLOOR).map((c): [number, number] => [c.id, c.score])
  concepts.sort((x, y) => y[1] - x[1])
  const keptConcepts = concepts.slice(0, MAX_CONCEPTS).sort((x, y) => x[0] - y[0])
  // Words the model knows carry topic; other words only help when prompt and page share them.
  const terms = [...a.terms].map(([t, w]): [string, number] => [t, m.postings.has(t) ? w * 2 : w])
  terms.sort((x, y) => y[1] - x[1])
  const keptTerms = terms.slice(0, MAX_TERMS).sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0))
  const confidence = 1 - Math.exp(-(a.topicFeatures + a.matchedTerms) / FEATURE_SCALE)
  const embedding: Embedding = {
    concepts: keptConcepts.map(([id, s]) => [id, round(s)]),
    terms: keptTerms.map(([t, w]) => [t, round(w)]),
    confidence: round(confidence),
  }
  if (a.themes.length > 0) embedding.themes = a.themes.map(([t, p]) => [t, round(p)])
  return embedding
}

/** Cosine similarity in 0..1, concepts weighted 3:1 over terms. */
export function similarity(a: Embedding, b: Embedding): number {
  const ca = a.concepts.map(([id, s]): [number, number] => [id, s * tierFactor(id)])
  const cb = b.concepts.map(([id, s]): [number, number] => [id, s * tierFactor(id)])
  return CONCEPT_WEIGHT * cosine(ca, cb) + (1 - CONCEPT_WEIGHT) * cosine(a.terms, b.terms)
}

/** Cosine similarity of two texts' theme distributions, 0..1 (0 when either has none). */
export function themeSimilarity(a: Embedding, b: Embedding): number {
  return a.themes && b.themes ? cosine(a.themes, b.themes) : 0
}

/** The taxonomy nodes a buyer prompt is about, best first. Prompts are short, so less evidence is asked for. */
// A prompt may be one word ("soccer", "NBA"): one strong term is enough to name its topic, unlike a page.
const PROMPT_OPTIONS = { minEvidence: 1.5, threshold: 0.08, minTerms: 1 } as const

export function categoriesForPrompt(prompt: string): ScoredCategory[] {
  return classifyAnalysis(analyze({ body: prompt }), PROMPT_OPTIONS).categories
}

export function representQuery(prompt: string): QueryRepresentation {
  const a = analyze({ body: prompt })
  return { embedding: embedAnalysis(a), categories: classifyAnalysis(a, PROMPT_OPTIONS).categories }
}

/**
 * How well a page fits a buyer prompt, 0..1: half embedding similarity, half how much of the
 * page's evidence falls in the prompt's categories; discounted when the page's evidence is thin,
 * since one stray keyword in an unreadable page would otherwise look like a perfectly focused page.
 */
export function promptRelevance(query: QueryRepresentation, page: Embedding): number {
  const shares = new Map(page.concepts)
  let match = 0
  let norm = 0
  for (const c of query.categories) {
    match += c.score * (shares.get(c.id) ?? 0)
    norm += c.score
  }
  const categoryMatch = norm > 0 ? match / norm : 0
  return Math.sqrt(page.confidence) * (0.5 * similarity(query.embedding, page) + 0.5 * categoryMatch)
}

function cosine<K extends string | number>(a: readonly [K, number][], b: readonly [K, number][]): number {
  let dot = 0
  let i = 0
  let j = 0
  while (i < a.length && j < b.length) {
    const x = a[i] as [K, number]
    const y = b[j] as [K, number]
    if (x[0] === y[0]) {
      dot += x[1] * y[1]
      i++
      j++
    } else if (x[0] < y[0]) i++
    else j++
  }
  const na = Math.hypot(...a.map((e) => e[1]))
  const nb = Math.hypot(...b.map((e) => e[1]))
  return na > 0 && nb > 0 ? dot / (na * nb) : 0
}

function tierFactor(id: number): number {
  return TIER_FACTOR[getNode(id)?.tier ?? 1] ?? 1
}

const round = (x: number): number => Math.round(x * 10000) / 10000
