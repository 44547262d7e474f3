// Sentence vectors in the background: English pages with text get the encoder's vector of their title
// and lead, others an empty mark; the job resumes where it stopped, and a page whose text changes is
// read again; a page is classified again with its vector. The real encoder runs in its own process.
import { afterAll, expect, it } from 'vitest'
import { childProcessEncoder } from '../../../src/content/semantic/encoder.ts'
import { SEMANTIC_DIMENSIONS, semanticCosine, vectorOf } from '../../../src/content/semantic/vectors.ts'
import { ancestry } from '../../../src/content/taxonomy/taxonomy.ts'
import { CLASSIFIER_VERSION } from '../../../src/content/topics/topic-model.ts'
import type { Queryable } from '../../../src/platform/db/db.ts'
import { reclassifyBatch } from '../../../src/scraping/index/reclassify.ts'
import { semanticBatch, semanticProgress } from '../../../src/scraping/index/semantic-vectors.ts'
import { articleHtml, indexHtml, indexTopic, topicPage } from '../../curation/fixtures.ts'
import { describeEachEngine } from '../../helpers/db.ts'

const encoder = childProcessEncoder({ timeoutMs: 60_000 })
afterAll(() => encoder.close())

describeEachEngine('sentence vectors of indexed pages', (getDb) => {
  it('reads English pages in resumable batches, marks the others, and reads a page again when its text changes', async () => {
    const db = getDb().db
    const save = <T>(fn: (tx: Queryable) => Promise<T>) => db.transaction(fn)
    const sports = await indexTopic(db, 'sports', ['https://semantic1.example.com/a', 'https://semantic2.example.com/b'], 40)
    const [cooking] = await indexTopic(db, 'cooking', ['https://semantic3.example.com/c'], 41)
    const german = await indexHtml(
      db,
      'https://semantic4.example.de/d',
      articleHtml({
        title: 'Bundesliga',
        paragraphs: Array.from({ length: 12 }, () => 'Der Verein gewann das Spiel vor vollem Stadion und feierte den Sieg.'),
      }).replace('lang="en"', 'lang="de"'),
    )
    const failed = await indexHtml(db, 'https://semantic5.example.com/e', null, { status: 500, error: { code: 'E002', reason: 'HTTP 500' } })
    const before = await semanticProgress(db)
    expect(before.remaining).toBeGreaterThanOrEqual(5)

    expect(await semanticBatch(db, encoder, save, 2)).toBe(2)
    expect((await semanticProgress(db)).remaining).toBe(before.remaining - 2)
    while ((await semanticBatch(db, encoder, save, 2)) > 0);
    expect(await semanticProgress(db)).toEqual({ remaining: 0 })

    const stored = async (id: number) =>
      (await db.query<{ semantic: Uint8Array | null }>(`SELECT semantic FROM pages WHERE id = $1`, [id])).rows[0]?.semantic ?? null
    const [a, b, c] = [vectorOf(await stored(sports[0]!)), vectorOf(await stored(sports[1]!)), vectorOf(await stored(cooking!))]
    expect(a).toHaveLength(SEMANTIC_DIMENSIONS)
    // Two match reports are closer to each other than to a recipe.
    expect(semanticCosine(a!, b!)).toBeGreaterThan(semanticCosine(a!, c!))
    // Another language and a failed fetch: marked, not read, and not picked up again.
    for (const id of [german, failed]) expect((await stored(id))?.length).toBe(0)

    // Fetched again with the same text, a page keeps its vector; with new text it is read again.
    await indexHtml(db, 'https://semantic1.example.com/a', topicPage('sports', 40))
    expect(vectorOf(await stored(sports[0]!))).toEqual(a)
    await indexHtml(db, 'https://semantic1.example.com/a', topicPage('cooking', 42))
    expect(await stored(sports[0]!)).toBeNull()
    expect(await semanticBatch(db, encoder, save)).toBe(1)
    expect(semanticCosine(vectorOf(await stored(sports[0]!))!, c!)).toBeGreaterThan(semanticCosine(a!, c!))
  })

  it('classifies a page again with its vector, keeps that reading while the text stays, and reclassification reads the vector too', async () => {
    const db = getDb().db
    const save = <T>(fn: (tx: Queryable) => Promise<T>) => db.transaction(fn)
    // Words the learned model reads as no topic in particular; its sentence vector reads a video game review.
    const html = articleHtml({
      title: 'The open-world sequel was worth the wait',
      paragraphs: [
        'Dozens of hours of side quests, a sprawling map and boss fights that test your reflexes; the online co-op mode was unstable at launch but a patch has fixed most crashes.',
        'The story picks up where the first one left off, and the new companions have more to say. Expect to lose whole weekends to it.',
        'Our verdict after forty hours: the best of the series so far, if you can forgive a slow opening chapter and some clumsy menus.',
      ],
    })
    const id = await indexHtml(db, 'https://semantic6.example.com/review', html)
    const reading = async () =>
      (
        await db.query<{ first: number | null; version: number; indexed: number[] }>(
          `SELECT (categories->0->>'id')::int AS first, classifier_version AS version,
                  ARRAY(SELECT taxonomy_id FROM page_categories WHERE page_id = p.id ORDER BY score DESC) AS indexed
             FROM pages p WHERE id = $1`,
          [id],
        )
      ).rows[0]!
    const before = await reading()
    while ((await semanticBatch(db, encoder, save)) > 0);
    const after = await reading()
    const VIDEO_GAMING = 680
    expect(before.first === null ? null : ancestry(before.first)[0]?.id).not.toBe(VIDEO_GAMING)
    expect(ancestry(after.first ?? -1)[0]?.id).toBe(VIDEO_GAMING)
    expect(after.version).toBe(CLASSIFIER_VERSION)
    // The category index (candidate generation) follows the page's categories.
    expect(after.indexed[0]).toBe(after.first)

    // Fetched again with the same text: the reading with the vector stays.
    await indexHtml(db, 'https://semantic6.example.com/review', html)
    expect(await reading()).toEqual(after)

    // After a classifier upgrade, reclassification reads the stored vector.
    await db.query(`UPDATE pages SET classifier_version = 1, categories = '[]'::jsonb WHERE id = $1`, [id])
    while ((await db.transaction((tx) => reclassifyBatch(tx))) > 0);
    expect(await reading()).toEqual(after)
  })
})
