import type { AppContext } from '../platform/context.ts'
import { connectorFor } from './connectors/index.ts'
import type { ActivationRow } from './repository.ts'
import { shapeTargeting } from './targeting.ts'

/**
 * Hands segment changes (optimizations, removals by domain, rebuilds; written by curation into
 * segment_changes) to every live deal of the changed segments, through the SSP connector.
 */
export async function propagateChanges(ctx: AppContext): Promise<number> {
  const { rows: cursor } = await ctx.db.query<{ last_change_id: number }>('SELECT last_change_id FROM activation_change_cursor WHERE id = 1')
  const after = cursor[0]?.last_change_id ?? 0
  const { rows: changes } = await ctx.db.query<{ id: number; segment_id: number }>(
    'SELECT id, segment_id FROM segment_changes WHERE id > $1 ORDER BY id LIMIT 1000',
    [after],
  )
  if (!changes.length) return 0
  const segments = [...new Set(changes.map((c) => c.segment_id))]
  const { rows: live } = await ctx.db.query<ActivationRow>(
    `SELECT * FROM activations WHERE deal_state = 'live' AND segment_ids && $1::bigint[]`,
    [segments],
  )
  const connector = connectorFor(ctx)
  const now = ctx.clock.now()
  for (const a of live) {
    const shaped = await shapeTargeting(ctx.db, a)
    await connector.updateDeal(a.deal_id!, shaped.targeting, now)
    await ctx.db.query('UPDATE activations SET targeting = $2 WHERE id = $1', [a.id, JSON.stringify(shaped.summary)])
  }
  await ctx.db.query('UPDATE activation_change_cursor SET last_change_id = $1 WHERE id = 1', [changes.at(-1)!.id])
  return live.length
}
