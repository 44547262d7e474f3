// Background reclassification: pages stored by an older classifier version get new categories and
// embeddings from their stored text, in resumable batches; the others are left alone.
import { expect, it } from 'vitest'
import { CLASSIFIER_VERSION } from '../../../src/content/topics/topic-model.ts'
import { reclassifyBatch, reclassifyProgress } from '../../../src/scraping/index/reclassify.ts'
import { indexHtml, indexTopic } from '../../curation/fixtures.ts'
import { describeEachEngine } from '../../helpers/db.ts'

describeEachEngine('reclassification', (getDb) => {
  it('moves outdated pages to the current classifier in batches, resumably, and leaves current ones alone', async () => {
    const db = getDb().db
    const ids = await indexTopic(
      db,
      'sports',
      Array.from({ length: 5 }, (_, i) => `https://www.reclass${i}.example.com/match/${i}`),
      900,
    )
    // As a page stored by the keyword-only classifier looked: one old category, an old embedding, version 1.
    await db.query(
      `UPDATE pages SET classifier_version = 1, categories = '[{"id": 52, "score": 0.9}]'::jsonb, primary_category = 52,
              embedding = '{"concepts": [[52, 1]], "terms": [], "confidence": 0.5}'::jsonb WHERE id = ANY($1::bigint[])`,
      [ids.slice(0, 4)],
    )
    await db.query(`DELETE FROM page_categories WHERE page_id = ANY($1::bigint[])`, [ids.slice(0, 4)])
    await db.query(`INSERT INTO page_categories (taxonomy_id, page_id, score) SELECT 52, unnest($1::bigint[]), 0.9`, [ids.slice(0, 4)])
    const before = await reclassifyProgress(db)
    expect(before.remaining).toBeGreaterThanOrEqual(4)

    expect(await db.transaction((tx) => reclassifyBatch(tx, 3))).toBe(3)
    expect((await reclassifyProgress(db)).remaining).toBe(before.remaining - 3)
    while ((await db.transaction((tx) => reclassifyBatch(tx, 3))) > 0);
    expect(await reclassifyProgress(db)).toEqual({ remaining: 0, version: CLASSIFIER_VERSION })

    const { rows } = await db.query<{ id: number; primary_category: number; classifier_version: number; first: number }>(
      `SELECT id, primary_category, classifier_version, (categories->0->>'id')::int AS first FROM pages WHERE id = ANY($1::bigint[]) ORDER BY id`,
      [ids],
    )
    for (const r of rows) {
      expect(r.classifier_version).toBe(CLASSIFIER_VERSION)
      expect(r.first).toBe(483)
    }
    const { rows: members } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM page_categories WHERE page_id = ANY($1::bigint[]) AND taxonomy_id = 52`,
      [ids],
    )
    expect(members[0]?.n).toBe(0)
  })

  it('moves a page without text (a failed fetch) to the current version and leaves what it has', async () => {
    const db = getDb().db
    const id = await indexHtml(db, 'https://www.reclass-failed.example.com/gone', null, { status: 500, error: { code: 'E002', reason: 'HTTP 500' } })
    await db.query(`UPDATE pages SET classifier_version = 1 WHERE id = $1`, [id])
    const before = (await db.query(`SELECT categories, primary_category, embedding FROM pages WHERE id = $1`, [id])).rows[0]
    while ((await db.transaction((tx) => reclassifyBatch(tx))) > 0);
    const after = (
      await db.query<{ classifier_version: number }>(`SELECT categories, primary_category, embedding, classifier_version FROM pages WHERE id = $1`, [id])
    ).rows[0]
    expect(after).toEqual({ ...before, classifier_version: CLASSIFIER_VERSION })
  })
})
