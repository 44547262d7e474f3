import type { Queryable } from '../../platform/db/db.ts'
import type { Periodic } from '../../platform/jobs/kinds.ts'
import { enqueue } from '../../platform/jobs/queue.ts'
import type { ReportJobPayload } from '../../platform/jobs/report-job.ts'
import type { Dimension, PublisherReport, ReportResult } from '../schemas.ts'

export const REPORT_JOB = 'pixel.publisher_report'

declare module '../../platform/jobs/kinds.ts' {
  interface JobPayloads {
    'pixel.publisher_report': ReportJobPayload
    'pixel.retention': Periodic
  }
}

interface Row {
  id: number
  status: PublisherReport['status']
  campaign_id: number
  start_date: string
  end_date: string
  dimensions: Dimension[]
  hot_spot_min_loads: number
  created_date: Date
  processed_date: Date | null
  result: ReportResult | null
  failure_reason: string | null
}

const columns = 'id, status, campaign_id, start_date, end_date, dimensions, hot_spot_min_loads, created_date, processed_date, result, failure_reason'

/** The API shape: the result's sections are null until the report is complete. */
export function toReport(r: Row): PublisherReport {
  const res = r.status === 'complete' ? r.result : null
  return {
    id: r.id,
    status: r.status,
    campaign_id: r.campaign_id,
    start_date: r.start_date,
    end_date: r.end_date,
    dimensions: r.dimensions,
    hot_spot_min_loads: r.hot_spot_min_loads,
    created_date: r.created_date,
    processed_date: r.processed_date,
    summary: res?.summary ?? null,
    agents: res?.agents ?? null,
    hot_spots: res?.hot_spots ?? null,
    data: res?.data ?? null,
    data_truncated: res?.data_truncated ?? false,
    ai_referrals: res?.ai_referrals ?? null,
    failure_reason: r.failure_reason,
  }
}

/** Creates the report (pending) and its job in the caller's transaction: both commit or neither. */
export async function createReport(
  tx: Queryable,
  clientId: number,
  req: { campaignId: number; startDate: string; endDate: string; dimensions: Dimension[]; hotSpotMinLoads: number },
  now: Date,
): Promise<PublisherReport> {
  const { rows } = await tx.query<Row>(
    `INSERT INTO pixel_publisher_reports (client_id, campaign_id, start_date, end_date, dimensions, hot_spot_min_loads, created_date)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7) RETURNING ${columns}`,
    [clientId, req.campaignId, req.startDate, req.endDate, JSON.stringify(req.dimensions), req.hotSpotMinLoads, now],
  )
  const row = rows[0]!
  await enqueue(tx, REPORT_JOB, { reportId: row.id, clientId }, { now, maxAttempts: 3 })
  return toReport(row)
}

/** The client's publisher reports, newest first. */
export async function listReports(db: Queryable, clientId: number, limit: number, offset: number): Promise<PublisherReport[]> {
  const { rows } = await db.query<Row>(`SELECT ${columns} FROM pixel_publisher_reports WHERE client_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`, [
    clientId,
    limit,
    offset,
  ])
  return rows.map(toReport)
}

export async function getReport(db: Queryable, clientId: number, id: number): Promise<PublisherReport | null> {
  const { rows } = await db.query<Row>(`SELECT ${columns} FROM pixel_publisher_reports WHERE id = $1 AND client_id = $2`, [id, clientId])
  return rows[0] ? toReport(rows[0]) : null
}

/** What the job needs to compute a report. */
export async function reportRequest(
  db: Queryable,
  clientId: number,
  id: number,
): Promise<{ campaignId: number; startDate: string; endDate: string; dimensions: Dimension[]; hotSpotMinLoads: number; status: string } | null> {
  const { rows } = await db.query<Row>(`SELECT ${columns} FROM pixel_publisher_reports WHERE id = $1 AND client_id = $2`, [id, clientId])
  const r = rows[0]
  if (!r) return null
  return {
    campaignId: r.campaign_id,
    startDate: r.start_date,
    endDate: r.end_date,
    dimensions: r.dimensions,
    hotSpotMinLoads: r.hot_spot_min_loads,
    status: r.status,
  }
}
