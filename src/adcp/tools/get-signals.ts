/**
 * get_signals: the catalog ranked against a signal_spec (ranking.ts), or the signals named by
 * signal_ids / signal_refs, or — with neither — the whole catalog (AdCP 3.1 "wholesale" discovery).
 * Each signal carries one deployment per requested destination (deployments.ts).
 */
import type { AgentDeps } from '../agent.ts'
import { dataProviderName, negotiateVersion } from '../agent.ts'
import type { StoredRequest } from '../context-store.ts'
import { loadContext, newContextId, saveContext } from '../context-store.ts'
import { customProposal, saveProposal } from '../custom.ts'
import { describeDeployments, loadDeploymentState } from '../deployments.ts'
import { checkCountries, requestedDestinations, resolveTargets } from '../destinations.ts'
import { minRelevance, rankSignals } from '../ranking.ts'
import { identity, renderSignal } from '../render.ts'
import { DomainError } from '../results.ts'
import type { GetSignalsInput, SignalRef } from '../schemas.ts'
import { settlePending } from '../settle.ts'
import { parseSignalId } from '../signal-ids.ts'
import type { SignalCandidate, SignalUniverse } from '../signals.ts'
import { agentSignals, customCandidate, loadSignals } from '../signals.ts'

const briefDefault = 10
const wholesaleDefault = 50
const pageMax = 100

const typeOrder = { owned: 0, custom: 1, marketplace: 2 } as const

function refId(ref: SignalRef): string | null {
  const raw = typeof ref === 'string' ? ref : (ref.id ?? ref.signal_id ?? null)
  return raw === null ? null : (parseSignalId(raw)?.id ?? null)
}

function decodeCursor(cursor: string | undefined): number {
  if (!cursor) return 0
  const m = /^o(\d{1,7})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'))
  if (!m) throw new DomainError('VALIDATION_ERROR', 'pagination.cursor is not a cursor this agent issued', 'correctable', 'pagination.cursor')
  return Number(m[1])
}
const encodeCursor = (offset: number): string => Buffer.from(`o${offset}`).toString('base64url')

async function lookUp(deps: AgentDeps, clientId: number, u: SignalUniverse, refs: SignalRef[]): Promise<SignalCandidate[]> {
  const ids = [...new Set(refs.map(refId).filter((x): x is string => x !== null))]
  const proposals = ids.some((id) => id.startsWith('custom:')) ? await agentSignals(deps.ctx, clientId) : new Map()
  return ids.flatMap((id) => {
    const c = u.byId.get(id)
    if (c) return [c]
    const p = proposals.get(id)
    return p ? [customCandidate(p, u)] : []
  })
}

function applyFilters(list: SignalCandidate[], f: GetSignalsInput['filters'], domain: string): SignalCandidate[] {
  if (!f) return list
  const providers = f.data_providers?.map((p) => p.toLowerCase())
  if (providers?.length && !providers.includes(dataProviderName.toLowerCase()) && !providers.includes(domain)) return []
  return list.filter(
    (c) =>
      (!f.catalog_types?.length || f.catalog_types.includes(c.type)) &&
      (f.max_cpm === undefined || c.cpm <= f.max_cpm) &&
      (f.min_coverage_percentage === undefined || c.coverage_percentage >= f.min_coverage_percentage),
  )
}

