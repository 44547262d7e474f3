/**
 * Background reclassification (`index.reclassify`, periodic): after an upgrade of the classifier,
 * pages classified by an older version (pages.classifier_version < CLASSIFIER_VERSION) get their
 * categories, leaf and embedding again from their stored text — no fetch. Batches are small and
 * each commits on its own, so the job is resumable (a restart continues where it stopped) and
 * segments keep building meanwhile: the ranker reads old and new embeddings alike. Progress: the
 * count of pages still to do (reclassifyProgress), logged by each run.
 */

import { CLASSIFIER_VERSION } from '../../content/topics/topic-model.ts'
import type { AppContext } from '../../platform/context.ts'
import type { Queryable } from '../../platform/db/db.ts'
import type { JobHandler } from '../../platform/jobs/handler.ts'
import type { Periodic } from '../../platform/jobs/kinds.ts'
import { classifyForIndex } from './analyze-page.ts'
import { backgroundPass } from './background-pass.ts'

export const reclassifyKind = 'index.reclassify'

declare module '../../platform/jobs/kinds.ts' {
  interface JobPayloads {
    'index.reclassify': Periodic
  }
}
const BATCH = 200

interface StoredPage {
  id: number
  url: string
  title: string | null
  full_text: string | null
  language: string | null
  meta_description: string | null
}

/** Reclassifies up to `limit` outdated pages, lowest id first; returns how many were done. */
export async function reclassifyBatch(tx: Queryable, limit = BATCH): Promise<number> {
  const { rows } = await tx.query<StoredPage>(
    `SELECT id, COALESCE(final_url, url) AS url, title, full_text, language, metadata->>'meta_description' AS meta_description
       FROM pages WHERE state = 'done' AND classifier_version < $1
      ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED`,
    [CLASSIFIER_VERSION, limit],
  )
  if (!rows.length) return 0
  const out = rows.map((p) => {
    if (!p.full_text) return { id: p.id, categories: [], primary_category: null, embedding: null, keep: true }
    const input = {
      title: p.title ?? '',
      text: p.full_text,
      url: p.url,
      ...(p.meta_description ? { metaDescription: p.meta_description } : {}),
      ...(p.language ? { language: p.language } : {}),
    }
    return { id: p.id, ...classifyForIndex(input), keep: false }
  })
  // Pages without text (fetch errors) keep what they have; only their version moves on.
  const changed = out.filter((o) => !o.keep)
  await tx.query(
    `WITH input AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(id bigint, categories jsonb, primary_category integer, embedding jsonb)),
     saved AS (
       UPDATE pages p SET categories = i.categories, primary_category = i.primary_category, embedding = i.embedding
         FROM input i WHERE p.id = i.id RETURNING p.id),
     dropped AS (
       DELETE FROM page_categories pc USING input i WHERE pc.page_id = i.id)
     INSERT INTO page_categories (taxonomy_id, page_id, score)
     SELECT (c ->> 'id')::integer, i.id, (c ->> 'score')::real FROM input i, jsonb_array_elements(i.categories) AS c
     ON CONFLICT (taxonomy_id, page_id) DO UPDATE SET score = EXCLUDED.score`,
    [JSON.stringify(changed.map(({ id, categories, primary_category, embedding }) => ({ id, categories, primary_category, embedding })))],
  )
  await tx.query(`UPDATE pages SET classifier_version = $2 WHERE id = ANY($1::bigint[])`, [out.map((o) => o.id), CLASSIFIER_VERSION])
  return rows.length
}

/** Pages still classified by an older classifier version. */
export async function reclassifyProgress(db: Queryable): Promise<{ remaining: number; version: number }> {
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pages WHERE state = 'done' AND classifier_version < $1`, [CLASSIFIER_VERSION])
  return { remaining: rows[0]?.n ?? 0, version: CLASSIFIER_VERSION }
}

export function reclassifyJob(ctx: AppContext): JobHandler<'index.reclassify'> {
  return backgroundPass({
    kind: reclassifyKind,
    batch: BATCH,
    step: (job) => job.withLease((tx) => reclassifyBatch(tx)),
    doneAs: 'reclassified',
    progress: () => reclassifyProgress(ctx.db),
  })
}
