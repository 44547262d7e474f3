/**
 * activate_signal with `action: "deactivate"`: ends the signal's deals on the destinations named
 * (their Deal IDs stop serving, the SSP is told, a `deal.stopped` event is sent). A signal never
 * activated there answers the same way: nothing of it is live. A deal still waiting for its Deal
 * ID cannot be ended yet: INVALID_STATE (transient).
 */
import { endDeals } from '../../activation/lifecycle.ts'
import type { AgentDeps } from '../agent.ts'
import type { AdcpContext } from '../context.ts'
import type { Target } from '../destinations.ts'
import { DomainError } from '../results.ts'
import type { ParsedSignalId } from '../signal-ids.ts'

/** The client's segment behind a signal, if it was ever activated (nothing is created here). */
async function existingSegment(ctx: AdcpContext, clientId: number, parsed: ParsedSignalId): Promise<number | null> {
  if (parsed.kind === 'segment') return parsed.segmentId
  const { rows } = await ctx.db.query<{ segment_id: number | null }>(`SELECT segment_id FROM adcp_signals WHERE client_id = $1 AND signal_id = $2`, [
    clientId,
    parsed.id,
  ])
  return rows[0]?.segment_id ?? null
}

export async function deactivateSignal(
  deps: AgentDeps,
  clientId: number,
  parsed: ParsedSignalId,
  targets: Target[],
  out: { version: string; context?: Record<string, unknown> | undefined },
) {
  const { ctx } = deps
  const segmentId = await existingSegment(ctx, clientId, parsed)
  const platforms = targets.filter((t) => t.type === 'platform')
  let ended: number[] = []
  if (segmentId !== null && platforms.length) {
    const { rows } = await ctx.db.query<{ id: number; dsp: string; buyer_seat: string; deal_id: string | null; status: string }>(
      `SELECT id, dsp, buyer_seat, deal_id, status FROM activations
        WHERE client_id = $1 AND $2 = ANY(segment_ids) AND status <> 'failed'
          AND deal_state IS DISTINCT FROM 'ended' AND deal_state IS DISTINCT FROM 'shut_down'`,
      [clientId, segmentId],
    )
    const wanted = rows.filter((a) => platforms.some((t) => t.dsp.slug === a.dsp && (t.account === null || t.account === a.buyer_seat)))
    if (wanted.some((a) => a.deal_id === null)) {
      throw new DomainError(
        'INVALID_STATE',
        `a deal of ${parsed.id} is still being issued; deactivate it once it has its Deal ID (within minutes)`,
        'transient',
        'signal_agent_segment_id',
      )
    }
    ended = await endDeals(
      ctx,
      clientId,
      wanted.map((a) => Number(a.id)),
      `deactivated by the buyer (AdCP activate_signal, action: deactivate) for ${parsed.id}`,
    )
  }
  const deployments = targets.map((t) =>
    t.type === 'platform'
      ? { type: 'platform', platform: t.platform, account: t.account, is_live: false, scope: t.account === null ? 'platform' : 'account' }
      : { type: 'agent', agent_url: t.agent_url, account: t.account, is_live: false },
  )
  return {
    status: 'completed',
    adcp_version: out.version,
    message: ended.length
      ? `${parsed.id}: ended ${ended.length} deal${ended.length === 1 ? '' : 's'} on the destinations named; they no longer serve.`
      : `${parsed.id}: nothing of it is live on the destinations named; no deal to end.`,
    deployments,
    ext: { curata: { ended_activation_ids: ended } },
    sandbox: ctx.connector.sandbox,
    ...(out.context ? { context: out.context } : {}),
  }
}
