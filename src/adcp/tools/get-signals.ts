/**
 * get_signals: the catalog ranked against a signal_spec (ranking.ts), or the signals named by
 * signal_ids / signal_refs, or — with neither — the whole catalog (AdCP 3.1 "wholesale" discovery).
 * Each signal carries one deployment per requested destination (deployments.ts).
 */
import { createHash } from 'node:crypto'
import type { AccountScope } from '../accounts.ts'
import { accountScope } from '../accounts.ts'
import type { AgentDeps } from '../agent.ts'
import { dataProviderName, negotiateVersion } from '../agent.ts'
import type { StoredRequest } from '../context-store.ts'
import { loadContext, newContextId, saveContext } from '../context-store.ts'
import { customProposal, saveProposal } from '../custom.ts'
import { describeDeployments, loadDeploymentState } from '../deployments.ts'
import { checkCountries, requestedDestinations, resolveTargets } from '../destinations.ts'
import { minRelevance, rankSignals } from '../ranking.ts'
import type { ReadSpec } from '../read-spec.ts'
import { readSpec } from '../read-spec.ts'
import { identity, renderSignal } from '../render.ts'
import { DomainError } from '../results.ts'
import type { GetSignalsInput, SignalRef } from '../schemas.ts'
import { settlePending } from '../settle.ts'
import { parseSignalId } from '../signal-ids.ts'
import type { SignalCandidate, SignalUniverse } from '../signals.ts'
import { agentSignals, customCandidate, loadSignals } from '../signals.ts'
import { webhookFor } from '../tasks/notify.ts'
import { createTask, takeDirective } from '../tasks/repository.ts'

/**
 * A sandbox account's one-shot force_get_signals_arm directive (comply_test_controller): this call
 * answers `submitted` with the directive's task_id, and the task waits for force_task_completion.
 * Wholesale feed reads never take it.
 */
async function forcedSubmission(
  deps: AgentDeps,
  clientId: number,
  account: AccountScope,
  input: GetSignalsInput,
  webhook: Awaited<ReturnType<typeof webhookFor>>,
  now: Date,
  brief: boolean,
) {
  if (!brief || !account.sandbox) return null
  const directive = await takeDirective(deps.ctx.db, clientId, 'force_get_signals_arm')
  if (!directive) return null
  const taskId = String(directive.task_id)
  const message = typeof directive.message === 'string' ? directive.message : 'Signal discovery queued.'
  const { push_notification_config: _secrets, ...request } = input
  await createTask(deps.ctx.db, clientId, account, { taskId, taskType: 'get_signals', message, request, webhook }, now)
  return { status: 'submitted', task_id: taskId, message, ...(input.context ? { context: input.context } : {}) }
}

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

/**
 * The wholesale feed's version for this caller and scope: a digest of what the feed holds (ids,
 * names, coverage, prices, in order) and of the scope asked for. Opaque to callers.
 */