export async function getSignals(deps: AgentDeps, input: GetSignalsInput) {
  const version = negotiateVersion(input)
  const { ctx } = deps
  const { clientId } = await deps.principal()
  const now = ctx.clock.now()

  const earlier = input.context_id ? await loadContext(ctx.db, clientId, input.context_id, now) : null
  const asked = requestedDestinations(input)
  const request: StoredRequest = {
    signal_spec:
      input.signal_spec || (input.signal_ids || input.signal_refs || input.discovery_mode === 'wholesale' ? null : (earlier?.request.signal_spec ?? null)),
    destinations: asked.destinations ?? earlier?.request.destinations ?? null,
    countries: checkCountries(asked.countries, 'countries') ?? earlier?.request.countries ?? null,
  }
  const targets = resolveTargets(request.destinations ?? [], { field: 'destinations', requireAccount: false })
  const who = identity(deps)

  await settlePending(ctx, { clientId })
  const universe = await loadSignals(ctx, clientId)
  const refs = [...(input.signal_ids ?? []), ...(input.signal_refs ?? [])]
  const spec = input.discovery_mode === 'wholesale' ? null : request.signal_spec

  let list: SignalCandidate[]
  let proposal: Awaited<ReturnType<typeof saveProposal>> | null = null
  if (refs.length) {
    list = await lookUp(deps, clientId, universe, refs)
  } else if (spec) {
    list = rankSignals(spec, universe.candidates)
      .filter((r) => r.score >= minRelevance)
      .map((r) => r.item)
    const p = customProposal(spec)
    if (p && !universe.byId.has(p.signal_id)) {
      proposal = { ...p, segment_id: null }
      // Built for the spec, but not ready yet: right after the best ready match.
      list.splice(Math.min(1, list.length), 0, customCandidate(proposal, universe))
    }
  } else {
    list = rankSignals(null, universe.candidates)
      .map((r) => r.item)
      .sort((a, b) => typeOrder[a.type] - typeOrder[b.type])
  }
  list = applyFilters(list, input.filters, who.domain)

  const pageSize = Math.min(
    pageMax,
    input.pagination?.max_results ?? input.max_results ?? (refs.length ? Math.max(briefDefault, refs.length) : spec ? briefDefault : wholesaleDefault),
  )
  const offset = decodeCursor(input.pagination?.cursor)
  const page = list.slice(offset, offset + pageSize)
  const hasMore = offset + pageSize < list.length

  if (proposal && page.some((c) => c.id === proposal.signal_id)) await saveProposal(ctx.db, clientId, proposal, now)
  const state = await loadDeploymentState(ctx, clientId, page)
  const deployments = describeDeployments(ctx, state, page, targets)
  const signals = page.map((c) => renderSignal(c, deployments.get(c.id) ?? [], who))

  const contextId = earlier?.id ?? newContextId()
  await saveContext(ctx.db, clientId, { id: contextId, request, signal_ids: page.map((c) => c.id) }, now)

  return {
    status: 'completed',
    adcp_version: version,
    message: summarize(spec, refs.length > 0, signals, list.length),
    context_id: contextId,
    cache_scope: input.account === undefined ? 'public' : 'account',
    signals,
    pagination: { has_more: hasMore, ...(hasMore ? { cursor: encodeCursor(offset + pageSize) } : {}), total_count: list.length },
    sandbox: ctx.connector.sandbox,
    ...(input.context ? { context: input.context } : {}),
  }
}

function summarize(spec: string | null, byId: boolean, signals: ReturnType<typeof renderSignal>[], total: number): string {
  if (!signals.length) {
    if (byId) return 'None of the requested signals exist (for this client).'
    return spec ? `No signal matches "${spec}"; try a broader description, or other filters.` : 'The catalog is empty: no segment has enough indexed pages yet.'
  }
  const counts = (['marketplace', 'owned', 'custom'] as const).map((t) => [t, signals.filter((s) => s.signal_type === t).length] as const).filter(([, n]) => n)
  const best = signals[0]!
  const live = signals.filter((s) => s.deployments.some((d) => d.is_live)).length
  return [
    `${byId ? 'Found' : spec ? `Found ${total} signal${total === 1 ? '' : 's'} for "${spec}"; showing` : 'Catalog:'} ${signals.length} (${counts.map(([t, n]) => `${n} ${t}`).join(', ')}).`,
    `${byId || !spec ? 'First' : 'Best match'}: ${best.name} (${best.signal_agent_segment_id}), ${best.coverage_percentage}% coverage, CPM ${best.pricing.cpm.toFixed(2)} ${best.pricing.currency}.`,
    live ? `${live} ${live === 1 ? 'is' : 'are'} live on a requested destination.` : '',
    'Activate one with activate_signal and its signal_agent_segment_id.',
  ]
    .filter(Boolean)
    .join(' ')
}
