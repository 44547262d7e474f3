import type { Queryable } from '../platform/db/db.ts'
import type { JobHandler } from '../platform/jobs/handler.ts'
import { PermanentJobError } from '../platform/jobs/handler.ts'
import type { Periodic } from '../platform/jobs/kinds.ts'
import { enqueue } from '../platform/jobs/queue.ts'
import { ConnectorError } from './connectors/connector.ts'
import type { ActivationContext } from './context.ts'
import { emitActivationEvent } from './events.ts'
import { runLifecycle } from './lifecycle.ts'
import { propagateChanges } from './propagate.ts'
import { loadActivation } from './repository.ts'
import { shapeTargeting } from './targeting.ts'

type ById = { id: number }

declare module '../platform/jobs/kinds.ts' {
  interface JobPayloads {
    'activation.issue': ById
    'activation.complete': ById
    'activation.lifecycle': Periodic
    'activation.propagate': Periodic
  }
}

/** pending → processing: shapes the targeting and asks the SSP connector for a Deal ID. */
function issueJob(ctx: ActivationContext): JobHandler<'activation.issue'> {
  return {
    kind: 'activation.issue',
    maxAttempts: 5,
    async run({ id }, job) {
      const a = await loadActivation(ctx.db, id)
      if (!a || (a.status !== 'pending' && a.status !== 'processing')) return
      await ctx.db.query(`UPDATE activations SET status = 'processing' WHERE id = $1 AND status = 'pending'`, [id])
      const connector = ctx.connector
      const shaped = await shapeTargeting(ctx.db, a)
      const { rows } = await ctx.db.query('SELECT 1 FROM ssp_connections WHERE client_id = $1 AND connector = $2 AND dsp = $3 AND buyer_seat = $4', [
        a.client_id,
        connector.name,
        a.dsp,
        a.buyer_seat,
      ])
      const now = ctx.clock.now()
      const deal = await connector
        .createDeal(
          {
            activationId: a.id,
            clientId: a.client_id,
            dsp: a.dsp,
            buyerSeat: a.buyer_seat,
            knownConnection: rows.length > 0,
            startDate: a.start_date,
            endDate: a.end_date,
            budget: a.budget,
            targeting: shaped.targeting,
          },
          now,
        )
        .catch((err: unknown) => {
          throw err instanceof ConnectorError ? connectorFailure(err, job.job.attempts, job.job.max_attempts) : err
        })
      await job.finish(async (tx) => {
        await tx.query(`UPDATE activations SET deal_id = $2, ttl_hours = $3, ready_at = $4, targeting = $5 WHERE id = $1`, [
          id,
          deal.dealId,
          deal.ttlHours,
          deal.readyAt,
          JSON.stringify(shaped.summary),
        ])
        await enqueue(tx, 'activation.complete', { id }, { now, runAt: deal.readyAt, singletonKey: `activation.complete:${id}` })
      })
    },
    async onFailed({ id }, reason, tx) {
      await failActivation(ctx, tx, id, `the Deal ID could not be issued: ${readableReason(reason)}`)
    },
  }
}

/** processing → complete once the SSP's sync latency has passed: the deal is live. */
function completeJob(ctx: ActivationContext): JobHandler<'activation.complete'> {
  return {
    kind: 'activation.complete',
    async run({ id }, job) {
      const now = ctx.clock.now()
      await job.finish(async (tx) => {
        const { rows } = await tx.query<{ client_id: number; connector: string; dsp: string; buyer_seat: string }>(
          // A deal the buyer ended while it synced stays ended.
          `UPDATE activations SET status = 'complete', processed_date = $2,
                  deal_state = CASE WHEN deal_state = 'ended' THEN deal_state ELSE 'live' END,
                  deal_state_reason = CASE WHEN deal_state = 'ended' THEN deal_state_reason ELSE 'deal issued and targetable' END,
                  deal_state_changed_at = CASE WHEN deal_state = 'ended' THEN deal_state_changed_at ELSE $2 END
            WHERE id = $1 AND status = 'processing' AND deal_id IS NOT NULL
            RETURNING client_id, connector, dsp, buyer_seat`,
          [id, now],
        )
        const a = rows[0]
        if (a) {
          await tx.query(
            `INSERT INTO ssp_connections (client_id, connector, dsp, buyer_seat, first_deal_at) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT DO NOTHING`,
            [a.client_id, a.connector, a.dsp, a.buyer_seat, now],
          )
          await emitActivationEvent(ctx, tx, a.client_id, id, 'activation.completed', now)
        }
      })
    },
    async onFailed({ id }, reason, tx) {
      await failActivation(ctx, tx, id, `the deal could not be confirmed: ${readableReason(reason)}`)
    },
  }
}

/**
 * failure_reason is read by buyers, so only messages written for them reach it: the SSP connector's,
 * marked with this prefix where they are thrown. Anything else (a database error, a bug) keeps its
 * detail in jobs.last_error and the logs, and the buyer reads a generic reason.
 */
const readablePrefix = 'ssp: '

function connectorFailure(err: ConnectorError, attempt: number, maxAttempts: number): Error {
  if (!err.retryable) return new PermanentJobError(readablePrefix + err.message)
  return new Error(`${readablePrefix}${err.message} (failed attempt ${attempt} of ${maxAttempts})`)
}

/** The part of a job's failure a buyer may read. */
export function readableReason(reason: string): string {
  if (reason.startsWith(readablePrefix)) return reason.slice(readablePrefix.length)
  return 'an internal error stopped processing and retrying did not help; activate again, or contact support quoting this activation id'
}

async function failActivation(ctx: ActivationContext, tx: Queryable, id: number, reason: string): Promise<void> {
  const { rows } = await tx.query<{ client_id: number }>(
    `UPDATE activations SET status = 'failed', failure_reason = $2 WHERE id = $1 AND status IN ('pending', 'processing') RETURNING client_id`,
    [id, reason],
  )
  if (rows[0]) await emitActivationEvent(ctx, tx, rows[0].client_id, id, 'activation.failed', ctx.clock.now())
}

export function activationJobs(ctx: ActivationContext): JobHandler[] {
  return [
    issueJob(ctx),
    completeJob(ctx),
    { kind: 'activation.lifecycle', everyMs: 3_600_000, run: () => runLifecycle(ctx) },
    { kind: 'activation.propagate', everyMs: 60_000, run: () => propagateChanges(ctx) },
  ]
}
