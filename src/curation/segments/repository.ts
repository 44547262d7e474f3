import { getNode } from '../../content/taxonomy/taxonomy.ts'
import { type Interpretation, interpretPrompt, type PromptIntent, UNKNOWN_WORD_WEIGHT } from '../../content/topics/interpret-prompt.ts'
import type { Queryable } from '../../platform/db/db.ts'
import { enqueue } from '../../platform/jobs/queue.ts'
import { expansionsFor } from '../builder/associations.ts'
import { recordChange } from '../builder/store.ts'
import type { UrlReasons } from '../quality/filters.ts'
import type { SegmentInput } from './validate.ts'

export const buildKind = 'curation.build'

export interface BuildPayload {
  segmentId: number
  clientId: number
}

declare module '../../platform/jobs/kinds.ts' {
  interface JobPayloads {
    'curation.build': BuildPayload
  }
}

export interface Problem {
  code: string
  message: string
  url?: string
  index?: number
  reason?: string
}

export interface SegmentRow {
  id: number
  client_id: number
  name: string | null
  prompt: string | null
  taxonomy_id: number | null
  level1_name: string | null
  level2_name: string | null
  level3_name: string | null
  taxonomy_given: boolean
  example_urls: string[]
  extra_hops_count: number | null
  block_tlds: string[] | null
  block_keywords: string[] | null
  status: 'pending' | 'processing' | 'complete'
  url_count: number | null
  deleted: boolean
  created_date: Date
  processed_date: Date | null
  processing_errors: Problem[] | null
  processing_warnings: Problem[] | null
  last_updated_date: Date | null
  /** how the prompt was read (docs/curation.md "Interpretation"); null without a prompt */
  interpretation: Interpretation | null
}

const columns = `id, client_id, name, prompt, taxonomy_id, level1_name, level2_name, level3_name, taxonomy_given,
  example_urls, extra_hops_count, block_tlds, block_keywords, status, url_count, deleted, created_date,
  processed_date, processing_errors, processing_warnings, last_updated_date, interpretation`

/** The API record: the row without internal columns. */
export function toRecord(row: SegmentRow) {
  const { taxonomy_given: _given, ...record } = row
  return record
}

/** How the prompt reads, with the index's associations for the words the model does not know. */
export async function readPrompt(db: Queryable, prompt: string): Promise<PromptIntent> {
  const first = interpretPrompt(prompt)
  const unknown = [...first.termWeights].filter(([, w]) => w >= UNKNOWN_WORD_WEIGHT).map(([t]) => t)
  const expansions = await expansionsFor(db, unknown)
  return expansions.length ? interpretPrompt(prompt, expansions) : first
}

/** Creates the request and enqueues its build in the same transaction. */
export async function createSegmentRequest(tx: Queryable, clientId: number, input: SegmentInput, now: Date): Promise<SegmentRow> {
  const t = input.taxonomy
  const interpretation = input.prompt ? (await readPrompt(tx, input.prompt)).interpretation : null
  const { rows } = await tx.query<SegmentRow>(
    `INSERT INTO segment_requests (client_id, name, prompt, taxonomy_id, level1_name, level2_name, level3_name, taxonomy_given,
        example_urls, extra_hops_count, block_tlds, block_keywords, created_date, last_updated_date, interpretation)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13, $14::jsonb)
     RETURNING ${columns}`,
    [
      clientId,
      input.name,
      input.prompt,
      t?.id ?? null,
      t?.level1_name ?? null,
      t?.level2_name ?? null,
      t?.level3_name ?? null,
      t !== null,
      input.exampleUrls,
      input.extraHops,
      input.blockTlds,
      input.blockKeywords,
      now,
      interpretation === null ? null : JSON.stringify(interpretation),
    ],
  )
  const row = rows[0]!
  await enqueueBuild(tx, row, now)
  return row
}

function enqueueBuild(tx: Queryable, row: SegmentRow, now: Date): Promise<number | null> {
  return enqueue(tx, buildKind, { segmentId: row.id, clientId: row.client_id }, { now, maxAttempts: 3, singletonKey: `${buildKind}:${row.id}` })
}

/** Renames the segment; null when it is not the client's (or is deleted). */
export async function renameSegment(db: Queryable, clientId: number, id: number, name: string | null, now: Date): Promise<SegmentRow | null> {
  const { rows } = await db.query<SegmentRow>(
    `UPDATE segment_requests SET name = $3, last_updated_date = $4 WHERE id = $1 AND client_id = $2 AND NOT deleted RETURNING ${columns}`,
    [id, clientId, name, now],
  )
  return rows[0] ?? null
}

/**
 * Deletes the segment (soft: the row answers 404 afterwards) and records the change that makes the
 * activation feature stop its live deals. Null when it is not the client's or already deleted.
 */
