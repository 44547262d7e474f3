/**
 * Where a signal is deployed, per requested destination, read from the activation module's records:
 *  - platform (a DSP): the latest activation of the signal's segment on that DSP for that seat that
 *    has not failed, ended or been shut down. Live (is_live) once the deal is complete; the Deal ID is
 *    then decisioning_platform_segment_id and the estimate 0. While activating the Deal ID is already
 *    known (activation_key) and the estimate is the time left of the SSP's sync latency. Never
 *    activated: the estimate is the connector's latency (a known DSP seat is quicker than a new one),
 *    plus the build for a custom signal not built yet.
 *  - agent (a sales agent): live once activated and the segment is complete; the sales agent
 *    targets it by the key-value `curata_segment=<segment id>`.
 */
import { segmentStates } from '../activation/repository.ts'
import type { AdcpContext } from './context.ts'
import type { Target } from './destinations.ts'

export interface Deployment {
  type: 'platform' | 'agent'
  platform?: string
  agent_url?: string
  account?: string
  is_live: boolean
  scope: 'platform' | 'account'
  decisioning_platform_segment_id: string | null
  estimated_activation_duration_minutes: number
  activation_key?: { type: 'segment_id'; segment_id: string } | { type: 'key_value'; key: string; value: string }
  deployed_at?: string
}

export interface DeployableSignal {
  id: string
  type: 'marketplace' | 'owned' | 'custom'
  segment_id: number | null
}

export interface ActivationState {
  id: number
  segment_ids: number[]
  dsp: string
  buyer_seat: string
  status: 'pending' | 'processing' | 'complete' | 'failed'
  deal_id: string | null
  ready_at: Date | null
  processed_date: Date | null
  deal_state: 'live' | 'ended' | 'shut_down' | null
  failure_reason: string | null
}

export interface StoredDestination {
  type: 'platform' | 'agent'
  platform?: string
  dsp?: string
  agent_url?: string
  account: string | null
  activation_id: number | null
  /** Why the activation module refused this destination's deal. */
  error?: string
}

interface AdcpActivationRow {
  signal_id: string
  segment_id: number
  destinations: StoredDestination[]
  pending: boolean
  created_at: Date
}

export const agentKey = 'curata_segment'

/** Everything needed to describe deployments of some signals for some destinations, in four queries. */
export async function loadDeploymentState(ctx: AdcpContext, clientId: number, signals: DeployableSignal[]) {
  const segments = [...new Set(signals.flatMap((s) => (s.segment_id === null ? [] : [s.segment_id])))]
  const connector = ctx.connector
  const [activations, known, adcp, statuses] = await Promise.all([
    segments.length
      ? ctx.db.query<ActivationState>(
          `SELECT id, segment_ids, dsp, buyer_seat, status, deal_id, ready_at, processed_date, deal_state, failure_reason
             FROM activations WHERE client_id = $1 AND segment_ids && $2::bigint[] ORDER BY id DESC`,
          [clientId, segments],
        )
      : { rows: [] as ActivationState[] },
    ctx.db.query<{ dsp: string; buyer_seat: string }>(`SELECT dsp, buyer_seat FROM ssp_connections WHERE client_id = $1 AND connector = $2`, [
      clientId,
      connector.name,
    ]),
    ctx.db.query<AdcpActivationRow>(
      `SELECT signal_id, segment_id, destinations, pending, created_at FROM adcp_activations WHERE client_id = $1 AND signal_id = ANY($2::text[]) ORDER BY id DESC`,
      [clientId, signals.map((s) => s.id)],
    ),
    segmentStates(ctx.db, clientId, segments),
  ])
  // bigint[] comes back as strings from node-postgres (numbers from PGlite).
  const rows = activations.rows.map((a) => ({ ...a, segment_ids: a.segment_ids.map(Number) }))
  return { activations: rows, known: known.rows, adcp: adcp.rows, statuses }
}

export type DeploymentState = Awaited<ReturnType<typeof loadDeploymentState>>

