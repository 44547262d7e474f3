/**
 * The answer to activate_signal, read back from what was recorded (so an idempotent replay answers
 * with the current state of the same activations): per destination the deployment (3.x) and the
 * spec's activation object (Deal ID, status activating / deployed / failed, estimate).
 */
import { resolveDsp } from '../../activation/registry.ts'
import { segmentStates } from '../../activation/repository.ts'
import type { AgentDeps } from '../agent.ts'
import { newContextId } from '../context-store.ts'
import type { ActivationState, Deployment, StoredDestination } from '../deployments.ts'
import { agentDeployment, platformDeployment } from '../deployments.ts'
import { DomainError } from '../results.ts'

export interface ActivationRecord {
  id: number
  idempotency_key: string | null
  request_hash: string
  signal_id: string
  segment_id: number
  context_id: string | null
  destinations: StoredDestination[]
  geo: string[] | null
  pending: boolean
  created_at: Date
}

interface RenderExtra {
  replayed?: boolean
  context?: Record<string, unknown> | undefined
  contextId?: string
  name?: string
}

export async function render(deps: AgentDeps, clientId: number, record: ActivationRecord, version: string, extra: RenderExtra) {
  const { ctx } = deps
  const now = ctx.clock.now()
  const connector = ctx.connector
  const ids = record.destinations.flatMap((d) => (d.activation_id === null ? [] : [d.activation_id]))
  const [acts, known, statuses] = await Promise.all([
    ctx.db.query<ActivationState & { failure_reason: string | null }>(
      `SELECT id, segment_ids, dsp, buyer_seat, status, deal_id, ready_at, processed_date, deal_state, failure_reason
         FROM activations WHERE client_id = $1 AND id = ANY($2::bigint[])`,
      [clientId, ids],
    ),
    ctx.db.query<{ dsp: string; buyer_seat: string }>(`SELECT dsp, buyer_seat FROM ssp_connections WHERE client_id = $1 AND connector = $2`, [
      clientId,
      connector.name,
    ]),
    segmentStates(ctx.db, clientId, [record.segment_id]),
  ])
  const byId = new Map(acts.rows.map((a) => [a.id, a]))
  const complete = statuses.get(record.segment_id)?.status === 'complete'
  const build = complete ? 0 : ctx.config.adcp.customBuildMinutes
  const latency = ctx.config.activation
  const deployments: Deployment[] = []
  const activations = record.destinations.map((d) => {
    if (d.type === 'agent') {
      const dep = agentDeployment(
        complete || !record.pending ? { complete, segmentId: record.segment_id, at: record.created_at } : null,
        { type: 'agent', agent_url: d.agent_url!, account: d.account },
        build,
      )
      deployments.push(dep)
      return {
        signal_agent_segment_id: record.signal_id,
        deal_id: null,
        platform: 'agent',
        agent_url: d.agent_url!,
        account: d.account,
        status: dep.is_live ? 'deployed' : 'activating',
        estimated_activation_duration_minutes: dep.estimated_activation_duration_minutes,
        activation_key: dep.activation_key ?? null,
        segment_id: record.segment_id,
      }
    }
    const a = d.activation_id === null ? undefined : byId.get(d.activation_id)
    const knownSeat = known.rows.some((k) => k.dsp === d.dsp && k.buyer_seat === d.account)
    const estimate = build + Math.ceil((knownSeat ? latency.sandboxKnownConnectionSeconds : latency.sandboxNewConnectionSeconds) / 60)
    const dep = platformDeployment(a, { type: 'platform', platform: d.platform!, dsp: resolveDsp(d.dsp!)!, account: d.account }, estimate, now)
    const failure = d.error ?? (a?.status === 'failed' ? (a.failure_reason ?? 'the deal could not be issued') : null)
    if (failure) dep.estimated_activation_duration_minutes = 0
    deployments.push(dep)
    return {
      signal_agent_segment_id: record.signal_id,
      deal_id: a && a.status !== 'failed' ? a.deal_id : null,
      platform: d.platform!,
      account: d.account,
      status: failure ? 'failed' : dep.is_live ? 'deployed' : 'activating',
      estimated_activation_duration_minutes: dep.estimated_activation_duration_minutes,
      activation_id: a?.id ?? null,
      activation_status: a?.status ?? (record.pending ? 'waiting_for_segment_build' : null),
      segment_id: record.segment_id,
      rest_url: a ? `/v1/curation/activations/${a.id}` : null,
      ...(failure ? { failure_reason: failure } : {}),
    }
  })
  const failed = activations.filter((a) => a.status === 'failed')
  if (failed.length === activations.length) {
    throw new DomainError(
      'ACTIVATION_FAILED',
      `activation of ${record.signal_id} failed: ${failed.map((f) => `${f.platform}: ${'failure_reason' in f ? f.failure_reason : ''}`).join('; ')}`,
      'correctable',
      'destinations',
    )
  }
  return {
    status: 'completed',
    adcp_version: version,
    message:
      describe(record, activations, extra.name) + (connector.sandbox ? ' The sandbox SSP connector issued the deals: they do not serve impressions.' : ''),
    context_id: extra.contextId ?? record.context_id ?? newContextId(),
    deployments,
    activation: activations[0]!,
    activations,
    sandbox: connector.sandbox,
    ...(extra.replayed ? { replayed: true } : {}),
    ...(extra.context ? { context: extra.context } : {}),
  }
}

function describe(
  record: ActivationRecord,
  activations: { platform: string; account: string | null; status: string; deal_id: string | null; estimated_activation_duration_minutes: number }[],
  name?: string,
): string {
  const what = name ? `${name} (${record.signal_id})` : record.signal_id
  const parts = activations.map((a) => {
    const where = `${a.platform}${a.account ? ` for ${a.account}` : ''}`
    if (a.status === 'failed') return `failed on ${where}`
    if (a.status === 'deployed') return `live on ${where}${a.deal_id ? ` as Deal ID ${a.deal_id}` : ''}`
    const deal = a.deal_id ? `Deal ID ${a.deal_id}` : record.pending ? 'the segment is being built, then the Deal ID is issued' : 'the Deal ID is being issued'
    return `activating on ${where}: ${deal}, live in about ${a.estimated_activation_duration_minutes} min`
  })
  return `${what}: ${parts.join('; ')}. Deployments show in get_signals (is_live once live).`
}
