import { describe, expect, it } from 'vitest'
import { classifyPage, readPage, tier1Probabilities, vocabularyTier1 } from '../../../src/content/classify/classify-page.ts'
import { conceptRoots } from '../../../src/content/classify/embed.ts'
import { categoriesForPrompt, embedPage, embedQuery, promptRelevance, representQuery, similarity } from '../../../src/content/classify/index.ts'
import { getNode, getNodeByUniqueId } from '../../../src/content/taxonomy/taxonomy.ts'
import { corpusTopics } from '../../../src/content/topics/classes.ts'

const sportsPage = embedPage({
  title: 'Liverpool win the derby',
  text: 'Liverpool beat Everton 3-1 at Anfield. The striker scored twice and the goalkeeper saved a penalty; the coach said the league title race is open.',
})
const cookingPage = embedPage({
  title: 'Easy banana bread',
  text: 'Mash three bananas, mix with flour, sugar, butter and eggs, then bake the bread in the oven for an hour. This recipe is a family favourite dessert.',
})
const politicsPage = embedPage({
  title: 'Parliament votes on the budget',
  text: 'Members of parliament voted on the budget after the prime minister won the support of the coalition. The opposition said the election promises were broken.',
})

describe('embeddings', () => {
  it('are compact, sorted and JSON-serialisable', () => {
    const e = sportsPage
    expect(JSON.parse(JSON.stringify(e))).toEqual(e)
    expect(e.concepts.length).toBeLessThanOrEqual(64)
    expect(e.terms.length).toBeLessThanOrEqual(96)
    expect(e.concepts.map((c) => c[0])).toEqual([...e.concepts.map((c) => c[0])].sort((a, b) => a - b))
    expect(e.terms.map((t) => t[0])).toEqual([...e.terms.map((t) => t[0])].sort())
    expect(e.confidence).toBeGreaterThan(0.5)
  })

  it('measure similarity symmetrically, 1 for identical and higher within a topic', () => {
    expect(similarity(sportsPage, sportsPage)).toBeCloseTo(1, 5)
    expect(similarity(sportsPage, cookingPage)).toBeCloseTo(similarity(cookingPage, sportsPage), 10)
    const sportsQuery = embedQuery('football fans who follow the premier league')
    expect(similarity(sportsQuery, sportsPage)).toBeGreaterThan(similarity(sportsQuery, cookingPage))
    expect(similarity(sportsQuery, sportsPage)).toBeGreaterThan(similarity(sportsQuery, politicsPage))
  })

  it('give zero similarity and confidence for text without known words', () => {
    const blank = embedQuery('zzzz qqqq')
    expect(blank.concepts).toEqual([])
    expect(blank.confidence).toBe(0)
    expect(similarity(blank, sportsPage)).toBe(0)
  })
})

describe('prompts', () => {
  const firstTier1 = (prompt: string): string | undefined =>
    categoriesForPrompt(prompt)
      .map((c) => getNode(c.id))
      .find((n) => n?.tier === 1)?.name

  it.each([
    ['home cooks looking for quick dinner recipes', 'Food & Drink'],
    ['people saving for retirement and paying down credit card debt', 'Personal Finance'],
    ['car buyers comparing electric SUVs', 'Automotive'],
    ['runners and gym-goers who care about fitness and nutrition', 'Healthy Living'],
    ['families planning a beach vacation', 'Travel'],
    ['console and PC gamers', 'Video Gaming'],
    ['voters following the election campaign', 'Politics'],
    ['basketball and baseball fans', 'Sports'],
  ])('%s → %s', (prompt, want) => {
    expect(firstTier1(prompt)).toBe(want)
  })

  it('maps a prompt to specific nodes under its tier-1', () => {
    const ids = categoriesForPrompt('software developers learning new programming languages').map((c) => c.id)
    expect(ids[0]).toBe(596)
    expect(ids).toContain(599)
  })

  it('reads a one-word prompt: one strong term names its topic (a page needs two)', () => {
    expect(firstTier1('soccer')).toBe(firstTier1('soccer fans following the league'))
    expect(firstTier1('tennis')).toBe(firstTier1('sports fans following games and transfer news'))
    expect(categoriesForPrompt('things')).toEqual([])
  })

  it('returns nothing for a prompt without topic words', () => {
    expect(categoriesForPrompt('people who are interested in things')).toEqual([])
  })

  it('ranks pages of the prompt topic first', () => {
    const q = representQuery('sports fans following games and transfer news')
    const ranked = [cookingPage, politicsPage, sportsPage].map((p) => promptRelevance(q, p))
    expect(ranked[2]).toBeGreaterThan(ranked[0] ?? 1)
    expect(ranked[2]).toBeGreaterThan(ranked[1] ?? 1)
    const r = promptRelevance(q, sportsPage)
    expect(r).toBeGreaterThan(0)
    expect(r).toBeLessThanOrEqual(1)
  })
})

// A topic no training corpus covers is learned from one-word pseudo-documents only: on a long page the
// model's other words drown it, so the embedding keeps the vocabulary's probability for it.
describe('topics no training corpus covers', () => {
  const page = {
    title: 'Minecraft 1.8 update: what is new for players',
    text:
      'The new Minecraft update is out for PC, Mac and Linux. Mojang says the server software now runs faster, and multiplayer worlds load sooner. ' +
      'Players will find new blocks, a spectator mode and redesigned world generation. The developers fixed hundreds of bugs reported by the community, ' +
      'and the download is free for everyone who owns the game. Console editions will follow later this year.',
  }
  const gaming = getNodeByUniqueId('680')!.id
  const a = readPage(page)
  const model = new Map(tier1Probabilities(a).map((c) => [c.id, c.score]))
  const vocabulary = new Map(vocabularyTier1(a).map((c) => [c.id, c.score]))

  it('keep the vocabulary’s probability in the embedding; the classification stays the classifier’s', () => {
    expect(corpusTopics().has(gaming)).toBe(false)
    expect(vocabulary.get(gaming)!).toBeGreaterThan(model.get(gaming)!)
    const roots = new Map(conceptRoots(a).map((c) => [c.id, c.score]))
    expect(roots.get(gaming)).toBe(vocabulary.get(gaming))
    expect(new Map(embedPage(page).concepts).get(gaming)).toBeCloseTo(vocabulary.get(gaming)!, 3)
    const classified = classifyPage(page).categories
    expect(getNode(classified[0]!.id)?.name).toBe('Technology & Computing')
    expect(classified.find((c) => c.id === gaming)?.score).toBeCloseTo(model.get(gaming)!, 3)
  })

  it('leave the topics a corpus covers as the classifier reads them', () => {
    const roots = conceptRoots(a)
    for (const c of roots) if (corpusTopics().has(c.id)) expect(c.score).toBe(model.get(c.id))
    expect(roots.map((c) => c.score)).toEqual([...roots.map((c) => c.score)].sort((x, y) => y - x))
  })
})
