import type { Queryable } from '../../platform/db/db.ts'
import { enqueue } from '../../platform/jobs/queue.ts'

export const optimizeKind = 'curation.optimize'
export const estimatedPropagationHours = 3

export interface OptimizePayload {
  optimizationId: number
  clientId: number
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
  result: Record<string, unknown> | null
}

const columns = 'id, client_id, segment_id, status, expand, block, estimated_propagation_hours, created_date, applied_date, result'

export function toRecord(row: OptimizationRow) {
  const { client_id: _c, result: _r, ...record } = row
  return record
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
  await enqueue(tx, optimizeKind, { optimizationId: row.id, clientId } satisfies OptimizePayload, { now, maxAttempts: 3 })
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
