// Tier-1 top-1 accuracy on the check split of every labelled topic corpus (scripts/lib/topic-corpora.ts),
// for the shipped classifier and its parts (the ablation of docs/taxonomy-and-classification.md).

import { readFileSync } from 'node:fs'
import { cachedVectors } from '../../scripts/lib/cached-vectors.ts'
import { loadCorpora, writtenItems } from '../../scripts/lib/topic-corpora.ts'
import { analyze } from '../../src/content/classify/analyze.ts'
import { classifyPage, tier1Evidence, tier1Probabilities } from '../../src/content/classify/classify-page.ts'
import { semanticInput } from '../../src/content/semantic/vectors.ts'
import { allNodes, ancestry, getNode, getNodeByUniqueId } from '../../src/content/taxonomy/taxonomy.ts'
import { type CorpusName, TOPIC_ROOT_EXCLUDED } from '../../src/content/topics/classes.ts'
import { interpretPrompt } from '../../src/content/topics/interpret-prompt.ts'

export type Variant = 'shipped' | 'model only' | 'vocabulary only'

/** Share of the items classifyPage classifies at all (the rest would be E007 in the index). */
export type Classified = number

export interface CorpusAccuracy {
  /** a training corpus's check split, or the team-written texts of the topics none covers */
  corpus: CorpusName | 'written'
  items: number
  top1: Record<Variant, number>
  /** shipped, with each item's sentence vector (as a page once index.semantic has read it); null when not measured */
  withVectors: number | null
  classified: Classified
  /** shipped classifier, per expected tier-1 name */
  perClass: Record<string, number>
}

/** Right and total counts per class, and their shares. */
function tally(): { add: (key: string, ok: boolean) => void; shares: () => Record<string, number> } {
  const counts = new Map<string, [number, number]>()
  return {
    add: (key, ok) => {
      const [right, total] = counts.get(key) ?? [0, 0]
      counts.set(key, [right + (ok ? 1 : 0), total + 1])
    },
    shares: () => Object.fromEntries([...counts].map(([k, [right, total]]) => [k, right / total])),
  }
}

function predict(variant: Variant, title: string, body: string, semantic?: Int8Array): number | undefined {
  const a = analyze({ title, body, semantic }, false)
  if (variant === 'shipped') return tier1Probabilities(a)[0]?.id
  return variant === 'model only' ? tier1Probabilities(a, 0)[0]?.id : tier1Evidence(a)[0]?.id
}

/** `vectors`: also measure with sentence vectors (encoded once and cached: scripts/lib/cached-vectors.ts). */
export async function corpusAccuracy(opts: { vectors: boolean }): Promise<CorpusAccuracy[]> {
  const check = loadCorpora().filter((d) => d.split === 'check')
  const rows: CorpusAccuracy[] = []
  for (const corpus of new Set(check.map((d) => d.corpus))) {
    const items = check.filter((d) => d.corpus === corpus)
    rows.push({ corpus, ...accuracyOn(items, opts.vectors ? await vectorsOf(items) : undefined) })
  }
  return rows
}

const vectorsOf = (items: readonly { title: string; body: string }[]): Promise<Int8Array[]> => cachedVectors(items.map((d) => semanticInput(d.title, d.body)))

/**
 * The team-written texts for the 13 topics no corpus maps to (fixtures/topics/written-topics.json): the
 * half no model trains on (the other half trains the sentence-vector topics: writtenItems). How the
 * classifier reads the topics it learned without a corpus.
 */
export async function writtenTopicsAccuracy(): Promise<CorpusAccuracy> {
  const items = writtenItems('check').map((it) => ({ ...it, uids: [it.uid] }))
  return { corpus: 'written', ...accuracyOn(items, await vectorsOf(items)) }
}

