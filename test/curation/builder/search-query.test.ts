import { expect, it } from 'vitest'
import { stem } from '../../../src/content/classify/text.ts'
import { searchedOnce, searchQuery } from '../../../src/curation/builder/rank.ts'
import { describeEachEngine } from '../../helpers/db.ts'

describeEachEngine('full-text queries of prompt words', (getDb) => {
  // What the builder's text search asks the database, against page text as pages.search indexes it.
  const finds = async (word: string, text: string): Promise<boolean> => {
    const { rows } = await getDb().db.query<{ hit: boolean }>(`SELECT to_tsvector('simple', $2) @@ to_tsquery('simple', $1) AS hit`, [
      searchQuery(stem(word)),
      text,
    ])
    return rows[0]?.hit ?? false
  }

  it('finds a word by its start, so that plurals and other forms are found', async () => {
    expect(await finds('car', 'Two new cars on test')).toBe(true)
    expect(await finds('hiking', 'hikers on the trail')).toBe(true)
  })

  // "uk" as a prefix had found every page about Ukraine for "UK politics", and "ai" every page with "air".
  it('finds a word of two letters only as itself', async () => {
    expect(await finds('UK', 'UK politics this week')).toBe(true)
    expect(await finds('UK', 'The war in Ukraine')).toBe(false)
    expect(await finds('AI', 'Fresh air and AI tools')).toBe(true)
    expect(await finds('AI', 'Fresh air')).toBe(false)
  })

  it('searches each query once', () => {
    expect(searchedOnce(['car', 'caring', 'uk', 'uk']).map(searchQuery)).toEqual(['car:*', 'uk'])
  })
})
