import { describe, expect, it } from 'vitest'
import { interpretPrompt } from '../../../src/content/topics/interpret-prompt.ts'
import { nearestWords } from '../../../src/content/topics/word-vectors.ts'

describe('nearestWords', () => {
  it('finds related words, best first, above the cosine asked for', () => {
    const near = nearestWords('espresso', 5, 0.3)
    expect(near.map((n) => n.word)).toEqual(expect.arrayContaining(['cappuccino']))
    expect(near.length).toBeLessThanOrEqual(5)
    expect(near.every((n, i) => n.cosine >= 0.3 && (i === 0 || n.cosine <= near[i - 1]!.cosine))).toBe(true)
    expect(near.some((n) => n.word === 'espresso')).toBe(false)
  })

  it('keeps only the words accepted', () => {
    expect(nearestWords('espresso', 5, 0.3, (w) => w.startsWith('c')).every((n) => n.word.startsWith('c'))).toBe(true)
  })

  it('knows nothing of a word without a vector', () => {
    expect(nearestWords('zorblattqx', 5, 0)).toEqual([])
    expect(nearestWords('', 5, 0)).toEqual([])
  })
})

describe('interpretPrompt with word vectors', () => {
  it('reads a word the topic model does not know through its nearest words', () => {
    const r = interpretPrompt('espresso')
    expect(r.interpretation.categories[0]?.name).toBe('Food & Drink')
    expect(r.interpretation.expansions).toEqual(expect.arrayContaining(['coffee']))
  })

  it('leaves prompts the model reads alone', () => {
    const r = interpretPrompt('tennis')
    expect(r.interpretation.expansions).toEqual([])
    expect(r.interpretation.categories[0]?.name).toBe('Sports')
  })
})
