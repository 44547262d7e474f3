import type { ActivationContext } from './context.ts'
import type { ActivationRow } from './repository.ts'
import { shapeTargeting } from './targeting.ts'

/**
 * Hands segment changes (optimizations, removals by domain, rebuilds; written by curation into
 * segment_changes) to every deal of the changed segments that the SSP holds, through the connector.
 * A deal of a deleted segment is ended instead.
 *
 * Each change row is marked propagated once handled, rather than read past an id cursor: ids are
 * taken when a transaction inserts, not when it commits, so a change committed late with a lower id
 * would fall behind a cursor for good. A change of a segment whose activation is still being issued
 * (no deal id recorded yet) waits for a later run: the issuing job may have shaped its targeting
 * before the change committed, and once its deal id is recorded the change is pushed to it.
 */
export async function propagateChanges(ctx: ActivationContext): Promise<number> {
  const { rows: changes } = await ctx.db.query<{ id: number; segment_id: number }>(
    `SELECT c.id, c.segment_id FROM segment_changes c
      WHERE c.propagated_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM activations a
                         WHERE a.segment_ids @> ARRAY[c.segment_id] AND a.status IN ('pending', 'processing') AND a.deal_id IS NULL)
      ORDER BY c.id LIMIT 1000`,
  )
  if (!changes.length) return 0
  const segments = [...new Set(changes.map((c) => c.segment_id))]
  // Deals the SSP holds: live ones, and issued ones still waiting out the sync latency.
  const { rows: deals } = await ctx.db.query<ActivationRow>(
    `SELECT * FROM activations
      WHERE deal_id IS NOT NULL AND (deal_state = 'live' OR status = 'processing') AND segment_ids && $1::bigint[]
      ORDER BY id`,
    [segments],
  )
  const { rows: deleted } = await ctx.db.query<{ id: number }>('SELECT id FROM segment_requests WHERE id = ANY($1::bigint[]) AND deleted', [segments])
  const gone = new Set(deleted.map((d) => Number(d.id)))
  const connector = ctx.connector
  const now = ctx.clock.now()
  for (const a of deals) {
    const removed = a.segment_ids.map(Number).find((id) => gone.has(id))
    if (removed !== undefined) {
      // A deal serves its segments' URL lists as a whole: once one of them is deleted, the deal stops.
      await ctx.db.query(
        `UPDATE activations SET deal_state = 'ended', deal_state_changed_at = $2, deal_state_reason = $3 WHERE id = $1 AND deal_state IS DISTINCT FROM 'ended'`,
        [a.id, now, `segment ${removed} was deleted; the deal no longer serves`],
      )
      await connector.deactivateDeal(a.deal_id!, 'segment deleted', now)
      continue
    }
    const shaped = await shapeTargeting(ctx.db, a)
    await connector.updateDeal(a.deal_id!, shaped.targeting, now)
    await ctx.db.query('UPDATE activations SET targeting = $2 WHERE id = $1', [a.id, JSON.stringify(shaped.summary)])
  }
  // Marked only after every deal has it: a crash before this line pushes the changes again (updateDeal
  // sets the whole targeting, so a repeat is harmless).
  await ctx.db.query('UPDATE segment_changes SET propagated_at = $2 WHERE id = ANY($1::bigint[])', [changes.map((c) => c.id), now])
  return deals.length
}
