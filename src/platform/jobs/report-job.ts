import type { Clock } from '../clock.ts'
import type { Queryable } from '../db/db.ts'
import type { WebhookEventType } from '../webhooks/events.ts'
import { emitEvent } from '../webhooks/outbox.ts'
import type { JobHandler } from './handler.ts'
import { PermanentJobError } from './handler.ts'
import type { KindsWithPayload } from './kinds.ts'

/** The payload of every report job: the report record and its owner. */
export interface ReportJobPayload {
  reportId: number
  clientId: number
}

/** What the client reads when a report failed for good (the job's own error may name internals). */
const failedReason = 'the report could not be computed; create it again, or contact the operator'

/**
 * The job of a report record (publisher reports, segment performance reports): a table with id,
 * client_id, status, result, processed_date and failure_reason. pending -> processing (claimed) ->
 * complete (result and processed_date, committed with the job's completion); after the last of 3
 * attempts -> failed with a readable reason. A retry recomputes from scratch.
 */
export function reportJob<K extends KindsWithPayload<ReportJobPayload>, Request extends { status: string }>(opts: {
  kind: K
  table: string
  clock: Clock
  /** The stored request; null when the record does not exist. */
  load(clientId: number, reportId: number): Promise<Request | null>
  compute(clientId: number, req: Request): Promise<unknown>
  /** The webhook events of the record's completion and failure, carrying it as GET returns it. */
  events: { completed: WebhookEventType; failed: WebhookEventType; view(q: Queryable, clientId: number, reportId: number): Promise<unknown> }
}): JobHandler<K> {
  const { kind, table, events } = opts
  const emit = async (tx: Queryable, p: ReportJobPayload, type: WebhookEventType, now: Date) => {
    const data = await events.view(tx, p.clientId, p.reportId)
    if (data) await emitEvent(tx, { clientId: p.clientId, type, data, now })
  }
  return {
    kind,
    maxAttempts: 3,
    async run(p, job) {
      const req = await opts.load(p.clientId, p.reportId)
      if (!req) throw new PermanentJobError(`${table} ${p.reportId} does not exist`)
      if (req.status === 'complete') return
      await job.withLease((tx) =>
        tx.query(`UPDATE ${table} SET status = 'processing' WHERE id = $1 AND client_id = $2 AND status = 'pending'`, [p.reportId, p.clientId]),
      )
      const result = await opts.compute(p.clientId, req)
      await job.finish(async (tx) => {
        const now = job.clock.now()
        const { rowCount } = await tx.query(
          `UPDATE ${table} SET status = 'complete', result = $3::jsonb, processed_date = $4 WHERE id = $1 AND client_id = $2 AND status <> 'complete'`,
          [p.reportId, p.clientId, JSON.stringify(result), now],
        )
        if (rowCount) await emit(tx, p, events.completed, now)
      })
    },
    async onFailed(p, _reason, tx: Queryable) {
      const { rowCount } = await tx.query(
        `UPDATE ${table} SET status = 'failed', failure_reason = $3 WHERE id = $1 AND client_id = $2 AND status <> 'failed'`,
        [p.reportId, p.clientId, failedReason],
      )
      if (rowCount) await emit(tx, p, events.failed, opts.clock.now())
    },
  }
}
