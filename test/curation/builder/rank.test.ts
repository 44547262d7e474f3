import { describe, expect, it } from 'vitest'
import { interpretPrompt } from '../../../src/content/topics/interpret-prompt.ts'
import { topicCertainty } from '../../../src/content/topics/relevance.ts'
import { searchedOnce, searchesAllWords } from '../../../src/curation/builder/rank.ts'

describe('which prompt words are searched as text', () => {
  const many = 5000

  it('searches only the rare words of a prompt sure of its topic, when its categories hold enough pages', () => {
    const intent = interpretPrompt('basketball fans following the NBA season')
    expect(topicCertainty(intent)).toBeGreaterThan(0.5)
    expect(searchesAllWords(intent, many)).toBe(false)
  })

  // Its words name no topic with even odds (Business and Finance at about 0.2, from "aircraft"): the
  // pages that use its words are what it asks for, whatever category holds them.
  it('searches all the words of a prompt unsure of its topic, however many category candidates there are', () => {
    const intent = interpretPrompt('trains, ships and aircraft')
    expect(topicCertainty(intent)).toBeLessThan(0.5)
    expect(searchesAllWords(intent, many)).toBe(true)
  })

  it('searches all the words when the categories find few pages, or there is no topic at all', () => {
    expect(searchesAllWords(interpretPrompt('basketball fans following the NBA season'), 10)).toBe(true)
    expect(searchesAllWords({ categories: [] }, many)).toBe(true)
    expect(searchesAllWords(null, 0)).toBe(false)
  })
})

describe('the terms searched as text', () => {
  // "car" and "caring" are both searched as the prefix "car": counted once in a page's share of the terms.
  it('keeps one term for each prefix searched', () => {
    expect(searchedOnce(['car', 'caring', 'hiking', 'zorblatt'])).toEqual(['car', 'hiking', 'zorblatt'])
  })
})
