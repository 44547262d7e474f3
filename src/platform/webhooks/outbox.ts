/**
 * The outbox: how anything in the service sends a webhook. Both functions take the transaction of
 * the state change they report, so the delivery row and its queue job commit with the change or not
 * at all (a crash after the commit still delivers: the job is in the queue; before it, nothing was
 * promised). The `webhooks.deliver` job (deliver.ts) sends, signs and retries.
 *
 * - emitEvent: one delivery per subscription of the client that asked for the event type;
 * - enqueueDelivery: one delivery to a target of the caller's own (the AdCP push_notification_config),
 *   signed with the caller's secret. This is the reusable delivery API.
 */
import type { Queryable } from '../db/db.ts'
import { enqueueMany, insertWithJobs } from '../jobs/queue.ts'
import type { WebhookEventType } from './events.ts'
import type { SecretCipher } from './secrets.ts'

declare module '../jobs/kinds.ts' {
  interface JobPayloads {
    'webhooks.deliver': { deliveryId: number }
  }
}

export const deliverKind = 'webhooks.deliver'
/** Queue attempts of one delivery job: only crashes and database faults use them (HTTP failures are rescheduled). */
export const deliverJobAttempts = 5

/** The body of an event, per Standard Webhooks: `{type, timestamp, data}`. */
export function eventBody(type: string, data: unknown, now: Date): string {
  return JSON.stringify({ type, timestamp: now.toISOString(), data })
}

// A message id per delivery, made by the database so one INSERT … SELECT serves every subscription.
const newMessageId = `'msg_' || replace(gen_random_uuid()::text, '-', '')`

export interface EventInput {
  clientId: number
  type: WebhookEventType
  /** The resource as its GET returns it. */
  data: unknown
  now: Date
}

/** Queues the event for every live subscription of the client that asked for its type; returns how many. */
export async function emitEvent(tx: Queryable, e: EventInput): Promise<number> {
  // One statement: the deliveries, their jobs and the NOTIFY (one round trip in the caller's transaction).
  const rows = await insertWithJobs(
    tx,
    `INSERT INTO webhook_deliveries (client_id, subscription_id, url, message_id, event_type, payload, created_date, next_attempt_at)
     SELECT client_id, id, url, ${newMessageId}, $2, $3, $4, $4 FROM webhook_subscriptions
      WHERE client_id = $1 AND deleted_at IS NULL AND $2 = ANY(event_types)
      ORDER BY id
     RETURNING id`,
    [e.clientId, e.type, eventBody(e.type, e.data, e.now), e.now],
    deliverKind,
    'deliveryId',
    { now: e.now, maxAttempts: deliverJobAttempts },
  )
  return rows.length
}

/**
 * Queues one test event for one subscription, whatever its event types; resolves to the delivery's
 * `returning` columns (the id by default), or null when there is no such subscription. One
 * statement, so it needs no transaction of its own.
 */
export async function emitTest<R extends { id: number } = { id: number }>(
  q: Queryable,
  clientId: number,
  subscriptionId: number,
  type: string,
  data: unknown,
  now: Date,
  returning = 'id',
): Promise<R | null> {
  const rows = await insertWithJobs<R, typeof deliverKind>(
    q,
    `INSERT INTO webhook_deliveries (client_id, subscription_id, url, message_id, event_type, payload, created_date, next_attempt_at)
     SELECT client_id, id, url, ${newMessageId}, $3, $4, $5, $5 FROM webhook_subscriptions
      WHERE client_id = $1 AND id = $2 AND deleted_at IS NULL
     RETURNING ${returning}`,
    [clientId, subscriptionId, type, eventBody(type, data, now), now],
    deliverKind,
    'deliveryId',
    { now, maxAttempts: deliverJobAttempts },
  )
  return rows[0] ?? null
}

export interface DirectDelivery {
  clientId: number
  /** Checked by the caller with checkWebhookUrl (a subscription's is checked when it is created). */
  url: string
  /** Signs the delivery (Standard Webhooks headers): a `whsec_…` secret, or any string used as UTF-8 bytes. */
  secret: string | null
  /** Extra request headers (e.g. `authorization: Bearer …`); stored encrypted with the secret. */
  headers?: Record<string, string>
  eventType: string
  /** The body: sent as given when a string, else as JSON. */
  payload: unknown
  /**
   * The body holds a secret of the receiver's (an AdCP push token): the bytes to send are stored
   * encrypted with the credentials, and the readable `payload` column keeps `redacted` instead.
   */
  sealed?: { redacted: unknown }
  /** A second call with the same key (per client) queues nothing and returns the first delivery. */
  idempotencyKey?: string
  now: Date
}

export interface DirectCredentials {
  secret: string | null
  headers: Record<string, string>
  /** The body to send, when it is sealed (DirectDelivery.sealed). */
  body?: string
}

/**
 * Queues one delivery to the caller's own target (reusable: the AdCP push notifications use it).
 * Retries, backoff and the stable webhook-id are the same as for subscriptions.
 */
export async function enqueueDelivery(tx: Queryable, cipher: SecretCipher, d: DirectDelivery): Promise<{ id: number; messageId: string }> {
  const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v))
  const creds: DirectCredentials = { secret: d.secret, headers: d.headers ?? {}, ...(d.sealed ? { body: text(d.payload) } : {}) }
  const body = text(d.sealed ? d.sealed.redacted : d.payload)
  const rows = await insertWithJobs<{ id: number; message_id: string }, typeof deliverKind>(
    tx,
    `INSERT INTO webhook_deliveries (client_id, url, credentials_enc, message_id, event_type, payload, idempotency_key, created_date, next_attempt_at)
     VALUES ($1, $2, $3, ${newMessageId}, $4, $5, $6, $7, $7)
     ON CONFLICT (client_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
     RETURNING id, message_id`,
    [d.clientId, d.url, cipher.encrypt(JSON.stringify(creds)), d.eventType, body, d.idempotencyKey ?? null, d.now],
    deliverKind,
    'deliveryId',
    { now: d.now, maxAttempts: deliverJobAttempts },
  )
  if (rows[0]) return { id: rows[0].id, messageId: rows[0].message_id }
  const existing = await tx.query<{ id: number; message_id: string }>(
    `SELECT id, message_id FROM webhook_deliveries WHERE client_id = $1 AND idempotency_key = $2`,
    [d.clientId, d.idempotencyKey],
  )
  return { id: existing.rows[0]!.id, messageId: existing.rows[0]!.message_id }
}

export async function enqueueDeliveries(tx: Queryable, rows: { id: number }[], now: Date, runAt?: Date): Promise<void> {
  if (!rows.length) return
  await enqueueMany(
    tx,
    deliverKind,
    rows.map((r) => ({ deliveryId: r.id })),
    { now, runAt, maxAttempts: deliverJobAttempts },
  )
}
