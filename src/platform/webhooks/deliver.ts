/**
 * The `webhooks.deliver` job: attempts at deliveries. The worker claims them in batches (up to
 * DELIVERY_BATCH per unit of its concurrency), the attempts of a batch go out concurrently over
 * kept-alive connections, and their outcomes are recorded in one transaction. A 2xx marks a delivery
 * delivered; anything else (another status, a timeout, a refused address) schedules the next attempt
 * with exponential backoff in that transaction, until WEBHOOK_MAX_ATTEMPTS — then the delivery is
 * failed and its subscription marked failing (a later success marks it active again). Every attempt
 * carries the same webhook-id. A worker killed mid-attempt loses nothing: the jobs' leases run out
 * and the attempts are made again (receivers deduplicate on webhook-id).
 */
import { request } from 'undici'

import { systemClock } from '../clock.ts'
import type { AppContext } from '../context.ts'
import type { Queryable } from '../db/db.ts'
import type { JobHandler } from '../jobs/handler.ts'
import type { DirectCredentials } from './outbox.ts'
import { deliverJobAttempts, deliverKind, enqueueDeliveries } from './outbox.ts'
import type { WebhookContext } from './service.ts'
import { signedHeaders } from './sign.ts'

interface Pending {
  id: number
  subscription_id: number | null
  url: string
  message_id: string
  payload: string
  attempts: number
  credentials_enc: string | null
  secret_enc: string | null
  subscription_deleted: boolean
  subscription_failing: boolean
}

export interface AttemptOutcome {
  ok: boolean
  status: number | null
  error: string | null
}

// Deliveries claimed and sent together by one unit of the worker's concurrency.
const DELIVERY_BATCH = 64

const USER_AGENT = 'Curata-Webhooks/1 (+docs/webhooks.md)'
// A receiver's answer is read this far at most, then dropped.
const MAX_RESPONSE_BYTES = 64 * 1024

/** Wait after the n-th failed attempt: base × 2^(n-1), capped, with ±10% jitter so retries spread out. */
export function retryDelayMs(attempt: number, baseMs: number, maxMs: number): number {
  const d = Math.min(baseMs * 2 ** Math.min(attempt - 1, 40), maxMs)
  return Math.round(d * (0.9 + Math.random() * 0.2))
}

const pendingSql = `SELECT d.id, d.subscription_id, d.url, d.message_id, d.payload, d.attempts, d.credentials_enc, s.secret_enc,
        (s.id IS NOT NULL AND s.deleted_at IS NOT NULL) AS subscription_deleted, coalesce(s.status = 'failing', false) AS subscription_failing
   FROM webhook_deliveries d LEFT JOIN webhook_subscriptions s ON s.id = d.subscription_id`

async function loadPending(q: Queryable, id: number): Promise<Pending | null> {
  const { rows } = await q.query<Pending>(`${pendingSql} WHERE d.id = $1 AND d.status = 'pending'`, [id])
  return rows[0] ?? null
}

async function loadPendingMany(q: Queryable, ids: number[]): Promise<Pending[]> {
  const { rows } = await q.query<Pending>(`${pendingSql} WHERE d.id = ANY($1::bigint[]) AND d.status = 'pending'`, [ids])
  return rows
}

/** Sends one attempt. Never throws for what the receiver or the network did: that is an outcome. */
export async function attempt(ctx: AppContext & WebhookContext, d: Pending): Promise<AttemptOutcome> {
  const creds: DirectCredentials =
    d.secret_enc !== null
      ? { secret: ctx.webhooks.cipher.decrypt(d.secret_enc), headers: {} }
      : (JSON.parse(ctx.webhooks.cipher.decrypt(d.credentials_enc!)) as DirectCredentials)
  // The receiver checks this against its own clock (replay protection): the wall clock, not the job's.
  const ts = Math.floor(systemClock.now().getTime() / 1000)
  const payload = creds.body ?? d.payload
  const headers: Record<string, string> = {
    ...creds.headers,
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    ...(creds.secret !== null ? signedHeaders(creds.secret, d.message_id, ts, payload) : { 'webhook-id': d.message_id, 'webhook-timestamp': String(ts) }),
  }
  const { timeoutMs } = ctx.config.webhooks
  try {
    const res = await request(d.url, {
      method: 'POST',
      headers,
      body: payload,
      dispatcher: ctx.webhooks.dispatcher(ctx.config.scrape.allowPrivate),
      signal: AbortSignal.timeout(timeoutMs),
      maxRedirections: 0,
    } as Parameters<typeof request>[1])
    await drain(res.body)
    const ok = res.statusCode >= 200 && res.statusCode < 300
    return { ok, status: res.statusCode, error: ok ? null : `the receiver answered ${res.statusCode}` }
  } catch (err) {
    const e = err as Error & { code?: string; name?: string }
    const why =
      e.code === 'ERR_SSRF_BLOCKED'
        ? e.message
        : e.name === 'TimeoutError' || e.name === 'AbortError'
          ? `no answer within ${timeoutMs} ms`
          : `could not connect: ${e.code ?? e.message}`
    return { ok: false, status: null, error: why.slice(0, 500) }
  }
}

