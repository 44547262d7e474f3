/**
 * Classifying a page again from what the index stored, no fetch: after a classifier upgrade
 * (reclassify.ts) and when the page's sentence vector arrives (semantic-vectors.ts), whose topics join
 * the classifier's (src/content/topics/semantic-topics.ts).
 */

import { vectorOf } from '../../content/semantic/vectors.ts'
import { CLASSIFIER_VERSION } from '../../content/topics/topic-model.ts'
import type { Queryable } from '../../platform/db/db.ts'
import { type AnalyzedPage, classifyForIndex } from './analyze-page.ts'

/** The stored fields the classifier reads, as STORED_PAGE_COLUMNS selects them from `pages p`. */
export interface StoredPage {
  id: number
  url: string
  title: string | null
  full_text: string | null
  language: string | null
  meta_description: string | null
  semantic: Uint8Array | null
}

export const STORED_PAGE_COLUMNS = `p.id, COALESCE(p.final_url, p.url) AS url, p.title, p.full_text, p.language,
  p.metadata->>'meta_description' AS meta_description, p.semantic`

export type Classification = { id: number } & Pick<AnalyzedPage, 'categories' | 'primary_category' | 'embedding'>

/** The page's classification from its stored text and `semantic` vector; null for a page without text. */
export function classifyStored(p: StoredPage, semantic: Int8Array | null = vectorOf(p.semantic)): Classification | null {
  if (!p.full_text) return null
  const { categories, primary_category, embedding } = classifyForIndex({
    title: p.title ?? '',
    text: p.full_text,
    url: p.url,
    semantic,
    ...(p.meta_description ? { metaDescription: p.meta_description } : {}),
    ...(p.language ? { language: p.language } : {}),
  })
  return { id: p.id, categories, primary_category, embedding }
}

/** Stores the classifications: categories, primary leaf, embedding, the category index, the classifier version. */
export async function saveClassifications(tx: Queryable, rows: readonly Classification[]): Promise<void> {
  if (!rows.length) return
  await tx.query(
    `WITH input AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(id bigint, categories jsonb, primary_category integer, embedding jsonb)),
     saved AS (
       UPDATE pages p SET categories = i.categories, primary_category = i.primary_category, embedding = i.embedding, classifier_version = $2
         FROM input i WHERE p.id = i.id RETURNING p.id),
     dropped AS (
       DELETE FROM page_categories pc USING input i WHERE pc.page_id = i.id)
     INSERT INTO page_categories (taxonomy_id, page_id, score)
     SELECT (c ->> 'id')::integer, i.id, (c ->> 'score')::real FROM input i, jsonb_array_elements(i.categories) AS c
     ON CONFLICT (taxonomy_id, page_id) DO UPDATE SET score = EXCLUDED.score`,
    [JSON.stringify(rows), CLASSIFIER_VERSION],
  )
}
