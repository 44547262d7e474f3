// Ranking quality: for every buyer prompt of the labelled set (fixtures/classification), the
// top 3 signals get_signals returns include the IAB segment of the prompt's category, out of a
// catalog holding every IAB tier-1 and tier-2 category plus seasonal segments.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { customProposal } from '../../src/adcp/custom.ts'
import { categoryAffinity, rankSignals } from '../../src/adcp/ranking.ts'
import { readSpec } from '../../src/adcp/read-spec.ts'
import { describeEachEngine } from '../helpers/db.ts'
import type { Agent, SignalsOut } from './helpers.ts'
import { bearer, call, mcpClient, seedTaxonomyCatalog, startAgent } from './helpers.ts'

const file = fileURLToPath(new URL('../../fixtures/classification/prompts.json', import.meta.url))
const prompts = JSON.parse(readFileSync(file, 'utf8')) as { prompt: string; relevant_tier1: string[]; relevant_tier2: string[] }[]

describe('category affinity', () => {
  it('is full for the category, less for a broader one, less again for a narrower one, none elsewhere', () => {
    expect(categoryAffinity(483, 483)).toBe(1)
    expect(categoryAffinity(596, 599)).toBe(0.8) // Technology & Computing serves a Computing brief
    expect(categoryAffinity(599, 596)).toBe(0.55) // Computing serves part of a Technology brief
    expect(categoryAffinity(483, 599)).toBe(0)
  })

  it('orders by coverage when there is no spec', () => {
    const items = [
      { id: 'a', name: 'A', description: '', taxonomy_id: null, coverage_percentage: 1 },
      { id: 'b', name: 'B', description: '', taxonomy_id: null, coverage_percentage: 5 },
    ]
    expect(rankSignals(null, items).map((r) => r.item.id)).toEqual(['b', 'a'])
  })

  it("excludes what a spec excludes, but never the client's own signals for their text: it is their prompt", () => {
    const spec = readSpec('car buyers but no luxury cars')
    const item = (id: string, type: 'marketplace' | 'owned' | 'custom', description: string, taxonomy_id: number | null = 1) => ({
      id,
      type,
      name: id,
      description,
      taxonomy_id,
      coverage_percentage: 1,
    })
    const items = [
      item('owned', 'owned', 'car buyers but no luxury cars'),
      item('custom', 'custom', 'A contextual segment built for this brief: "car buyers but no luxury cars"'),
      item('catalog', 'marketplace', 'Pages about luxury cars and supercars'),
      item('catalog-accents', 'marketplace', 'Pages about LUXURY CÄRS'), // diacritics aside, as the phrase is read
      item('luxury', 'marketplace', 'Pages about Bentley and Rolls-Royce', 23), // Luxury Cars
      item('cars', 'marketplace', 'Pages about cars'),
    ]
    expect(rankSignals(spec.topic, items, spec.excluded).map((r) => r.item.id)).toEqual(expect.arrayContaining(['owned', 'custom', 'cars']))
    expect(rankSignals(spec.topic, items, spec.excluded)).toHaveLength(3)
  })

  it('places a custom proposal on what the brief asks for, not on what it excludes', () => {
    expect(customProposal('car buyers but no luxury cars')?.taxonomy_id).not.toBe(23)
    expect(customProposal('football fans, but not American football')?.taxonomy_id).not.toBe(484)
  })
})

describeEachEngine('get_signals ranking', (getDb) => {
  let agent: Agent
  let client: Client
  beforeAll(async () => {
    agent = await startAgent(getDb().db)
    expect(await seedTaxonomyCatalog(getDb().db)).toBeGreaterThan(300)
    const c = await agent.client()
    client = await mcpClient(agent.mcpUrl, bearer(c.key))
  })
  afterAll(async () => {
    await client?.close()
    await agent?.close()
  })

  it.each(prompts.map((p) => [p.prompt, [...p.relevant_tier1, ...p.relevant_tier2]] as const))(
    'top 3 for "%s" include the IAB segment of its category',
    async (prompt, wanted) => {
      const r = await call<SignalsOut>(client, 'get_signals', { signal_spec: prompt, max_results: 3, filters: { catalog_types: ['marketplace'] } })
      const top = r.signals.map((s) => s.signal_agent_segment_id)
      expect(top.length).toBeLessThanOrEqual(3)
      expect(
        top.some((id) => wanted.some((w) => id === `iab:${w}`)),
        `${prompt} → ${top.join(', ')}`,
      ).toBe(true)
    },
  )

  it('keeps the category segment in the top 3 with the custom proposal in the list', async () => {
    for (const p of prompts) {
      const r = await call<SignalsOut>(client, 'get_signals', { signal_spec: p.prompt, max_results: 3 })
      const top = r.signals.map((s) => s.signal_agent_segment_id)
      expect(
        top.some((id) => [...p.relevant_tier1, ...p.relevant_tier2].some((w) => id === `iab:${w}`)),
        `${p.prompt} → ${top.join(', ')}`,
      ).toBe(true)
      expect(r.signals.filter((s) => s.signal_type === 'custom')).toHaveLength(1)
    }
  })

  it("leaves out the signals of what a brief excludes, never the brief's own topic", async () => {
    const ids = async (signal_spec: string) =>
      (await call<SignalsOut>(client, 'get_signals', { signal_spec, max_results: 100, filters: { catalog_types: ['marketplace'] } })).signals.map(
        (s) => s.signal_agent_segment_id,
      )
    // American Football led this list, read from the excluded words; the Super Bowl segment's
    // description names it.
    // The brief's own deeper topic stays: "not NBA" narrows basketball, it does not exclude it.
    expect((await ids('basketball fans but not NBA')).slice(0, 3)).toContain('iab:547') // Basketball
    const football = await ids('football fans, but not American football')
    expect(football.slice(0, 3)).toContain('iab:533') // Soccer
    expect(football).not.toContain('iab:484')
    expect(football).not.toContain('seasonal:super-bowl:2027')
    const celebrities = await ids('celebrity news but not celebrity deaths')
    expect(celebrities[0]).toBe('iab:432') // Pop Culture: the brief's own topic is never excluded
    expect(celebrities).not.toContain('iab:433')
    const cars = await ids('car buyers, no used cars')
    expect(cars[0]).toBe('iab:1') // Automotive
    const r = await call<SignalsOut>(client, 'get_signals', { signal_spec: 'car buyers, no used cars', max_results: 3 })
    expect(r.message).toMatch(/Excluded: signals about "used cars"/)
  })

  it('places seasonal segments by their description', async () => {
    const r = await call<SignalsOut>(client, 'get_signals', { signal_spec: 'Thanksgiving turkey recipes and family dinners', max_results: 5 })
    expect(r.signals.map((s) => s.signal_agent_segment_id)).toContain('seasonal:thanksgiving:2026')
  })
})
