/**
 * context_id: a conversation with the agent. get_signals opens one (or continues the one it is
 * given) and stores what was asked; a follow-up call naming it inherits what it leaves out — a
 * refined get_signals keeps the spec and destinations, activate_signal the destinations and
 * countries. Contexts belong to their client and are forgotten after 30 days without use.
 */
import { randomBytes } from 'node:crypto'

import type { Queryable } from '../platform/db/db.ts'
import { DomainError } from './results.ts'
import type { Destination } from './schemas.ts'

export const contextTtlDays = 30

export interface StoredRequest {
  signal_spec: string | null
  destinations: Destination[] | null
  countries: string[] | null
}

export interface StoredContext {
  id: string
  request: StoredRequest
  signal_ids: string[]
}

export const newContextId = (): string => `ctx_${randomBytes(16).toString('base64url')}`

/** The client's context; an unknown, expired or foreign id is a readable error. */
export async function loadContext(db: Queryable, clientId: number, id: string, now: Date): Promise<StoredContext> {
  const { rows } = await db.query<StoredContext>(`SELECT id, request, signal_ids FROM adcp_contexts WHERE id = $1 AND client_id = $2 AND updated_at > $3`, [
    id,
    clientId,
    new Date(now.getTime() - contextTtlDays * 86_400_000),
  ])
  if (!rows[0]) {
    throw new DomainError(
      'REFERENCE_NOT_FOUND',
      `context_id ${id} is unknown or has expired; call get_signals without it to start a new one`,
      'correctable',
      'context_id',
    )
  }
  return rows[0]
}

/** Creates or updates a context (and forgets the client's expired ones). */
export async function saveContext(db: Queryable, clientId: number, ctx: StoredContext, now: Date): Promise<void> {
  await db.query(
    `INSERT INTO adcp_contexts (id, client_id, request, signal_ids, created_at, updated_at) VALUES ($1, $2, $3::jsonb, $4, $5, $5)
     ON CONFLICT (id) DO UPDATE SET request = EXCLUDED.request, signal_ids = EXCLUDED.signal_ids, updated_at = EXCLUDED.updated_at
      WHERE adcp_contexts.client_id = EXCLUDED.client_id`,
    [ctx.id, clientId, JSON.stringify(ctx.request), ctx.signal_ids, now],
  )
  await db.query(`DELETE FROM adcp_contexts WHERE client_id = $1 AND updated_at < $2`, [clientId, new Date(now.getTime() - contextTtlDays * 86_400_000)])
}

/** Marks a context as used (activate_signal keeps it alive without changing what it holds). */
export async function touchContext(db: Queryable, clientId: number, id: string, now: Date): Promise<void> {
  await db.query(`UPDATE adcp_contexts SET updated_at = $3 WHERE id = $1 AND client_id = $2`, [id, clientId, now])
}
