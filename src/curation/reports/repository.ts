// Segment performance reports: the record (segment_reports, migrations/0009) and its job.
import type { Queryable } from '../../platform/db/db.ts'
import { enqueue } from '../../platform/jobs/queue.ts'
import type { ReportJobPayload } from '../../platform/jobs/report-job.ts'
import type { Dimension, ReportResult, SegmentReport } from './schemas.ts'

export const SEGMENT_REPORT_JOB = 'curation.segment_report'

declare module '../../platform/jobs/kinds.ts' {
  interface JobPayloads {
    'curation.segment_report': ReportJobPayload
  }
}

export interface SegmentReportRequest {
  segmentIds: number[]
  startDate: string
  endDate: string
  dimensions: Dimension[]
}

interface Row {
  id: number
  status: SegmentReport['status']
  segment_ids: number[]
  start_date: string
  end_date: string
  dimensions: Dimension[]
  created_date: Date
  processed_date: Date | null
  result: ReportResult | null
  failure_reason: string | null
}

const columns = 'id, status, segment_ids, start_date, end_date, dimensions, created_date, processed_date, result, failure_reason'

/** The API shape: the result's sections are null (and warnings empty) until the report is complete. */
function toReport(r: Row): SegmentReport {
  const res = r.status === 'complete' ? r.result : null
  return {
    id: r.id,
    status: r.status,
    segment_ids: r.segment_ids.map(Number),
    start_date: r.start_date,
    end_date: r.end_date,
    dimensions: r.dimensions,
    created_date: r.created_date,
    processed_date: r.processed_date,
    currency: res?.currency ?? null,
    summary: res?.summary ?? null,
    deals: res?.deals ?? null,
    domains: res?.domains ?? null,
    domains_truncated: res?.domains_truncated ?? false,
    data: res?.data ?? null,
    data_truncated: res?.data_truncated ?? false,
    warnings: res?.warnings ?? [],
    failure_reason: r.failure_reason,
  }
}

/** The ids among `ids` that are this client's segments (deleted ones are gone). */
export async function ownSegmentIds(db: Queryable, clientId: number, ids: number[]): Promise<Set<number>> {
  const { rows } = await db.query<{ id: number }>('SELECT id FROM segment_requests WHERE client_id = $1 AND id = ANY($2::bigint[]) AND NOT deleted', [
    clientId,
    ids,
  ])
  return new Set(rows.map((r) => Number(r.id)))
}

/** Creates the report (pending) and its job in the caller's transaction: both commit or neither. */
export async function createSegmentReport(tx: Queryable, clientId: number, req: SegmentReportRequest, now: Date): Promise<SegmentReport> {
  const { rows } = await tx.query<Row>(
    `INSERT INTO segment_reports (client_id, segment_ids, start_date, end_date, dimensions, created_date)
     VALUES ($1, $2::bigint[], $3, $4, $5::jsonb, $6) RETURNING ${columns}`,
    [clientId, req.segmentIds, req.startDate, req.endDate, JSON.stringify(req.dimensions), now],
  )
  const row = rows[0]!
  await enqueue(tx, SEGMENT_REPORT_JOB, { reportId: row.id, clientId }, { now, maxAttempts: 3 })
  return toReport(row)
}

/** The client's reports, newest first. */
export async function listSegmentReports(db: Queryable, clientId: number, limit: number, offset: number): Promise<SegmentReport[]> {
  const { rows } = await db.query<Row>(`SELECT ${columns} FROM segment_reports WHERE client_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`, [
    clientId,
    limit,
    offset,
  ])
  return rows.map(toReport)
}

export async function getSegmentReport(db: Queryable, clientId: number, id: number): Promise<SegmentReport | null> {
  const { rows } = await db.query<Row>(`SELECT ${columns} FROM segment_reports WHERE id = $1 AND client_id = $2`, [id, clientId])
  return rows[0] ? toReport(rows[0]) : null
}

/** What the job needs to compute a report. */
export async function segmentReportRequest(db: Queryable, clientId: number, id: number): Promise<(SegmentReportRequest & { status: string }) | null> {
  const { rows } = await db.query<Row>(`SELECT ${columns} FROM segment_reports WHERE id = $1 AND client_id = $2`, [id, clientId])
  const r = rows[0]
  if (!r) return null
  return { segmentIds: r.segment_ids.map(Number), startDate: r.start_date, endDate: r.end_date, dimensions: r.dimensions, status: r.status }
}
