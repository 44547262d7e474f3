import type { ActivationContext } from './context.ts'
import { emitActivationEvent } from './events.ts'

/** A live deal unused for longer than this is shut down (spec part 3: "more than about 2 weeks"). */
export const unusedShutdownMs = 14 * 24 * 3_600_000

/**
 * The Deal ID lifecycle after issuance, run hourly against the injectable clock: use recorded in
 * deal_usage keeps a deal live; a passed end_date ends it; more than 14 days without use shuts it
 * down. Either way the SSP is told, and a new activation of the segment issues a new Deal ID.
 */
export async function runLifecycle(ctx: ActivationContext): Promise<{ ended: number; shutDown: number }> {
  const now = ctx.clock.now()
  const today = now.toISOString().slice(0, 10)
  // Use on day D counts as use at the end of D.
  await ctx.db.query(
    `UPDATE activations a SET last_used_at = u.last_used
       FROM (SELECT deal_id, (max(day) + 1)::timestamp AT TIME ZONE 'UTC' AS last_used
               FROM deal_usage WHERE impressions > 0 GROUP BY deal_id) u
      WHERE a.deal_id = u.deal_id AND (a.last_used_at IS NULL OR a.last_used_at < u.last_used)`,
  )
  // A stopped deal's event commits with its new state.
  const { ended, shutDown } = await ctx.db.transaction(async (tx) => {
    const ended = await tx.query<{ id: number; client_id: number; deal_id: string; end_date: string }>(
      `UPDATE activations SET deal_state = 'ended', deal_state_changed_at = $2,
            deal_state_reason = 'end_date ' || end_date::text || ' has passed; the deal no longer serves'
      WHERE deal_state = 'live' AND end_date IS NOT NULL AND end_date < $1::date
      RETURNING id, client_id, deal_id, end_date`,
      [today, now],
    )
    const shutDown = await tx.query<{ id: number; client_id: number; deal_id: string }>(
      `UPDATE activations SET deal_state = 'shut_down', deal_state_changed_at = $2,
            deal_state_reason = 'unused for more than 14 days; the SSP shut the deal down'
      WHERE deal_state = 'live' AND coalesce(last_used_at, processed_date) < $1
      RETURNING id, client_id, deal_id`,
      [new Date(now.getTime() - unusedShutdownMs), now],
    )
    for (const r of [...ended.rows, ...shutDown.rows]) await emitActivationEvent(ctx, tx, r.client_id, r.id, 'deal.stopped', now)
    return { ended, shutDown }
  })
  const connector = ctx.connector
  for (const r of ended.rows) await connector.deactivateDeal(r.deal_id, 'end_date passed', now)
  for (const r of shutDown.rows) await connector.deactivateDeal(r.deal_id, 'unused', now)
  return { ended: ended.rows.length, shutDown: shutDown.rows.length }
}

/**
 * Ends deals now, at the buyer's request (AdCP deactivation): each of the client's activations named
 * that has a Deal ID and still serves is ended, with an event, and the SSP is told. Returns the ids
 * ended. An activation still waiting for its Deal ID is not touched (the caller says so).
 */
export async function endDeals(ctx: ActivationContext, clientId: number, ids: number[], reason: string): Promise<number[]> {
  const now = ctx.clock.now()
  const ended = await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: number; deal_id: string }>(
      `UPDATE activations SET deal_state = 'ended', deal_state_changed_at = $3, deal_state_reason = $4
        WHERE client_id = $1 AND id = ANY($2::bigint[]) AND deal_id IS NOT NULL AND status <> 'failed'
          AND deal_state IS DISTINCT FROM 'ended' AND deal_state IS DISTINCT FROM 'shut_down'
        RETURNING id, deal_id`,
      [clientId, ids, now, reason],
    )
    for (const r of rows) await emitActivationEvent(ctx, tx, clientId, r.id, 'deal.stopped', now)
    return rows
  })
  for (const r of ended) await ctx.connector.deactivateDeal(r.deal_id, reason, now)
  return ended.map((r) => Number(r.id))
}
