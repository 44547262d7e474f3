// The keyword model: every stemmed term or phrase maps to the taxonomy nodes it is evidence for.
// Built once at module load from taxonomy names plus the curated vocabulary (no training data).
import { allNodes, ancestry, getNodeByUniqueId, type TaxonomyNode } from '../taxonomy/taxonomy.ts'
import { contentTokens, isGeneric } from './text.ts'
import { EUROPEAN, parseEntries, VOCABULARY_PARTS, type Vocabulary } from './vocab/index.ts'

/** GARM "Sensitive Topics": scored separately, for brand safety. */
export const SENSITIVE_ROOT_UID = 'v9i3On'
/** Media genres (drama, comedy…) describe format rather than what a page is about. */
const GENRES_ROOT_UID = 'SPSHQ5'

// Name-derived evidence is weaker than curated evidence: names are short and often generic.
const NAME_PHRASE_WEIGHT = 1.5
const NAME_WORD_WEIGHT = 0.6
// Stemmed name words that are vague, or common words in disguise once stemmed (Boxing → "box", Blues → "blue").
const GENERIC_NAME_WORDS = new Set(
  `other general type style service industry issue interest life living event care supply technology blue
   box walk row option van dating diving bowl sail sale camp house design home birth dance action single
   large water rule figure field track summer winter modern natural special public national personal
   family`.split(/\s+/),
)

export interface KeywordModel {
  /** term key (stemmed tokens joined by a space) → parallel arrays of node id and weight, propagated to ancestors */
  postings: Map<string, { ids: number[]; weights: number[] }>
  /** first token of every multi-token term, to skip phrase look-ups cheaply */
  phraseStarts: Set<string>
  maxPhraseLength: number
  /** tier-1 nodes that take part in topical ranking */
  topicalRoots: ReadonlySet<number>
  sensitiveRoot: number
}

/** `extra`: lists added after the English ones (a page language's own words, vocab/european.ts). */
export function buildModel(extra: readonly Vocabulary[] = []): KeywordModel {
  const roots = new Map<number, number>() // node id → tier-1 id
  for (const n of allNodes()) roots.set(n.id, ancestry(n.id)[0]?.id ?? n.id)
  const genres = mustGet(GENRES_ROOT_UID)
  const sensitive = mustGet(SENSITIVE_ROOT_UID)
  const raw = new Map<string, Map<number, number>>() // key → node → weight (max of sources)
  const add = (key: string, node: number, weight: number): void => {
    if (!key || isGeneric(key)) return
    const m = raw.get(key) ?? new Map<number, number>()
    m.set(node, Math.max(m.get(node) ?? 0, weight))
    raw.set(key, m)
  }

  for (const n of allNodes()) {
    const root = roots.get(n.id)
    if (root === genres.id || root === sensitive.id) continue
    const toks = contentTokens(n.name)
    if (toks.length === 1 && !GENERIC_NAME_WORDS.has(toks[0] ?? '')) add(toks[0] ?? '', n.id, NAME_PHRASE_WEIGHT)
    else if (toks.length > 1) {
      add(toks.join(' '), n.id, NAME_PHRASE_WEIGHT)
      for (const t of toks) if (!GENERIC_NAME_WORDS.has(t)) add(t, n.id, NAME_WORD_WEIGHT)
    }
  }
  for (const part of VOCABULARY_PARTS) {
    for (const [uid, list] of Object.entries(part)) {
      const node = mustGet(uid)
      for (const e of parseEntries(list)) add(contentTokens(e.term).join(' '), node.id, e.weight)
    }
  }
  // A word of another language that is also an English term keeps its English meaning.
  const english = new Set(raw.keys())
  for (const part of extra) {
    for (const [uid, list] of Object.entries(part)) {
      const node = mustGet(uid)
      for (const e of parseEntries(list)) {
        const key = contentTokens(e.term).join(' ')
        if (!english.has(key)) add(key, node.id, e.weight)
      }
    }
  }

  const postings: KeywordModel['postings'] = new Map()
  const phraseStarts = new Set<string>()
  let maxPhraseLength = 1
  for (const [key, byNode] of raw) {
    // A term that is evidence for several topics is weaker evidence for each, in proportion to how
    // strongly each topic claims it: "sport" stays strong for Sports though "Sports Video Games" exists.
    const perRoot = new Map<number, number>()
    for (const [id, w] of byNode) {
      const r = roots.get(id) ?? id
      if (r !== sensitive.id) perRoot.set(r, Math.max(perRoot.get(r) ?? 0, w))
    }
    const claim = [...perRoot.values()].reduce((a, b) => a + b, 0)
    const propagated = new Map<number, number>()
    for (const [id, w] of byNode) {
      const r = roots.get(id) ?? id
      const eff = r === sensitive.id ? w : w * Math.sqrt((perRoot.get(r) ?? w) / claim)
      // An ancestor takes the strongest evidence among its descendants, so nested lists never double count.
      for (const a of ancestry(id)) propagated.set(a.id, Math.max(propagated.get(a.id) ?? 0, eff))
    }
    postings.set(key, { ids: [...propagated.keys()], weights: [...propagated.values()] })
    const parts = key.split(' ')
    if (parts.length > 1) {
      phraseStarts.add(parts[0] ?? '')
      maxPhraseLength = Math.max(maxPhraseLength, parts.length)
    }
  }
  const topicalRoots = new Set(
    allNodes()
      .filter((n) => n.tier === 1 && n.id !== genres.id && n.id !== sensitive.id)
      .map((n) => n.id),
  )
  return { postings, phraseStarts, maxPhraseLength, topicalRoots, sensitiveRoot: sensitive.id }
}

function mustGet(uid: string): TaxonomyNode {
  const n = getNodeByUniqueId(uid)
  if (!n) throw new Error(`vocabulary names unknown IAB Unique ID ${uid}`)
  return n
}

const cached = new Map<string, KeywordModel>()

/** The language whose lists a page reads: its own when vocab/european.ts has it, else English. */
export function modelLanguage(language?: string): 'en' | keyof typeof EUROPEAN {
  return language && Object.hasOwn(EUROPEAN, language) ? (language as keyof typeof EUROPEAN) : 'en'
}
/**
 * The model for a page language: English pages (and pages of unknown language) read the English
 * lists only; a page in one of the languages of vocab/european.ts reads its language's words too,
 * so no English page ever gains evidence from another language's list.
 */
export function model(language?: string): KeywordModel {
  const lang = modelLanguage(language)
  let m = cached.get(lang)
  if (!m) {
    m = buildModel(lang === 'en' ? [] : [EUROPEAN[lang]])
    cached.set(lang, m)
  }
  return m
}
