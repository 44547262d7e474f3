// Page classifier: keyword evidence → IAB Content Taxonomy 3.1 categories with scores in 0..1.
import { children, getNode } from '../taxonomy/taxonomy.ts'
import { type Analysis, analyze } from './analyze.ts'
import { model } from './model.ts'

export interface PageInput {
  title: string
  text: string
  url?: string
  metaDescription?: string
  /** ISO 639-1 code if known; the vocabulary is English, so other languages need more evidence. */
  language?: string
}

export interface ScoredCategory {
  /** taxonomy node id (spec `taxonomy_id`) */
  id: number
  /** 0..1: how much of the page's topical evidence is for this node (squared shares), damped when the evidence is thin */
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
  /** minimum raw evidence for the best tier-1 category; default 3 */
  minEvidence?: number
  /** distinct vocabulary terms that must match; default 2 (a page naming one term once is not about it) */
  minTerms?: number
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
// Evidence at which confidence reaches 1 − 1/e: about three strong keyword hits.
const EVIDENCE_SCALE = 6
const MAX_CATEGORIES = 10
const SENSITIVE_MIN_DENSITY = 2.5

export function classifyPage(input: PageInput, options: ClassifyOptions = {}): PageClassification {
  const a = analyze({ body: input.text, title: input.title, description: input.metaDescription, url: input.url, language: input.language }, false)
  const english = !input.language || input.language.toLowerCase().startsWith('en')
  return classifyAnalysis(a, { ...options, minEvidence: (options.minEvidence ?? DEFAULT_MIN_EVIDENCE) * (english ? 1 : 2) })
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

export function classifyAnalysis(a: Analysis, options: ClassifyOptions = {}): PageClassification {
  const threshold = options.threshold ?? DEFAULT_THRESHOLD
  const minEvidence = options.minEvidence ?? DEFAULT_MIN_EVIDENCE
  const sensitive = sensitiveTopics(a)
  const roots = tier1Evidence(a)
  const best = roots[0]
  if (!best || best.evidence < minEvidence || a.matchedTerms < (options.minTerms ?? 2)) return { categories: [], classified: false, sensitive }

  // Squared shares: every page collects some stray evidence for many topics; squaring lets the
  // dominant topics stand out from that floor without changing their order.
  const sumSquares = roots.reduce((s, r) => s + r.evidence * r.evidence, 0)
  const confidence = 1 - Math.exp(-best.evidence / EVIDENCE_SCALE)
  const categories: { id: number; score: number }[] = []
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
    const score = ((r.evidence * r.evidence) / sumSquares) * confidence
    if (score < threshold) break
    categories.push({ id: r.id, score: round(score) })
    descend(r.id, score, r.evidence)
  }
  categories.sort((x, y) => y.score - x.score || (getNode(x.id)?.tier ?? 0) - (getNode(y.id)?.tier ?? 0))
  return { categories: categories.slice(0, MAX_CATEGORIES), classified: categories.length > 0, sensitive }
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
