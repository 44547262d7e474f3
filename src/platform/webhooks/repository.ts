/** Subscriptions and deliveries (migrations/0014). Every query takes the client: another's record is not found. */
import type { Queryable } from '../db/db.ts'
import type { Delivery, Webhook } from './types.ts'

interface SubscriptionRow {
  id: number
  url: string
  event_types: string[]
  description: string | null
  status: 'active' | 'failing'
  failing_since: Date | null
  created_date: Date
}

const subscriptionColumns = 'id, url, event_types, description, status, failing_since, created_date'

export async function createSubscription(
  q: Queryable,
  clientId: number,
  s: { url: string; eventTypes: string[]; description: string | null; secretEnc: string },
  now: Date,
): Promise<Webhook> {
  const { rows } = await q.query<SubscriptionRow>(
    `INSERT INTO webhook_subscriptions (client_id, url, event_types, description, secret_enc, created_date)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${subscriptionColumns}`,
    [clientId, s.url, s.eventTypes, s.description, s.secretEnc, now],
  )
  return rows[0]!
}

export async function countSubscriptions(q: Queryable, clientId: number): Promise<number> {
  const { rows } = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_subscriptions WHERE client_id = $1 AND deleted_at IS NULL`, [clientId])
  return rows[0]?.n ?? 0
}

export async function listSubscriptions(q: Queryable, clientId: number): Promise<Webhook[]> {
  const { rows } = await q.query<SubscriptionRow>(
    `SELECT ${subscriptionColumns} FROM webhook_subscriptions WHERE client_id = $1 AND deleted_at IS NULL ORDER BY id`,
    [clientId],
  )
  return rows
}

export async function getSubscription(q: Queryable, clientId: number, id: number): Promise<Webhook | null> {
  const { rows } = await q.query<SubscriptionRow>(
    `SELECT ${subscriptionColumns} FROM webhook_subscriptions WHERE id = $1 AND client_id = $2 AND deleted_at IS NULL`,
    [id, clientId],
  )
  return rows[0] ?? null
}

/** Soft delete: nothing more is sent to it (pending deliveries fail at their next attempt). */
export async function deleteSubscription(q: Queryable, clientId: number, id: number, now: Date): Promise<boolean> {
  const { rowCount } = await q.query(`UPDATE webhook_subscriptions SET deleted_at = $3 WHERE id = $1 AND client_id = $2 AND deleted_at IS NULL`, [
    id,
    clientId,
    now,
  ])
  return rowCount > 0
}

export interface DeliveryRow {
  id: number
  message_id: string
  event_type: string
  status: Delivery['status']
  attempts: number
  next_attempt_at: Date | null
  last_attempt_at: Date | null
  last_status: number | null
  last_error: string | null
  delivered_at: Date | null
  created_date: Date
  payload: string
}

export const deliveryColumns = `id, message_id, event_type, status, attempts, next_attempt_at, last_attempt_at, last_status, last_error, delivered_at,
  created_date, payload`

export function deliveryView(r: DeliveryRow): Delivery {
  let payload: unknown = r.payload
  try {
    payload = JSON.parse(r.payload)
  } catch {
    // a direct delivery's body need not be JSON: shown as the text sent
  }
  return {
    id: r.id,
    webhook_id: r.message_id,
    event_type: r.event_type,
    status: r.status,
    attempts: r.attempts,
    next_attempt_date: r.status === 'pending' ? r.next_attempt_at : null,
    last_attempt_date: r.last_attempt_at,
    last_response_status: r.last_status,
    last_error: r.last_error,
    delivered_date: r.delivered_at,
    created_date: r.created_date,
    payload,
  }
}

/** A subscription's deliveries, newest first. */
export async function listDeliveries(
  q: Queryable,
  clientId: number,
  subscriptionId: number,
  opts: { limit: number; offset: number; status?: string },
): Promise<Delivery[]> {
  const { rows } = await q.query<DeliveryRow>(
    `SELECT ${deliveryColumns} FROM webhook_deliveries
      WHERE client_id = $1 AND subscription_id = $2 AND ($3::text IS NULL OR status = $3)
      ORDER BY id DESC LIMIT $4 OFFSET $5`,
    [clientId, subscriptionId, opts.status ?? null, opts.limit, opts.offset],
  )
  return rows.map(deliveryView)
}

export async function getDelivery(q: Queryable, clientId: number, subscriptionId: number, id: number): Promise<Delivery | null> {
  const { rows } = await q.query<DeliveryRow>(`SELECT ${deliveryColumns} FROM webhook_deliveries WHERE id = $1 AND client_id = $2 AND subscription_id = $3`, [
    id,
    clientId,
    subscriptionId,
  ])
  return rows[0] ? deliveryView(rows[0]) : null
}

/** Puts a finished delivery back to pending with a fresh round of attempts (same webhook-id); null when it is still pending. */
export async function resetDelivery(q: Queryable, clientId: number, subscriptionId: number, id: number, now: Date): Promise<Delivery | null> {
  const { rows } = await q.query<DeliveryRow>(
    `UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = $4, delivered_at = NULL
      WHERE id = $1 AND client_id = $2 AND subscription_id = $3 AND status <> 'pending' RETURNING ${deliveryColumns}`,
    [id, clientId, subscriptionId, now],
  )
  return rows[0] ? deliveryView(rows[0]) : null
}