function accuracyOn(
  items: readonly { title: string; body: string; uids: readonly string[] }[],
  vectors?: readonly Int8Array[],
): Omit<CorpusAccuracy, 'corpus'> {
  const hits: Record<Variant, number> = { shipped: 0, 'model only': 0, 'vocabulary only': 0 }
  const cls = tally()
  let classified = 0
  let withVectors = 0
  for (const [i, d] of items.entries()) {
    if (classifyPage({ title: d.title, text: d.body }).classified) classified++
    // A class mapped to several topics (class-map.json) is right on any of them.
    const wants = d.uids.map((uid) => ancestry(getNodeByUniqueId(uid)?.id ?? -1)[0]?.id)
    const want = wants[0]
    for (const v of Object.keys(hits) as Variant[]) {
      const predicted = predict(v, d.title, d.body)
      const ok = predicted !== undefined && wants.includes(predicted)
      if (ok) hits[v]++
      if (v === 'shipped') cls.add(want === undefined ? '?' : (getNode(want)?.name ?? '?'), ok)
    }
    const vector = vectors?.[i]
    const predicted = vector ? predict('shipped', d.title, d.body, vector) : undefined
    if (predicted !== undefined && wants.includes(predicted)) withVectors++
  }
  const top1 = Object.fromEntries(Object.entries(hits).map(([k, n]) => [k, n / items.length])) as Record<Variant, number>
  return { items: items.length, top1, withVectors: vectors ? withVectors / items.length : null, classified: classified / items.length, perClass: cls.shares() }
}

/**
 * The British-English news probe (fixtures/topics/uk-news-probe.json): 70 synthetic articles, 14 in each
 * of the five sections of a UK news site, written blind to the classifier (the file's `about`). Each
 * section maps to the tier-1 topics that are right for it.
 */
const PROBE_TOPICS: Record<string, string[]> = {
  politics: ['386'],
  business: ['52'],
  tech: ['596', '680'],
  entertainment: ['JLBCU7', '432', '42', '201'],
  sport: ['483'],
}

/** One line per section: "politics 100.0%, business 78.6% (Personal Finance 2, Automotive 1), …". */
export function describeProbe(r: ProbeAccuracy): string {
  const pct = (x: number): string => `${(x * 100).toFixed(1)}%`
  return Object.entries(r.perClass)
    .map(([k, v]) => {
      const missed = Object.entries(r.misses[k] ?? {}).map(([name, n]) => `${name} ${n}`)
      return `${k} ${pct(v)}${missed.length ? ` (${missed.join(', ')})` : ''}`
    })
    .join(', ')
}

export interface ProbeAccuracy {
  items: number
  top1: number
  perClass: Record<string, number>
  /** section → predicted tier-1 name → count, for the misses */
  misses: Record<string, Record<string, number>>
}

/** `vectors`: each article read with its sentence vector, as a page once index.semantic has read it. */
export async function probeAccuracy(opts = { vectors: false }): Promise<ProbeAccuracy> {
  const path = new URL('../../fixtures/topics/uk-news-probe.json', import.meta.url)
  const { articles } = JSON.parse(readFileSync(path, 'utf8')) as { articles: { class: string; title: string; body: string }[] }
  const vectors = opts.vectors ? await vectorsOf(articles) : []
  const hits = tally()
  const misses: ProbeAccuracy['misses'] = {}
  let right = 0
  for (const [i, a] of articles.entries()) {
    const wants = (PROBE_TOPICS[a.class] ?? []).map((uid) => getNodeByUniqueId(uid)?.id)
    const predicted = predict('shipped', a.title, a.body, vectors[i])
    const ok = predicted !== undefined && wants.includes(predicted)
    if (ok) right++
    else {
      const name = predicted === undefined ? 'none' : (getNode(predicted)?.name ?? '?')
      const m = (misses[a.class] ??= {})
      m[name] = (m[name] ?? 0) + 1
    }
    hits.add(a.class, ok)
  }
  return {
    items: articles.length,
    top1: right / Math.max(1, articles.length),
    perClass: hits.shares(),
    misses,
  }
}

export interface NamesAsPrompts {
  /** taxonomy nodes below tier 1, outside the roots the topic model leaves out */
  names: number
  /** share whose name, read as a prompt, has the node's tier-1 as its first topic */
  tier1: number
  /** share whose name, read as a prompt, lists the node itself among its categories */
  node: number
  /** names read with no topic at all */
  unread: string[]
}

/**
 * Every taxonomy name below tier 1 read as a prompt ("Beekeeping", "Auto Recalls"): the words a buyer
 * choosing from the taxonomy would type. A self-consistency check of prompt reading, not an accuracy on
 * unseen data (the names are in the vocabulary and the model's prior pseudo-documents).
 */
