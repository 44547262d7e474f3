/**
 * Ranks signals against a signal_spec with the curation classifier (docs/taxonomy-and-classification.md):
 * the spec is mapped to scored taxonomy categories, and each signal scores by
 *  - category fit (weight 0.75): the spec's category scores, carried to the signal's category —
 *    in full for the same category, 0.8 for an ancestor (a broader segment containing it), 0.55 for
 *    a descendant (a narrower one), halved per further tier;
 *  - text fit (weight 0.25): similarity of the spec and the signal's name and description (this is
 *    what places seasonal segments and signals whose category the spec does not name);
 * plus 0.05 for a seasonal segment whose window is open. Coverage breaks ties.
 */

import type { Embedding, QueryRepresentation, ScoredCategory } from '../content/classify/index.ts'
import { embedQuery, representQuery, similarity } from '../content/classify/index.ts'
import { fold } from '../content/classify/text.ts'
import { ancestry } from '../content/taxonomy/taxonomy.ts'
import { type Exclusions, narrowedBy } from '../content/topics/interpret-prompt.ts'
import { escapeRegExp } from '../platform/regexp.ts'

export interface Rankable {
  id: string
  /** owned and custom signals carry the client's own prompt as their text (catalog/list.ts, custom.ts) */
  type?: 'marketplace' | 'owned' | 'custom'
  name: string
  description: string
  taxonomy_id: number | null
  coverage_percentage: number
  window_active?: boolean
}

export interface Ranked<T> {
  item: T
  score: number
}

const weights = { category: 0.75, text: 0.25, window: 0.05 } as const
/** Below this a signal is not offered for the spec at all. */
export const minRelevance = 0.08

const embeddings = new Map<string, Embedding>()
function embedText(text: string): Embedding {
  let e = embeddings.get(text)
  if (!e) {
    // Large enough for a catalog of tens of thousands of signals: a smaller one would thrash.
    if (embeddings.size >= 50_000) embeddings.delete(embeddings.keys().next().value!)
    e = embedQuery(text)
    embeddings.set(text, e)
  }
  return e
}

/** How much a signal of category `own` serves content of category `wanted` (0..1). */
export function categoryAffinity(own: number, wanted: number): number {
  if (own === wanted) return 1
  const up = tiersAbove(own, wanted)
  if (up > 0) return 0.8 * 0.5 ** (up - 1)
  const down = tiersAbove(wanted, own)
  if (down > 0) return 0.55 * 0.5 ** (down - 1)
  return 0
}

/** How many tiers `ancestor` sits above `node` (0 when it is not one of its ancestors). */
function tiersAbove(ancestor: number, node: number): number {
  const chain = ancestry(node) // root first, the node itself last
  const i = chain.findIndex((n) => n.id === ancestor)
  return i < 0 ? 0 : chain.length - 1 - i
}

/** The spec's category fit for a signal's category (memoized per ranking: many signals share a category). */
function categoryFit(rep: QueryRepresentation, taxonomyId: number, memo?: Map<number, number>): number {
  const known = memo?.get(taxonomyId)
  if (known !== undefined) return known
  let category = 0
  for (const c of rep.categories) category = Math.max(category, c.score * categoryAffinity(taxonomyId, c.id))
  memo?.set(taxonomyId, category)
  return category
}

/** What a spec's embedding holds, as sets: a signal sharing none of it has a text similarity of 0. */
interface SpecKeys {
  concepts: Set<number>
  terms: Set<string>
}
const keysOf = (e: Embedding): SpecKeys => ({ concepts: new Set(e.concepts.map(([id]) => id)), terms: new Set(e.terms.map(([t]) => t)) })
const overlaps = (k: SpecKeys, e: Embedding) => e.concepts.some(([id]) => k.concepts.has(id)) || e.terms.some(([t]) => k.terms.has(t))

export function relevance(rep: QueryRepresentation, item: Rankable, memo?: Map<number, number>, keys: SpecKeys = keysOf(rep.embedding)): number {
  const category = item.taxonomy_id === null ? 0 : categoryFit(rep, item.taxonomy_id, memo)
  const e = embedText(`${item.name}. ${item.description}`)
  // Both are cosines of sparse vectors: nothing shared, nothing to compute (most of a large catalog).
  const text = overlaps(keys, e) ? similarity(rep.embedding, e) : 0
  return weights.category * Math.min(1, category) + weights.text * text + (item.window_active ? weights.window : 0)
}

/**
 * A brief as ranking reads it: its topic's representation (null without one), its categories narrowed
 * by the ones its negated phrases name, and the categories those block.
 */
export function representBrief(topic: string | null, excluded: readonly ScoredCategory[]): { rep: QueryRepresentation | null; blocked: Set<number> } {
  const read = topic ? representQuery(topic) : null
  const narrowed = narrowedBy(excluded, read?.categories ?? [])
  return { rep: read ? { ...read, categories: narrowed.categories } : null, blocked: new Set(narrowed.blocked.map((c) => c.id)) }
}

/** What a spec excludes (readSpec): the categories its negated phrases name, and the phrases. */
export type Excluded = Pick<Exclusions, 'named' | 'terms'>
const NOTHING_EXCLUDED: Excluded = { named: [], terms: [] }

/**
 * Best first. Without a spec, every item scores 0 and coverage orders them. What the spec excludes is
 * left out, as a segment prompt's exclusions leave pages out: the signals of the categories it blocks
 * (narrowedBy: never the spec's own topic, whose categories under them no longer count), and those
 * whose name or description holds an excluded phrase ("Super Bowl: NFL American football…"; diacritics
 * aside, as the phrases are read).
 */
export function rankSignals<T extends Rankable>(spec: string | null, items: readonly T[], excluded: Excluded = NOTHING_EXCLUDED): Ranked<T>[] {
  const { rep, blocked } = representBrief(spec, excluded.named)
  const phrases = excluded.terms.map((t) => new RegExp(`(?<![\\p{L}\\p{N}])${t.split(' ').map(escapeRegExp).join('[^\\p{L}\\p{N}]+')}(?![\\p{L}\\p{N}])`, 'iu'))
  // Per category, since a catalog's signals share few.
  const underBlocked = new Map<number, boolean>()
  const isUnder = (id: number): boolean => {
    let under = underBlocked.get(id)
    if (under === undefined) underBlocked.set(id, (under = ancestry(id).some((n) => blocked.has(n.id))))
    return under
  }
  // A client's own signal names its prompt, exclusions and all: its text excludes it from nothing.
  const namesExcluded = (item: T): boolean =>
    item.type !== 'owned' && item.type !== 'custom' && phrases.some((re) => re.test(fold(item.name)) || re.test(fold(item.description)))
  const isBlocked = (item: T): boolean => (item.taxonomy_id !== null && blocked.size > 0 && isUnder(item.taxonomy_id)) || namesExcluded(item)
  const memo = new Map<number, number>()
  const keys = rep ? keysOf(rep.embedding) : null
  const kept = blocked.size || phrases.length ? items.filter((item) => !isBlocked(item)) : items
  const ranked = kept.map((item) => ({ item, score: rep && keys ? round(relevance(rep, item, memo, keys)) : 0 }))
  return ranked.sort((a, b) => b.score - a.score || b.item.coverage_percentage - a.item.coverage_percentage || (a.item.id < b.item.id ? -1 : 1))
}

const round = (x: number): number => Math.round(x * 10000) / 10000
