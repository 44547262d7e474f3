// Classification against corpora: the shared crawler list (fixtures/bots/crawler-user-agents, MIT)
// and generated browser UAs (browsers.ts). The crawler list is split in two by a hash of each
// entry's pattern; both halves are held to the bar, and the figures are printed for BENCHMARKS.md.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { CrawlerEntry } from '../../../scripts/build-agents.ts'
import { CRAWLERS_PATH } from '../../../scripts/build-agents.ts'
import { classifyUserAgent } from '../../../src/pixel/agents/classify.ts'
import { looksAutomated } from '../../../src/pixel/agents/structure.ts'
import { browserUserAgents } from './browsers.ts'
import { HUMAN_UAS } from './fixtures.ts'

const entries = (JSON.parse(readFileSync(CRAWLERS_PATH, 'utf8')) as CrawlerEntry[]).filter((e) => e.instances.length > 0)

function fnv1a(s: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193)
  return h >>> 0
}

const share = (uas: string[], bot: (ua: string) => boolean): number => uas.filter(bot).length / uas.length
const isBot = (ua: string): boolean => classifyUserAgent(ua).type !== 'human'

describe('the crawler list (fixtures/bots/crawler-user-agents)', () => {
  const all = entries.flatMap((e) => e.instances)
  const halves = [0, 1].map((h) => entries.filter((e) => fnv1a(e.pattern) % 2 === h).flatMap((e) => e.instances))

  it('flags at least 97% of its instances as non-human, on the whole list and on each half', () => {
    const figures = { all: share(all, isBot), half0: share(halves[0]!, isBot), half1: share(halves[1]!, isBot), structureOnly: share(all, looksAutomated) }
    console.log(`crawler list: ${all.length} instances; non-human ${JSON.stringify(figures)}`)
    expect(figures.all).toBeGreaterThanOrEqual(0.97)
    expect(figures.half0).toBeGreaterThanOrEqual(0.97)
    expect(figures.half1).toBeGreaterThanOrEqual(0.97)
    // The structural layer alone, with no names at all, still flags most of the list.
    expect(figures.structureOnly).toBeGreaterThanOrEqual(0.9)
  })

  it('flags the entries whose names are not imported (all but search engines and AI crawlers) as well', () => {
    const notImported = entries.filter((e) => !e.tags.includes('search-engine') && !e.tags.includes('ai-crawler')).flatMap((e) => e.instances)
    const figures = { count: notImported.length, nonHuman: share(notImported, isBot), structureOnly: share(notImported, looksAutomated) }
    console.log(`crawler list, entries not imported: ${JSON.stringify(figures)}`)
    expect(figures.nonHuman).toBeGreaterThanOrEqual(0.97)
  })

  // Types follow the list's tags wherever it has them (docs/agents.md, "Types"): no exceptions.
  const typed = (tag: string, ok: (t: string) => boolean) =>
    entries.filter((e) => e.tags.includes(tag)).flatMap((e) => e.instances.map((ua) => [e.pattern, ua, ok] as const))
  const llm = (t: string) => t === 'llm_training' || t === 'llm_retrieval'

  it.each(typed('ai-crawler', llm))('AI crawler %s: %s', (_p, ua, ok) => {
    expect(ok(classifyUserAgent(ua).type)).toBe(true)
  })
  it.each(
    entries.filter((e) => e.tags.includes('search-engine') && !e.tags.includes('ai-crawler')).flatMap((e) => e.instances.map((ua) => [e.pattern, ua] as const)),
  )('search engine %s: %s', (_p, ua) => {
    expect(classifyUserAgent(ua).type).toBe('search')
  })
})

describe('generated browser user agents (browsers.ts)', () => {
  const browsers = [...browserUserAgents(), ...HUMAN_UAS]
  it('are many and varied', () => expect(browsers.length).toBeGreaterThan(3000))
  it('none is classified as an agent', () => {
    const flagged = browsers.filter(isBot).map((ua) => `${classifyUserAgent(ua).agent}: ${ua}`)
    expect(flagged).toEqual([])
  })
})
