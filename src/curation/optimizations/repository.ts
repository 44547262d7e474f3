import type { Queryable } from '../../platform/db/db.ts'
import { enqueue } from '../../platform/jobs/queue.ts'

export const optimizeKind = 'curation.optimize'
export const estimatedPropagationHours = 3

export interface OptimizePayload {
  optimizationId: number
  clientId: number
}

declare module '../../platform/jobs/kinds.ts' {
  interface JobPayloads {
    'curation.optimize': OptimizePayload
  }
}

export interface ExpandSpec {
  urls: string[]
  domains: string[]
}
export interface BlockSpec {
  urls: string[]
  domains: string[]
  keywords: string[]
}

export interface OptimizationRow {
  id: number
  client_id: number
  segment_id: number
  status: 'accepted'
  expand: ExpandSpec | null
  block: BlockSpec | null
  estimated_propagation_hours: number
  created_date: Date
  applied_date: Date | null
  /** What the job stored: the counts once applied, or why it gave up. */
  result: AppliedResult | FailedResult | null
}

const columns = 'id, client_id, segment_id, status, expand, block, estimated_propagation_hours, created_date, applied_date, result'

/** What the job stores in optimizations.result: the counts once applied, or why it gave up. */
export interface AppliedResult {
  removed: number
  added: number
  url_count: number
  expand_seeds_indexed?: number
  expand_seeds_unusable?: { url: string; errors: string[] }[]
}
export interface FailedResult {
  failed: true
  message?: string
  failed_date?: string
}

export const optimizationFailedCode = 'optimization_failed' as const

/**
 * The API record. `status` stays the spec's `accepted` (its only state); `outcome` says where the
 * change stands — pending until the job applies it, applied (applied_date, result), or failed after
 * the job's last attempt (failure) — so a change that never lands is visible instead of pending forever.
 */
export function toRecord(row: OptimizationRow) {
  const { client_id: _c, result, ...record } = row
  const failed = result !== null && 'failed' in result ? result : null
  return {
    ...record,
    outcome: row.applied_date ? ('applied' as const) : failed ? ('failed' as const) : ('pending' as const),
    result: row.applied_date && result !== null && !('failed' in result) ? result : null,
    failure: failed
      ? {
          code: optimizationFailedCode,
          message: failed.message ?? 'the optimization could not be applied; send it again or contact the operator',
          failed_date: failed.failed_date ?? null,
        }
      : null,
  }
}

/** Stores the optimization as submitted and enqueues its application in the same transaction. */
export async function createOptimization(
  tx: Queryable,
  clientId: number,
  segmentId: number,
  expand: ExpandSpec | null,
  block: BlockSpec | null,
  now: Date,
): Promise<OptimizationRow> {
  const { rows } = await tx.query<OptimizationRow>(
    `INSERT INTO optimizations (client_id, segment_id, expand, block, estimated_propagation_hours, created_date)
     VALUES ($1, $2, $3::jsonb, $4::jsonb, $5, $6) RETURNING ${columns}`,
    [clientId, segmentId, expand ? JSON.stringify(expand) : null, block ? JSON.stringify(block) : null, estimatedPropagationHours, now],
  )
  const row = rows[0]!
  await enqueue(tx, optimizeKind, { optimizationId: row.id, clientId }, { now, maxAttempts: 3 })
  return row
}

export async function getOptimization(db: Queryable, clientId: number, id: number): Promise<OptimizationRow | null> {
  const { rows } = await db.query<OptimizationRow>(`SELECT ${columns} FROM optimizations WHERE id = $1 AND client_id = $2`, [id, clientId])
  return rows[0] ?? null
}

export async function listOptimizations(db: Queryable, clientId: number, segmentId: number | null, limit: number, offset: number): Promise<OptimizationRow[]> {
  const { rows } = await db.query<OptimizationRow>(
    `SELECT ${columns} FROM optimizations WHERE client_id = $1 AND ($2::bigint IS NULL OR segment_id = $2) ORDER BY id LIMIT $3 OFFSET $4`,
    [clientId, segmentId, limit, offset],
  )
  return rows
}