async function drain(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<void> {
  let n = 0
  try {
    for await (const chunk of body) {
      n += chunk.length
      if (n > MAX_RESPONSE_BYTES) break
    }
  } finally {
    body.destroy()
  }
}

/**
 * Records the attempts of a batch: the successes in one statement, each failure as recordAttempt
 * does. Runs in the batch's finishing transaction.
 */
export async function recordAttempts(tx: Queryable, ctx: AppContext, done: { d: Pending; out: AttemptOutcome }[], now: Date): Promise<void> {
  const ok = done.filter((x) => x.out.ok)
  if (ok.length) {
    await tx.query(
      `UPDATE webhook_deliveries d SET status = 'delivered', attempts = d.attempts + 1, last_attempt_at = $2, last_status = u.status,
              last_error = NULL, delivered_at = $2, next_attempt_at = NULL
         FROM unnest($1::bigint[], $3::int[]) AS u(id, status)
        WHERE d.id = u.id AND d.status = 'pending'`,
      [ok.map((x) => x.d.id), now, ok.map((x) => x.out.status)],
    )
    const failing = [...new Set(ok.filter((x) => x.d.subscription_failing).map((x) => x.d.subscription_id!))]
    if (failing.length) {
      await tx.query(`UPDATE webhook_subscriptions SET status = 'active', failing_since = NULL WHERE id = ANY($1::bigint[]) AND status = 'failing'`, [failing])
    }
  }
  for (const x of done) if (!x.out.ok) await recordAttempt(tx, ctx, x.d, x.out, now)
}

/** Records an attempt and, after a failure, schedules the next or gives up. Runs in the job's finishing transaction. */
export async function recordAttempt(tx: Queryable, ctx: AppContext, d: Pending, out: AttemptOutcome, now: Date): Promise<void> {
  const cfg = ctx.config.webhooks
  const attempts = d.attempts + 1
  if (out.ok) {
    await tx.query(
      `UPDATE webhook_deliveries SET status = 'delivered', attempts = $2, last_attempt_at = $3, last_status = $4, last_error = NULL,
              delivered_at = $3, next_attempt_at = NULL
        WHERE id = $1 AND status = 'pending'`,
      [d.id, attempts, now, out.status],
    )
    if (d.subscription_id !== null) {
      await tx.query(`UPDATE webhook_subscriptions SET status = 'active', failing_since = NULL WHERE id = $1 AND status = 'failing'`, [d.subscription_id])
    }
    return
  }
  const final = attempts >= cfg.maxAttempts
  const next = final ? null : new Date(now.getTime() + retryDelayMs(attempts, cfg.retryBaseMs, cfg.retryMaxDelayMs))
  await tx.query(
    `UPDATE webhook_deliveries SET status = $2, attempts = $3, last_attempt_at = $4, last_status = $5, last_error = $6, next_attempt_at = $7
      WHERE id = $1 AND status = 'pending'`,
    [d.id, final ? 'failed' : 'pending', attempts, now, out.status, out.error, next],
  )
  if (next) await enqueueDeliveries(tx, [d], now, next)
  else if (d.subscription_id !== null) await markFailing(tx, d.subscription_id, now)
}

async function markFailing(tx: Queryable, subscriptionId: number, now: Date): Promise<void> {
  await tx.query(`UPDATE webhook_subscriptions SET status = 'failing', failing_since = COALESCE(failing_since, $2) WHERE id = $1`, [subscriptionId, now])
}

export function deliverJob(ctx: AppContext & WebhookContext): JobHandler<'webhooks.deliver'> {
  return {
    kind: deliverKind,
    maxAttempts: deliverJobAttempts,
    async run({ deliveryId }, job) {
      const d = await loadPending(ctx.db, deliveryId)
      if (!d) return
      const now = job.clock.now()
      if (d.subscription_deleted) {
        await job.finish((tx) =>
          tx.query(
            `UPDATE webhook_deliveries SET status = 'failed', last_error = 'the subscription was deleted', next_attempt_at = NULL WHERE id = $1 AND status = 'pending'`,
            [d.id],
          ),
        )
        return
      }
      const out = await attempt(ctx, d)
      await job.finish((tx) => recordAttempt(tx, ctx, d, out, now))
    },
    // Deliveries are many and small: a batch is claimed at once, its attempts made concurrently, and
    // their outcomes recorded in one transaction (the queue's per-job transactions were the limit).
    batch: {
      max: DELIVERY_BATCH,
      async run(batch) {
        const jobOf = new Map<number, number>()
        for (const j of batch.jobs) if (!jobOf.has(j.payload.deliveryId)) jobOf.set(j.payload.deliveryId, j.id)
        const pending = await loadPendingMany(ctx.db, [...jobOf.keys()])
        const now = batch.clock.now()
        const deleted = pending.filter((d) => d.subscription_deleted)
        const done = await Promise.all(pending.filter((d) => !d.subscription_deleted).map(async (d) => ({ d, out: await attempt(ctx, d) })))
        await batch.finish(batch.jobs, async (tx, held) => {
          const mine = <T extends { id: number }>(d: T) => held.has(jobOf.get(d.id)!)
          if (deleted.some(mine)) {
            await tx.query(
              `UPDATE webhook_deliveries SET status = 'failed', last_error = 'the subscription was deleted', next_attempt_at = NULL
                WHERE id = ANY($1::bigint[]) AND status = 'pending'`,
              [deleted.filter(mine).map((d) => d.id)],
            )
          }
          await recordAttempts(
            tx,
            ctx,
            done.filter((x) => mine(x.d)),
            now,
          )
        })
      },
    },
    async onFailed({ deliveryId }, _reason, tx) {
      // Only an internal fault gets here (HTTP failures are rescheduled, not thrown); the detail stays in the job row.
      const { rows } = await tx.query<{ subscription_id: number | null }>(
        `UPDATE webhook_deliveries SET status = 'failed', last_error = 'the delivery failed on our side; redeliver it, or contact the operator', next_attempt_at = NULL
          WHERE id = $1 AND status = 'pending' RETURNING subscription_id`,
        [deliveryId],
      )
      const sub = rows[0]?.subscription_id
      if (sub != null) await markFailing(tx, sub, ctx.clock.now())
    },
  }
}
