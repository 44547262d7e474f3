/**
 * Background reclassification (`index.reclassify`, periodic): after an upgrade of the classifier,
 * pages classified by an older version (pages.classifier_version < CLASSIFIER_VERSION) get their
 * categories, leaf and embedding again from their stored text and sentence vector — no fetch.
 * Batches are small and each commits on its own, so the job is resumable (a restart continues where
 * it stopped) and segments keep building meanwhile: the ranker reads old and new embeddings alike.
 * Progress: the count of pages still to do (reclassifyProgress), logged by each run.
 */

import { CLASSIFIER_VERSION } from '../../content/topics/topic-model.ts'
import type { AppContext } from '../../platform/context.ts'
import type { Queryable } from '../../platform/db/db.ts'
import type { JobHandler } from '../../platform/jobs/handler.ts'
import type { Periodic } from '../../platform/jobs/kinds.ts'
import { backgroundPass } from './background-pass.ts'
import { classifyStored, STORED_PAGE_COLUMNS, type StoredPage, saveClassifications } from './stored-classification.ts'

export const reclassifyKind = 'index.reclassify'

declare module '../../platform/jobs/kinds.ts' {
  interface JobPayloads {
    'index.reclassify': Periodic
  }
}
const BATCH = 200

/** Reclassifies up to `limit` outdated pages, lowest id first; returns how many were done. */
export async function reclassifyBatch(tx: Queryable, limit = BATCH): Promise<number> {
  const { rows } = await tx.query<StoredPage>(
    `SELECT ${STORED_PAGE_COLUMNS} FROM pages p WHERE p.state = 'done' AND p.classifier_version < $1
      ORDER BY p.id LIMIT $2 FOR UPDATE OF p SKIP LOCKED`,
    [CLASSIFIER_VERSION, limit],
  )
  if (!rows.length) return 0
  await saveClassifications(
    tx,
    rows.map((p) => classifyStored(p)).filter((c) => c !== null),
  )
  // Pages without text (fetch errors) keep what they have; only their version moves on (saveClassifications
  // moved the others').
  const textless = rows.filter((p) => !p.full_text).map((p) => p.id)
  if (textless.length) await tx.query(`UPDATE pages SET classifier_version = $2 WHERE id = ANY($1::bigint[])`, [textless, CLASSIFIER_VERSION])
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
