/**
 * Deals behind AdCP activations, made through the activation module (createActivation: its
 * validation, its job that asks the SSP connector for the Deal ID). An activation already standing
 * for the segment on that DSP seat (not failed, ended or shut down) is reused rather than doubled.
 *
 * A custom signal's activation waits for its segment build: it is recorded `pending` and settled —
 * its deals created — once the segment is complete, by the periodic `adcp.settle` job, or sooner by
 * the next AdCP call that looks at it. A process settling one holds it for a minute, so two do not
 * settle the same one.
 */
import { createActivation } from '../activation/create.ts'
import { ApiError } from '../platform/http/errors.ts'
import type { JobHandler } from '../platform/jobs/handler.ts'
import type { Periodic } from '../platform/jobs/kinds.ts'
import type { AdcpContext } from './context.ts'
import type { StoredDestination } from './deployments.ts'

export const settleKind = 'adcp.settle'

declare module '../platform/jobs/kinds.ts' {
  interface JobPayloads {
    'adcp.settle': Periodic
  }
}
const holdMs = 60_000

/** The activation of a segment on a DSP seat: the one standing, else a new one. */
export async function ensureDeal(ctx: AdcpContext, clientId: number, segmentId: number, dsp: string, seat: string, geo: string[] | null): Promise<number> {
  const { rows } = await ctx.db.query<{ id: number }>(
    `SELECT id FROM activations
      WHERE client_id = $1 AND $2 = ANY(segment_ids) AND dsp = $3 AND buyer_seat = $4
        AND status <> 'failed' AND (deal_state IS NULL OR deal_state = 'live')
      ORDER BY id DESC LIMIT 1`,
    [clientId, segmentId, dsp, seat],
  )
  if (rows[0]) return rows[0].id
  const row = await createActivation(ctx, clientId, { segment_ids: [segmentId], dsp, buyer_seat: seat, ...(geo?.length ? { geo } : {}) })
  return row.id
}

/**
 * Creates the deals of every platform destination that has none yet; returns the destinations. A
 * deal the activation module refuses (a 4xx: the segment is gone, a rule it checks) is recorded on
 * its destination as `error`.
 */
export async function createDeals(
  ctx: AdcpContext,
  clientId: number,
  segmentId: number,
  destinations: StoredDestination[],
  geo: string[] | null,
): Promise<StoredDestination[]> {
  const out: StoredDestination[] = []
  for (const d of destinations) {
    if (d.type !== 'platform' || d.activation_id !== null || d.error || !d.dsp || !d.account) {
      out.push(d)
      continue
    }
    try {
      out.push({ ...d, activation_id: await ensureDeal(ctx, clientId, segmentId, d.dsp, d.account, geo) })
    } catch (err) {
      if (!(err instanceof ApiError) || err.status >= 500) throw err
      out.push({ ...d, error: err.message })
    }
  }
  return out
}

interface PendingRow {
  id: number
  client_id: number
  segment_id: number
  destinations: StoredDestination[]
  geo: string[] | null
}

/** Settles pending activations whose segment is complete (all, or one client's, or one). Returns how many. */
export async function settlePending(ctx: AdcpContext, scope: { clientId?: number; id?: number } = {}): Promise<number> {
  const now = ctx.clock.now()
  const { rows } = await ctx.db.query<{ id: number }>(
    `SELECT a.id FROM adcp_activations a JOIN segment_requests s ON s.id = a.segment_id AND s.client_id = a.client_id
      WHERE a.pending AND s.status = 'complete' AND (a.settling_until IS NULL OR a.settling_until < $1)
        AND ($2::bigint IS NULL OR a.client_id = $2) AND ($3::bigint IS NULL OR a.id = $3)
      ORDER BY a.id LIMIT 100`,
    [now, scope.clientId ?? null, scope.id ?? null],
  )
  let settled = 0
  for (const { id } of rows) {
    const { rows: claimed } = await ctx.db.query<PendingRow>(
      `UPDATE adcp_activations SET settling_until = $2
        WHERE id = $1 AND pending AND (settling_until IS NULL OR settling_until < $3)
        RETURNING id, client_id, segment_id, destinations, geo`,
      [id, new Date(now.getTime() + holdMs), now],
    )
    const p = claimed[0]
    if (!p) continue
    const destinations = await createDeals(ctx, p.client_id, p.segment_id, p.destinations, p.geo)
    await ctx.db.query(`UPDATE adcp_activations SET destinations = $2::jsonb, pending = false, settling_until = NULL WHERE id = $1`, [
      p.id,
      JSON.stringify(destinations),
    ])
    settled++
  }
  return settled
}

export function adcpJobs(ctx: AdcpContext): JobHandler[] {
  return [{ kind: settleKind, everyMs: 15_000, run: () => settlePending(ctx) } satisfies JobHandler<'adcp.settle'>]
}
