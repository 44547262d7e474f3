import { describe, expect, it } from 'vitest'
import { analyze } from '../../../src/content/classify/analyze.ts'
import { tier1Probabilities } from '../../../src/content/classify/classify-page.ts'
import { getNode } from '../../../src/content/taxonomy/taxonomy.ts'
import { featureCounts } from '../../../src/content/topics/features.ts'

describe('featureCounts', () => {
  it('reads word pairs within a run, none across a list break', () => {
    const together = featureCounts({ title: [], description: [], body: ['dog', 'cat', 'food'] })
    expect([...together.keys()]).toEqual(['dog', 'dog cat', 'cat', 'cat food', 'food'])
    const apart = featureCounts({ title: [], description: [], body: ['dog', 'cat', 'food'], bodyBreaks: new Set([1]) })
    expect([...apart.keys()]).toEqual(['dog', 'cat', 'cat food', 'food'])
  })
})

describe('analyze with a list', () => {
  const pets = (body: string | string[]): number => tier1Probabilities(analyze({ body })).find((c) => getNode(c.id)?.name === 'Pets')?.score ?? 0

  it('reads the items apart: the same words, no pair between them', () => {
    expect(analyze({ body: ['dogs', 'cats'] }).tokenCount).toBe(2)
    expect(pets(['dogs', 'cats'])).toBeGreaterThan(0.8)
    expect(pets('dogs cats')).toBeLessThan(pets(['dogs', 'cats']))
  })

  it('matches no vocabulary phrase across two items', () => {
    expect(analyze({ body: 'world cup' }).nodeScores.size).toBeGreaterThan(analyze({ body: ['world', 'cup'] }).nodeScores.size)
  })
})