export function namesAsPrompts(): NamesAsPrompts {
  let names = 0
  let tier1 = 0
  let node = 0
  const unread: string[] = []
  for (const n of allNodes()) {
    const root = ancestry(n.id)[0]
    if (n.tier < 2 || !root || TOPIC_ROOT_EXCLUDED.has(root.unique_id)) continue
    names++
    const categories = interpretPrompt(n.name).interpretation.categories
    if (!categories.length) unread.push(n.name)
    if (categories[0]?.taxonomy_id === root.id) tier1++
    if (categories.some((c) => c.taxonomy_id === n.id)) node++
  }
  return { names, tier1: tier1 / Math.max(1, names), node: node / Math.max(1, names), unread }
}

export interface OtherLanguagePrompts {
  prompts: number
  /** share read in the language they are written in */
  language: number
  /** share whose first topic is the one meant */
  topic: number
  /** per language: [prompts, language right, topic right] */
  byLanguage: Record<string, [number, number, number]>
  /** the prompts whose first topic is not the one meant, with what they read */
  misread: string[]
}

/**
 * Buyer prompts in the other languages the classifier reads, and English prompts holding their words
 * (fixtures/topics/prompts-other-languages.json; prompts-compounds.json: German and Dutch compounds):
 * is each read in its language, and as its topic?
 */
export function otherLanguagePrompts(fixture = 'prompts-other-languages.json'): OtherLanguagePrompts {
  const path = new URL(`../../fixtures/topics/${fixture}`, import.meta.url)
  const { prompts } = JSON.parse(readFileSync(path, 'utf8')) as { prompts: { prompt: string; language: string; topic: string }[] }
  const byLanguage: Record<string, [number, number, number]> = {}
  const misread: string[] = []
  let language = 0
  let topic = 0
  for (const p of prompts) {
    const read = interpretPrompt(p.prompt).interpretation
    const row = (byLanguage[p.language] ??= [0, 0, 0])
    row[0]++
    // Read before the reader knew languages, a prompt has no `language`: English.
    if ((read.language ?? 'en') === p.language) {
      language++
      row[1]++
    }
    const first = read.categories[0]?.name
    if (first === p.topic) {
      topic++
      row[2]++
    } else misread.push(`${p.prompt} → ${first ?? 'no topic'}`)
  }
  return { prompts: prompts.length, language: language / prompts.length, topic: topic / prompts.length, byLanguage, misread }
}

export interface ExclusionPrompts {
  prompts: number
  /** share read right: the topic meant, every excluded word blocked and not asked for, no wanted word blocked */
  right: number
  /** share whose first topic is the one meant */
  topic: number
  /** share whose exclusions are read right (blocks and asks as meant) */
  exclusions: number
  /** the prompts not read right, with what they read */
  misread: string[]
}

/**
 * Buyer prompts with exclusions (fixtures/topics/prompts-with-exclusions.json): is each read as its
 * topic, with what it excludes blocked and what it wants still asked for?
 */
export function exclusionPrompts(): ExclusionPrompts {
  const path = new URL('../../fixtures/topics/prompts-with-exclusions.json', import.meta.url)
  const { prompts } = JSON.parse(readFileSync(path, 'utf8')) as { prompts: { prompt: string; topic: string; blocks: string[]; asks: string[] }[] }
  const misread: string[] = []
  let right = 0
  let topic = 0
  let exclusions = 0
  for (const p of prompts) {
    const read = interpretPrompt(p.prompt).interpretation
    const blocked = new Set(read.blocks.terms.flatMap((t) => t.split(' ')))
    const asked = new Set(read.terms)
    const first = read.categories[0]?.name
    const topicRight = first === p.topic
    const exclusionsRight = p.blocks.every((w) => blocked.has(w) && !asked.has(w)) && !p.asks.some((w) => blocked.has(w))
    if (topicRight) topic++
    if (exclusionsRight) exclusions++
    if (topicRight && exclusionsRight) right++
    else misread.push(`${p.prompt} → ${first ?? 'no topic'}, blocks ${JSON.stringify(read.blocks.terms)}`)
  }
  const n = prompts.length
  return { prompts: n, right: right / n, topic: topic / n, exclusions: exclusions / n, misread }
}