const minutesUntil = (t: Date, now: Date): number => Math.max(1, Math.ceil((t.getTime() - now.getTime()) / 60_000))

/** Whether an activation still stands for its deal (not failed, ended or shut down). */
export const standing = (a: ActivationState): boolean => a.status !== 'failed' && (a.deal_state === null || a.deal_state === 'live')

export function platformDeployment(a: ActivationState | undefined, target: Extract<Target, { type: 'platform' }>, estimate: number, now: Date): Deployment {
  const live = a?.status === 'complete' && a.deal_state === 'live'
  const deal = a && a.status !== 'failed' ? a.deal_id : null
  return {
    type: 'platform',
    platform: target.platform,
    ...(target.account ? { account: target.account } : {}),
    is_live: live,
    scope: target.account ? 'account' : 'platform',
    decisioning_platform_segment_id: live ? deal : null,
    estimated_activation_duration_minutes: live ? 0 : a?.ready_at && a.status === 'processing' ? minutesUntil(a.ready_at, now) : estimate,
    ...(deal ? { activation_key: { type: 'segment_id' as const, segment_id: deal } } : {}),
    ...(live && a.processed_date ? { deployed_at: a.processed_date.toISOString() } : {}),
  }
}

/** Deployments of each signal for each target, in target order. */
export function describeDeployments(ctx: AdcpContext, state: DeploymentState, signals: DeployableSignal[], targets: Target[]): Map<string, Deployment[]> {
  const now = ctx.clock.now()
  const cfg = ctx.config.adcp
  const latency = ctx.config.activation
  const knownSeats = new Set(state.known.map((k) => `${k.dsp}\u0000${k.buyer_seat}`))
  const knownDsps = new Set(state.known.map((k) => k.dsp))
  const out = new Map<string, Deployment[]>()
  for (const s of signals) {
    const complete = s.segment_id !== null && state.statuses.get(s.segment_id)?.status === 'complete'
    const buildMinutes = s.type === 'custom' && !complete ? cfg.customBuildMinutes : 0
    const records = state.adcp.filter((r) => r.signal_id === s.id)
    const list: Deployment[] = []
    for (const t of targets) {
      if (t.type === 'platform') {
        const a = state.activations.find(
          (x) =>
            s.segment_id !== null &&
            x.segment_ids.includes(s.segment_id) &&
            x.dsp === t.dsp.slug &&
            (t.account === null || x.buyer_seat === t.account) &&
            standing(x),
        )
        const known = t.account === null ? knownDsps.has(t.dsp.slug) : knownSeats.has(`${t.dsp.slug}\u0000${t.account}`)
        const seconds = known ? latency.sandboxKnownConnectionSeconds : latency.sandboxNewConnectionSeconds
        list.push(platformDeployment(a, t, buildMinutes + Math.ceil(seconds / 60), now))
      } else {
        const record = records.find((r) =>
          r.destinations.some((d) => d.type === 'agent' && d.agent_url === t.agent_url && (t.account === null || d.account === t.account)),
        )
        list.push(agentDeployment(record ? { complete, segmentId: s.segment_id, at: record.created_at } : null, t, buildMinutes))
      }
    }
    out.set(s.id, list)
  }
  return out
}

export function agentDeployment(
  activated: { complete: boolean; segmentId: number | null; at: Date } | null,
  target: Extract<Target, { type: 'agent' }>,
  buildMinutes: number,
): Deployment {
  const live = activated !== null && activated.complete && activated.segmentId !== null
  return {
    type: 'agent',
    agent_url: target.agent_url,
    ...(target.account ? { account: target.account } : {}),
    is_live: live,
    scope: target.account ? 'account' : 'platform',
    decisioning_platform_segment_id: null,
    estimated_activation_duration_minutes: live ? 0 : buildMinutes,
    ...(live
      ? { activation_key: { type: 'key_value' as const, key: agentKey, value: String(activated.segmentId) }, deployed_at: activated.at.toISOString() }
      : {}),
  }
}
