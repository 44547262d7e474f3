// Term associations learned from the index: words found on the same pages expand prompt words the
// topic model never saw.
import { describe, expect, it } from 'vitest'
import { CLASSIFIER_VERSION } from '../../src/content/topics/topic-model.ts'
import { expansionsFor, learnAssociations, refreshAssociations } from '../../src/curation/builder/associations.ts'
import { readPrompt } from '../../src/curation/segments/repository.ts'
import { describeEachEngine } from '../helpers/db.ts'

const page = (...terms: string[]): [string, number][] => terms.map((t, i) => [t, 3 - i * 0.1])

describe('learnAssociations', () => {
  it('pairs words that share pages far more than chance, and not words that are everywhere', () => {
    const pages = [
      ...Array.from({ length: 8 }, (_, i) => page('zorbix', 'container', 'cluster', `filler${i}`, 'common')),
      ...Array.from({ length: 40 }, (_, i) => page('recipe', 'oven', `other${i % 7}`, 'common')),
    ]
    const learned = learnAssociations(pages)
    expect(learned.get('zorbix')?.map((x) => x.related)).toEqual(expect.arrayContaining(['container', 'cluster']))
    expect(learned.get('zorbix')?.map((x) => x.related)).not.toContain('common')
    expect(learned.get('zorbix')?.map((x) => x.related)).not.toContain('recipe')
  })

  it('learns nothing from an empty index', () => {
    expect(learnAssociations([]).size).toBe(0)
  })
})

describeEachEngine('term associations in the index', (getDb) => {
  it('are learned from indexed pages and expand an unknown prompt word in the interpretation', async () => {
    const db = getDb().db
    const now = new Date('2026-11-22T10:00:00Z')
    // Pages 12–17 are still read by an older classifier (an upgrade's reclassification has not reached
    // them): their terms come from an older stemmer and teach nothing.
    for (let i = 0; i < 18; i++) {
      const terms = i < 8 ? page('zorbix', 'container', 'cluster', `f${i}`) : i < 12 ? page('recipe', 'oven', `g${i}`) : page('qwerty', 'legacy', `h${i}`)
      await db.query(`INSERT INTO pages (url, host, tld, state, requested_at, embedding, classifier_version) VALUES ($1, $2, $3, 'done', $4, $5::jsonb, $6)`, [
        `https://a${i}.example.com/p`,
        `a${i}.example.com`,
        `a${i}.example.com`,
        now,
        JSON.stringify({ concepts: [], terms, confidence: 0.5 }),
        i < 12 ? CLASSIFIER_VERSION : 1,
      ])
    }
    const n = await refreshAssociations(db, (fn) => db.transaction(fn))
    expect(n).toBeGreaterThan(0)
    expect(await expansionsFor(db, ['zorbix'])).toEqual(expect.arrayContaining(['container', 'cluster']))
    expect(await expansionsFor(db, ['qwerty'])).toEqual([])
    const read = (await readPrompt(db, 'zorbix')).interpretation
    expect(read.terms).toEqual(['zorbix'])
    expect(read.expansions).toEqual(expect.arrayContaining(['container', 'cluster']))
  })
})
