import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import {
  allNodes,
  ancestry,
  CATTAX,
  children,
  findByNames,
  getNode,
  getNodeByUniqueId,
  searchByName,
  TAXONOMY_SOURCE,
  tier1Nodes,
  tier1Of,
} from '../../../src/content/taxonomy/taxonomy.ts'

const sourceTsv = fileURLToPath(new URL('../../../fixtures/iab/Content Taxonomy 3.1.tsv', import.meta.url))

describe('taxonomy data', () => {
  it('has every row of IAB Content Taxonomy 3.1', () => {
    expect(allNodes()).toHaveLength(704)
    const byTier = [1, 2, 3, 4].map((t) => allNodes().filter((n) => n.tier === t).length)
    expect(byTier).toEqual([37, 323, 275, 69])
    expect(CATTAX).toBe(9)
  })

  it('matches the source TSV it was generated from', () => {
    const raw = readFileSync(sourceTsv)
    expect(createHash('sha256').update(raw).digest('hex')).toBe(TAXONOMY_SOURCE.sha256)
    const rows = raw
      .toString('utf8')
      .split(/\r?\n/)
      .slice(2)
      .filter((l) => l.trim() !== '')
    expect(allNodes()).toHaveLength(rows.length)
    const uids = new Set(rows.map((l) => l.split('\t')[0]))
    for (const n of allNodes()) expect(uids.has(n.unique_id)).toBe(true)
  })

  it('has unique integer ids and unique IAB ids', () => {
    const ids = allNodes().map((n) => n.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids.every((id) => Number.isSafeInteger(id) && id > 0)).toBe(true)
    const uids = allNodes().map((n) => n.unique_id)
    expect(new Set(uids).size).toBe(uids.length)
  })

  it('uses the IAB id when it is an integer, a synthetic id above 1,000,000 otherwise', () => {
    for (const n of allNodes()) {
      if (/^\d+$/.test(n.unique_id)) expect(n.id).toBe(Number(n.unique_id))
      else expect(n.id).toBeGreaterThan(1_000_000)
    }
    expect(getNodeByUniqueId('JLBCU7')?.name).toBe('Entertainment')
    expect(getNodeByUniqueId('JLBCU7')?.id).toBeGreaterThan(1_000_000)
  })

  it('keeps parent chains consistent with the tier names', () => {
    for (const n of allNodes()) {
      const chain = ancestry(n.id)
      expect(chain).toHaveLength(n.tier)
      expect(chain.at(-1)).toBe(n)
      expect(chain[0]?.parent_id).toBeNull()
      chain.forEach((a, i) => expect(a.tier).toBe(i + 1))
      expect(n.level1_name).toBe(chain[0]?.name)
      expect(n.level2_name).toBe(chain[1]?.name ?? null)
      expect(n.level3_name).toBe(chain[2]?.name ?? null)
      if (n.parent_id !== null) expect(getNode(n.parent_id)?.tier).toBe(n.tier - 1)
    }
  })

  it('names known nodes as IAB does', () => {
    expect(getNode(483)).toMatchObject({ name: 'Sports', tier: 1, parent_id: null, level1_name: 'Sports', level2_name: null })
    expect(getNode(533)).toMatchObject({ name: 'Soccer', tier: 2, parent_id: 483, level2_name: 'Soccer', level3_name: null })
    expect(getNode(631)).toMatchObject({ name: 'Programming Languages', tier: 3, level1_name: 'Technology & Computing', level2_name: 'Computing' })
    expect(getNode(700)).toMatchObject({ name: 'Thriller', level1_name: 'Genres' })
    const productivity = getNodeByUniqueId('W3CW2J')
    expect(productivity).toMatchObject({ tier: 4, name: 'Productivity', level3_name: 'Computer Software and Applications' })
    // The source names Sports as Horse Racing's Parent but puts it under Equine Sports in the tier path.
    expect(getNode(497)).toMatchObject({ parent_id: 496, tier: 3, level2_name: 'Equine Sports' })
    expect(getNode(286)?.extension).toBe('SCD')
    expect(getNode(483)?.extension).toBeUndefined()
  })
})

describe('taxonomy lookups', () => {
  it('lists the 37 tier-1 categories', () => {
    const names = tier1Nodes().map((n) => n.name)
    expect(names).toHaveLength(37)
    expect(names).toEqual(expect.arrayContaining(['Automotive', 'Sports', 'Travel', 'Sensitive Topics', 'War and Conflicts']))
    expect(tier1Nodes().every((n) => n.tier === 1)).toBe(true)
  })

  it('finds nodes by level names, case-insensitively', () => {
    expect(findByNames('sports')?.id).toBe(483)
    expect(findByNames('SPORTS', 'soccer')?.id).toBe(533)
    expect(findByNames(' Technology & Computing ', 'computing', 'programming languages')?.id).toBe(631)
    expect(findByNames('Sports', 'Cooking')).toBeUndefined()
    expect(findByNames('Sports', null, 'Soccer')).toBeUndefined()
    expect(findByNames('')).toBeUndefined()
  })

  it('returns children and tier-1 ancestors', () => {
    const kids = children(483).map((n) => n.name)
    expect(kids).toContain('Soccer')
    expect(kids).not.toContain('Sports')
    expect(children(533)).toEqual([])
    expect(tier1Of(631)?.name).toBe('Technology & Computing')
    expect(getNode(999_999)).toBeUndefined()
  })

  it('searches names by substring, best matches first', () => {
    const hits = searchByName('soccer')
    expect(hits[0]?.id).toBe(533)
    expect(searchByName('FOOTBALL').map((n) => n.name)).toEqual(expect.arrayContaining(['American Football', 'College Football']))
    expect(searchByName('travel', 3)).toHaveLength(3)
    expect(searchByName('travel')[0]?.name).toBe('Travel')
    expect(searchByName('  ')).toEqual([])
    expect(searchByName('zzzz-not-a-topic')).toEqual([])
  })
})
