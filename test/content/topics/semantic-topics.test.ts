// Topics from a page's sentence vector (the real encoder and the shipped semantic-topics.json): they join
// the learned model's, so a page whose words the model reads as another topic is read by its meaning.
import { afterAll, describe, expect, it } from 'vitest'
import { classifyPage } from '../../../src/content/classify/classify-page.ts'
import { childProcessEncoder } from '../../../src/content/semantic/encoder.ts'
import { SEMANTIC_DIMENSIONS, semanticInput } from '../../../src/content/semantic/vectors.ts'
import { getNode } from '../../../src/content/taxonomy/taxonomy.ts'
import { semanticTopicLogits } from '../../../src/content/topics/semantic-topics.ts'
import { topicModel } from '../../../src/content/topics/topic-model.ts'

const tier1Name = (categories: readonly { id: number }[]): string | undefined => categories.map((c) => getNode(c.id)).find((n) => n?.tier === 1)?.name

describe('topics from sentence vectors', () => {
  const encoder = childProcessEncoder({ timeoutMs: 60_000 })
  afterAll(() => encoder.close())

  // Law and Video Gaming: topics no training corpus covers, which the learned model knows from its vocabulary alone.
  const pages = [
    {
      topic: 'Law',
      title: 'Jury finds carmaker liable for defective brakes',
      text: 'After a three-week trial the jury awarded $30 million in damages to the injured driver. The manufacturer said it would appeal the verdict to the state supreme court, arguing that the judge had wrongly excluded its expert witness.',
    },
    {
      topic: 'Video Gaming',
      title: 'The open-world sequel was worth the wait',
      text: 'Dozens of hours of side quests, a sprawling map and boss fights that test your reflexes; the online co-op mode was unstable at launch but a patch has fixed most crashes.',
    },
  ]

  it('reads a page by its meaning when its words point elsewhere', async () => {
    const vectors = await encoder.encode(pages.map((p) => semanticInput(p.title, p.text)))
    for (const [i, p] of pages.entries()) {
      const withVector = classifyPage({ title: p.title, text: p.text, semantic: vectors[i] })
      expect(tier1Name(withVector.categories)).toBe(p.topic)
      // The words alone read it otherwise, or less surely.
      const words = classifyPage({ title: p.title, text: p.text })
      const score = (c: typeof words) => c.categories.find((x) => getNode(x.id)?.name === p.topic)?.score ?? 0
      expect(score(withVector)).toBeGreaterThan(score(words) + 0.2)
    }
  })

  it('adds nothing for an empty or malformed vector', () => {
    const K = topicModel().classIds.length
    expect([...semanticTopicLogits(new Int8Array(SEMANTIC_DIMENSIONS))]).toEqual(new Array(K).fill(0))
    expect([...semanticTopicLogits(new Int8Array(0))]).toEqual(new Array(K).fill(0))
    expect([...semanticTopicLogits(new Int8Array(3).fill(5))]).toEqual(new Array(K).fill(0))
  })

  it('gives every topic a finite score, and a vector favouring none changes little', () => {
    // A vector with the same value everywhere points at no topic in particular.
    const flat = semanticTopicLogits(new Int8Array(SEMANTIC_DIMENSIONS).fill(1))
    for (const x of flat) expect(Number.isFinite(x)).toBe(true)
  })
})