export async function deleteSegment(tx: Queryable, clientId: number, id: number, now: Date): Promise<SegmentRow | null> {
  const { rows } = await tx.query<SegmentRow>(
    `UPDATE segment_requests SET deleted = true, last_updated_date = $3 WHERE id = $1 AND client_id = $2 AND NOT deleted RETURNING ${columns}`,
    [id, clientId, now],
  )
  const row = rows[0]
  if (row) await recordChange(tx, row, 'deleted', now)
  return row ?? null
}

export type RebuildOutcome = { row: SegmentRow } | { busy: SegmentRow } | null

/**
 * Builds a complete segment again over the index as it is now. Its current URL list keeps serving
 * (and its deals keep it) until the new build replaces it. A segment still building is `busy`.
 */
export async function rebuildSegment(tx: Queryable, clientId: number, id: number, now: Date): Promise<RebuildOutcome> {
  const { rows } = await tx.query<SegmentRow>(
    `UPDATE segment_requests SET status = 'pending', last_updated_date = $3
      WHERE id = $1 AND client_id = $2 AND NOT deleted AND status = 'complete' RETURNING ${columns}`,
    [id, clientId, now],
  )
  const row = rows[0]
  if (!row) {
    const current = await getSegment(tx, clientId, id)
    return current ? { busy: current } : null
  }
  await enqueueBuild(tx, row, now)
  return { row }
}

export async function getSegment(db: Queryable, clientId: number, id: number): Promise<SegmentRow | null> {
  const { rows } = await db.query<SegmentRow>(`SELECT ${columns} FROM segment_requests WHERE id = $1 AND client_id = $2 AND NOT deleted`, [id, clientId])
  return rows[0] ?? null
}

export async function listSegments(db: Queryable, clientId: number, limit: number, offset: number): Promise<SegmentRow[]> {
  const { rows } = await db.query<SegmentRow>(`SELECT ${columns} FROM segment_requests WHERE client_id = $1 AND NOT deleted ORDER BY id LIMIT $2 OFFSET $3`, [
    clientId,
    limit,
    offset,
  ])
  return rows
}

export interface SegmentUrlRow {
  rank: number
  url: string
  tld: string
  score: number
  taxonomy_id: number | null
  source: string
  reasons: UrlReasons | null
}

export function withLevels<T extends { taxonomy_id: number | null }>(row: T) {
  const n = row.taxonomy_id === null ? undefined : getNode(row.taxonomy_id)
  return { ...row, level1_name: n?.level1_name ?? null, level2_name: n?.level2_name ?? null, level3_name: n?.level3_name ?? null }
}

/** One page of a segment's URLs in rank order (ties by page id: stable across calls). */
export async function listSegmentUrls(db: Queryable, clientId: number, segmentId: number, limit: number, offset: number) {
  const [{ rows }, count] = await Promise.all([
    db.query<SegmentUrlRow>(
      `SELECT rank, url, tld, score::float8 AS score, taxonomy_id, source, reasons
         FROM segment_urls WHERE segment_id = $1 AND client_id = $2
        ORDER BY rank, page_id LIMIT $3 OFFSET $4`,
      [segmentId, clientId, limit, offset],
    ),
    db.query<{ total: number }>(`SELECT count(*)::int AS total FROM segment_urls WHERE segment_id = $1 AND client_id = $2`, [segmentId, clientId]),
  ])
  return { total: count.rows[0]?.total ?? 0, urls: rows.map((r) => withLevels({ ...r, score: round(r.score), reasons: r.reasons ?? {} })) }
}

export async function listExclusions(db: Queryable, clientId: number, segmentId: number, reason: string | null, limit: number, offset: number) {
  const [{ rows }, counts] = await Promise.all([
    db.query<{ url: string; tld: string; reason: string; score: number | null; detail: Record<string, unknown> | null }>(
      `SELECT url, tld, reason, score::float8 AS score, detail
         FROM segment_exclusions WHERE segment_id = $1 AND client_id = $2 AND ($3::text IS NULL OR reason = $3)
        ORDER BY reason, page_id LIMIT $4 OFFSET $5`,
      [segmentId, clientId, reason, limit, offset],
    ),
    db.query<{ reason: string; n: number }>(
      `SELECT reason, count(*)::int AS n FROM segment_exclusions WHERE segment_id = $1 AND client_id = $2 GROUP BY reason`,
      [segmentId, clientId],
    ),
  ])
  const byReason: Record<string, number> = {}
  for (const c of counts.rows) byReason[c.reason] = c.n
  const total = reason === null ? counts.rows.reduce((s, c) => s + c.n, 0) : (byReason[reason] ?? 0)
  return {
    total,
    by_reason: byReason,
    exclusions: rows.map((r) => ({ ...r, score: r.score === null ? null : round(r.score), detail: r.detail ?? {} })),
  }
}

export const round = (x: number): number => Math.round(x * 10000) / 10000
