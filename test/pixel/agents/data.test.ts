import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { CrawlerEntry } from '../../../scripts/build-agents.ts'
import { buildAgents, CRAWLERS_PATH, formatAgents, ROBOTS_PATH } from '../../../scripts/build-agents.ts'
import shippedAgents from '../../../src/pixel/agents/agents.json' with { type: 'json' }
import shippedRanges from '../../../src/pixel/agents/ip-ranges.json' with { type: 'json' }
import type { AgentsDocument } from '../../../src/pixel/agents/schema.ts'
import { AGENT_TYPES, validateAgents } from '../../../src/pixel/agents/schema.ts'

const doc = shippedAgents as AgentsDocument
const agents = doc.agents

describe('agents.json invariants', () => {
  it('passes validation', () => expect(() => validateAgents(doc)).not.toThrow())
  it('has at least 150 agents', () => expect(agents.length).toBeGreaterThanOrEqual(150))
  it('has unique names (case-insensitive)', () => {
    const names = agents.map((a) => a.name.toLowerCase())
    expect(new Set(names).size).toBe(names.length)
  })
  it('uses only the four types, each of them', () => {
    for (const a of agents) expect(AGENT_TYPES).toContain(a.type)
    for (const t of AGENT_TYPES) expect(agents.some((a) => a.type === t)).toBe(true)
  })
  it('no token is claimed by two agents', () => {
    const owner = new Map<string, string>()
    for (const a of agents)
      for (const t of a.tokens) {
        const k = t.toLowerCase()
        expect(owner.get(k) ?? a.name, `${t} in ${a.name} and ${owner.get(k)}`).toBe(a.name)
        owner.set(k, a.name)
      }
  })
  it('every verify key names a list or an operator of ip-ranges.json', () => {
    const lists = Object.entries(shippedRanges.lists)
    const keys = new Set([...lists.map(([k]) => k), ...lists.map(([, l]) => l.operator.toLowerCase())])
    for (const a of agents) if (a.verify) expect(keys, a.name).toContain(a.verify.ranges_key.toLowerCase())
  })
  it('credits ai.robots.txt and crawler-user-agents (MIT)', () => {
    expect(doc.attribution).toContainEqual(expect.objectContaining({ license: 'MIT', url: expect.stringContaining('ai.robots.txt') }))
    expect(doc.attribution).toContainEqual(expect.objectContaining({ license: 'MIT', url: expect.stringContaining('crawler-user-agents') }))
  })
  it('verifies the operators that publish lists, and lists robots-only tokens', () => {
    const by = new Map(agents.map((a) => [a.name, a]))
    for (const n of ['Googlebot', 'bingbot', 'GPTBot', 'ChatGPT-User', 'OAI-SearchBot', 'PerplexityBot', 'Applebot', 'DuckDuckBot', 'CCBot']) {
      expect(by.get(n)?.verify, n).toBeDefined()
    }
    for (const n of ['Google-Extended', 'Applebot-Extended']) expect(by.get(n)?.robots_only).toBe(true)
    for (const n of ['Bytespider', 'Perplexity-User', 'meta-externalfetcher', 'DeepSeekBot']) expect(by.get(n)?.ignores_robots).toBe(true)
  })
})

describe('agents.json against the ai.robots.txt list (fixtures/bots)', () => {
  const robots = JSON.parse(readFileSync(ROBOTS_PATH, 'utf8')) as Record<string, never>
  it('covers every one of its agents (as a name or a token)', () => {
    const known = new Set(agents.flatMap((a) => [a.name, ...a.tokens]))
    for (const key of Object.keys(robots)) expect(known, key).toContain(key)
  })
  it('is exactly what scripts/build-agents.ts generates', () => {
    const crawlers = JSON.parse(readFileSync(CRAWLERS_PATH, 'utf8')) as CrawlerEntry[]
    const generated = formatAgents(buildAgents(robots, crawlers))
    expect(JSON.parse(generated)).toEqual(doc)
  })
})