function wholesaleFeedVersion(list: SignalCandidate[], request: StoredRequest): string {
  const h = createHash('sha256')
  h.update(JSON.stringify([request.destinations, request.countries]))
  for (const c of list) h.update(JSON.stringify([c.id, c.name, c.description, c.coverage_percentage, c.cpm, c.currency, c.segment_id]))
  return `wf_${h.digest('base64url').slice(0, 22)}`
}

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
  if (input.if_pricing_version !== undefined && input.if_wholesale_feed_version === undefined) {
    throw new DomainError(
      'INVALID_REQUEST',
      'if_pricing_version needs if_wholesale_feed_version: this agent versions pricing with the wholesale feed (wholesale_feed_versioning.pricing_version_separate is false)',
      'correctable',
      'if_pricing_version',
    )
  }
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
  const read = spec ? readSpec(spec) : null
  if (read?.countries.length && !request.countries) request.countries = read.countries
  const wholesale = !refs.length && !spec
  const account = accountScope(input.account, deps.ctx.connector.sandbox)
  const webhook = await webhookFor(deps, input.push_notification_config, 'push_notification_config')
  const submitted = await forcedSubmission(deps, clientId, account, input, webhook, now, !wholesale)
  if (submitted) return { ...submitted, adcp_version: version }

  let list: SignalCandidate[]
  let proposal: Awaited<ReturnType<typeof saveProposal>> | null = null
  let match: Match | null = null
  if (refs.length) {
    list = await lookUp(deps, clientId, universe, refs)
  } else if (spec && read) {
    const { excluded } = read
    const ranked = read.topic ? rankSignals(read.topic, universe.candidates, excluded) : []
    const relevant = ranked.filter((r) => r.score >= minRelevance)
    match = { best: relevant[0]?.score ?? null, read }
    if (relevant.length) {
      list = relevant.map((r) => r.item)
      const p = customProposal(spec)
      if (p && !universe.byId.has(p.signal_id)) {
        proposal = { ...p, segment_id: null }
        // Built for the spec, but not ready yet: right after the best ready match.
        list.splice(Math.min(1, list.length), 0, customCandidate(proposal, universe))
      }
    } else {
      // Broad or weakly matched: the best available signals, by what little relevance there is, then coverage.
      list = (ranked.length ? ranked : rankSignals(null, universe.candidates, excluded)).map((r) => r.item)
    }
  } else {
    list = rankSignals(null, universe.candidates)
      .map((r) => r.item)
      .sort((a, b) => typeOrder[a.type] - typeOrder[b.type])
  }
  list = applyFilters(list, input.filters, who.domain)
  const feedVersion = wholesale ? wholesaleFeedVersion(list, request) : null
  // Only a client's own (owned, custom) signals make an answer account-specific.
  const scope = list.some((c) => c.type !== 'marketplace') ? 'account' : 'public'
  if (feedVersion && input.if_wholesale_feed_version === feedVersion) {
    return {
      status: 'completed',
      adcp_version: version,
      message: 'The wholesale signals feed is unchanged since the version you hold.',
      unchanged: true,
      wholesale_feed_version: feedVersion,
      cache_scope: scope,
      sandbox: ctx.connector.sandbox,
      ...(input.context ? { context: input.context } : {}),
    }
  }

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
    message: summarize(spec, refs.length > 0, signals, list.length, match),
    context_id: contextId,
    cache_scope: scope,
    ...(feedVersion ? { wholesale_feed_version: feedVersion } : {}),
    signals,
    pagination: { has_more: hasMore, ...(hasMore ? { cursor: encodeCursor(offset + pageSize) } : {}), total_count: list.length },
    sandbox: ctx.connector.sandbox,
    ...(input.context ? { context: input.context } : {}),
  }
}

/** How well a spec matched: the best relevance (null: nothing relevant), and how the spec was read. */
interface Match {
  best: number | null
  read: ReadSpec
}

const quality = (best: number) => (best >= 0.45 ? 'strong' : best >= 0.2 ? 'fair' : 'weak')

/** What the message says about the match: its quality, what was read as audience traits, and what is excluded. */
function matchNote(spec: string, m: Match): string {
  const traits = [...m.read.traits, ...m.read.countries.map((c) => `country ${c}`)]
  const read = traits.length
    ? ` Read as who and where rather than topics: ${traits.join(', ')} (contextual signals reach the readers of matching pages${m.read.countries.length ? '; the countries are the deal geo' : ''}).`
    : ''
  const excluded = m.read.excluded.terms.length ? ` Excluded: signals about ${m.read.excluded.terms.map((t) => `"${t}"`).join(', ')}.` : ''
  if (m.best === null) {
    const why = m.read.topic ? `No signal matches "${spec}" closely` : `"${spec}" names no topic`
    return `${why}: showing the best available signals, ranked by ${m.read.topic ? 'what relevance there is, then ' : ''}coverage.${read}${excluded}`
  }
  return `Match quality: ${quality(m.best)} (best relevance ${m.best.toFixed(2)} on a 0-1 scale).${read}${excluded}`
}

function summarize(spec: string | null, byId: boolean, signals: ReturnType<typeof renderSignal>[], total: number, match: Match | null): string {
  if (!signals.length) {
    if (byId) return 'None of the requested signals exist (for this client).'
    return spec ? `No signal matches "${spec}" with these filters; loosen them.` : 'The catalog is empty: no segment has enough indexed pages yet.'
  }
  const counts = (['marketplace', 'owned', 'custom'] as const).map((t) => [t, signals.filter((s) => s.signal_type === t).length] as const).filter(([, n]) => n)
  const best = signals[0]!
  const live = signals.filter((s) => s.deployments.some((d) => d.is_live)).length
  return [
    `${byId ? 'Found' : spec ? `Found ${total} signal${total === 1 ? '' : 's'} for "${spec}"; showing` : 'Catalog:'} ${signals.length} (${counts.map(([t, n]) => `${n} ${t}`).join(', ')}).`,
    spec && match ? matchNote(spec, match) : '',
    `${byId || !spec || match?.best === null ? 'First' : 'Best match'}: ${best.name} (${best.signal_agent_segment_id}), ${best.coverage_percentage}% coverage, CPM ${best.pricing.cpm.toFixed(2)} ${best.pricing.currency}.`,
    live ? `${live} ${live === 1 ? 'is' : 'are'} live on a requested destination.` : '',
    'Activate one with activate_signal and its signal_agent_segment_id.',
  ]
    .filter(Boolean)
    .join(' ')
}
