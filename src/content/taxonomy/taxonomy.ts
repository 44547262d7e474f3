// IAB Tech Lab Content Taxonomy 3.1 (CC BY 3.0, see ATTRIBUTION.md), loaded from the JSON that
// scripts/build-taxonomy.ts generates. `id` is the spec's integer taxonomy_id: the IAB Unique ID
// itself when it is an integer, otherwise a stable synthetic id ≥ 1,000,001 (see the JSON header).
import data from './iab-content-3.1.json' with { type: 'json' }

export interface TaxonomyNode {
  id: number
  /** The IAB Unique ID as published (a string: a few are alphanumeric, e.g. "JLBCU7"). */
  unique_id: string
  parent_id: number | null
  name: string
  tier: 1 | 2 | 3 | 4
  level1_name: string
  level2_name: string | null
  level3_name: string | null
  /** "SCD" (Special Category Data) marks nodes that can reveal sensitive personal traits. */
  extension?: string
}

export const TAXONOMY_NAME = data.taxonomy
/** AdCOM "Category Taxonomies" value for Content Taxonomy 3.1. */
export const CATTAX = data.cattax
export const TAXONOMY_SOURCE = data.source

const nodes: readonly TaxonomyNode[] = Object.freeze(data.nodes.map((n) => Object.freeze(n as TaxonomyNode)))
const byId = new Map<number, TaxonomyNode>()
const byUniqueId = new Map<string, TaxonomyNode>()
const byPath = new Map<string, TaxonomyNode>()
const childrenOf = new Map<number | null, TaxonomyNode[]>()

const pathKey = (names: readonly (string | null | undefined)[]): string =>
  names
    .filter((n): n is string => typeof n === 'string' && n.trim() !== '')
    .map((n) => n.trim().toLowerCase())
    .join('\u0000')

for (const n of nodes) {
  byId.set(n.id, n)
  byUniqueId.set(n.unique_id, n)
  // Tier-4 nodes share their level1..3 path with their parent, so only tiers 1–3 are path-addressable.
  if (n.tier <= 3) byPath.set(pathKey([n.level1_name, n.level2_name, n.level3_name]), n)
  const siblings = childrenOf.get(n.parent_id) ?? []
  siblings.push(n)
  childrenOf.set(n.parent_id, siblings)
}

export function allNodes(): readonly TaxonomyNode[] {
  return nodes
}

export function getNode(id: number): TaxonomyNode | undefined {
  return byId.get(id)
}

export function getNodeByUniqueId(uniqueId: string): TaxonomyNode | undefined {
  return byUniqueId.get(uniqueId)
}

/** Finds the node at a level1 > level2 > level3 path; names compare case-insensitively, trailing levels may be omitted. */
export function findByNames(level1: string, level2?: string | null, level3?: string | null): TaxonomyNode | undefined {
  if (!level1.trim() || (!level2?.trim() && level3?.trim())) return undefined
  return byPath.get(pathKey([level1, level2, level3]))
}

export function children(id: number | null): readonly TaxonomyNode[] {
  return childrenOf.get(id) ?? []
}

export function tier1Nodes(): readonly TaxonomyNode[] {
  return children(null)
}

/** Root-first chain from the tier-1 ancestor down to the node itself. */
export function ancestry(id: number): TaxonomyNode[] {
  const chain: TaxonomyNode[] = []
  for (let n = byId.get(id); n; n = n.parent_id === null ? undefined : byId.get(n.parent_id)) chain.unshift(n)
  return chain
}

export function tier1Of(id: number): TaxonomyNode | undefined {
  return ancestry(id)[0]
}

/** Case-insensitive substring search on names; exact and prefix matches first, then shallower tiers. */
export function searchByName(query: string, limit = 20): TaxonomyNode[] {
  const q = query.trim().toLowerCase()
  if (!q) return []
  const rank = (n: TaxonomyNode): number => {
    const name = n.name.toLowerCase()
    return (name === q ? 0 : name.startsWith(q) ? 1 : 2) * 10 + n.tier
  }
  return nodes
    .filter((n) => n.name.toLowerCase().includes(q))
    .sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name))
    .slice(0, limit)
}
