/**
 * activate_signal: makes the signal's segment a Deal ID on each requested platform (a DSP, for a
 * buyer seat) through the activation module, or records it for a sales agent. The answer carries
 * the Deal ID as soon as the SSP connector has issued it (waited for briefly), status `activating`
 * until the deal is live. One idempotency_key, one activation: a retry gets the same answer.
 * `action: "deactivate"` ends the signal's deals instead (deactivate-signal.ts).
 */
import { createHash } from 'node:crypto'

import { Value } from '@sinclair/typebox/value'

import { segmentStates } from '../../activation/repository.ts'
import { CreateActivationBody } from '../../activation/schemas.ts'
import { validateActivation } from '../../activation/validate.ts'
import { listCatalog } from '../../curation/catalog/list.ts'
import { ApiError } from '../../platform/http/errors.ts'
import type { AgentDeps } from '../agent.ts'
import { negotiateVersion } from '../agent.ts'
import type { AdcpContext } from '../context.ts'
import { loadContext, newContextId, saveContext, touchContext } from '../context-store.ts'
import { customSegment } from '../custom.ts'
import type { StoredDestination } from '../deployments.ts'
import type { Target } from '../destinations.ts'
import { checkCountries, requestedDestinations, resolveTargets } from '../destinations.ts'
import { materializeCatalogSignal } from '../materialize.ts'
import { DomainError, fromApiError } from '../results.ts'
import type { ActivateSignalInput } from '../schemas.ts'
import { createDeals, settlePending } from '../settle.ts'
import type { ParsedSignalId } from '../signal-ids.ts'
import { parseSignalId, pricingOptionId } from '../signal-ids.ts'
import type { ActivationRecord } from './activation-result.ts'
import { render } from './activation-result.ts'
import { deactivateSignal } from './deactivate-signal.ts'

const columns = 'id, idempotency_key, request_hash, signal_id, segment_id, context_id, destinations, geo, pending, created_at'

const notFound = (id: string) =>
  new DomainError(
    'REFERENCE_NOT_FOUND',
    `signal ${id} does not exist (for this client); take a signal_agent_segment_id from get_signals`,
    'correctable',
    'signal_agent_segment_id',
  )

/** The client-owned segment behind a signal (made on first activation for marketplace and custom signals). */
async function segmentFor(ctx: AdcpContext, clientId: number, parsed: ParsedSignalId): Promise<{ segmentId: number; name: string }> {
  if (parsed.kind === 'segment') {
    const state = (await segmentStates(ctx.db, clientId, [parsed.segmentId])).get(parsed.segmentId)
    if (!state) throw notFound(parsed.id)
    if (state.status !== 'complete') {
      throw new DomainError(
        'INVALID_STATE',
        `segment ${parsed.segmentId} is still ${state.status}; activate it once it is complete (processed_date set)`,
        'transient',
        'signal_agent_segment_id',
      )
    }
    const { rows } = await ctx.db.query<{ name: string | null; prompt: string | null }>(
      'SELECT name, prompt FROM segment_requests WHERE id = $1 AND client_id = $2',
      [parsed.segmentId, clientId],
    )
    return { segmentId: parsed.segmentId, name: rows[0]?.name ?? rows[0]?.prompt?.slice(0, 80) ?? `Segment ${parsed.segmentId}` }
  }
  if (parsed.kind === 'custom') {
    const { segmentId, row } = await customSegment(ctx, clientId, parsed)
    return { segmentId, name: row.name }
  }
  const { entries } = await listCatalog(ctx.db, clientId, {
    type: parsed.kind === 'iab' ? 'public' : 'seasonal',
    now: ctx.clock.now(),
    config: ctx.config.curation,
  })
  const entry = entries.find((e) => e.id === parsed.id)
  if (!entry) throw notFound(parsed.id)
  return { segmentId: await materializeCatalogSignal(ctx, clientId, entry), name: entry.name }
}

/** Checks each platform destination with the activation module's own rules before anything is created. */
function checkDeal(ctx: AdcpContext, targets: Target[], geo: string[] | null): void {
  const today = ctx.clock.now().toISOString().slice(0, 10)
  targets.forEach((t, i) => {
    if (t.type !== 'platform') return
    const body = { segment_ids: [1], dsp: t.dsp.slug, buyer_seat: t.account!, ...(geo?.length ? { geo } : {}) }
    if (!Value.Check(CreateActivationBody, body)) {
      throw new DomainError(
        'VALIDATION_ERROR',
        `destinations[${i}].account "${t.account}" is not a usable buyer seat (1 to 200 printable characters)`,
        'correctable',
        `destinations[${i}].account`,
      )
    }
    try {
      validateActivation(body, today)
    } catch (err) {
      if (err instanceof ApiError) throw fromApiError(err, `destinations[${i}]`)
      throw err
    }
  })
}

/**
 * AdCP 3 makes idempotency_key required (3.0's and 3.1.19's activate-signal-request): a caller
 * stating a 3.x version (adcp_version or adcp_major_version, as @adcp/sdk and the storyboard runner
 * do) gets INVALID_REQUEST without one. A caller stating no version is served without one and its
 * retries are not deduplicated. That is a deliberate deviation: 3.1.19's version envelope serves a
 * request without a version at the seller's default (adcp_major_version: "the seller assumes its
 * highest supported version", so 3, where the key is required), but the callers that state none are
 * the interface spec's activate_signal (no key in it) and @adcp/client 4.x, whose strict request
 * validation refuses an idempotency_key argument (docs/adcp.md "Versions and compatibility").
 */
function speaksAdcp3(input: ActivateSignalInput): boolean {
  return input.adcp_major_version === 3 || /^3\./.test(input.adcp_version ?? '')
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Polls until done() or the deadline (wall time: the work happens in a worker, maybe another process). */
async function waitUntil(done: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms
  while (!(await done()) && Date.now() < deadline) await pause(50)
}

async function loadRecord(ctx: AdcpContext, clientId: number, where: { id: number } | { key: string }): Promise<ActivationRecord | null> {
  const { rows } =
    'id' in where
      ? await ctx.db.query<ActivationRecord>(`SELECT ${columns} FROM adcp_activations WHERE id = $1 AND client_id = $2`, [where.id, clientId])
      : await ctx.db.query<ActivationRecord>(`SELECT ${columns} FROM adcp_activations WHERE client_id = $1 AND idempotency_key = $2`, [clientId, where.key])
  return rows[0] ?? null
}

export async function activateSignal(deps: AgentDeps, input: ActivateSignalInput) {
  const version = negotiateVersion(input)
  const { ctx } = deps
  const { clientId } = await deps.principal()
  const now = ctx.clock.now()
  if (input.idempotency_key === undefined && speaksAdcp3(input)) {
    throw new DomainError(
      'INVALID_REQUEST',
      'idempotency_key is required (AdCP 3): send a fresh key per request, e.g. a UUID v4, and the same key on a retry',
      'correctable',
      'idempotency_key',
    )
  }
  const parsed = parseSignalId(input.signal_agent_segment_id)
  if (!parsed) throw notFound(input.signal_agent_segment_id)
  if (input.pricing_option_id !== undefined && input.pricing_option_id !== pricingOptionId(parsed.id)) {
    throw new DomainError(
      'VALIDATION_ERROR',
      `pricing_option_id ${input.pricing_option_id} is not an option of ${parsed.id}; its option is ${pricingOptionId(parsed.id)}`,
      'correctable',
      'pricing_option_id',
    )
  }
  const earlier = input.context_id ? await loadContext(ctx.db, clientId, input.context_id, now) : null
  const asked = requestedDestinations(input)
  const destinations = asked.destinations ?? earlier?.request.destinations ?? null
  if (!destinations?.length) {
    throw new DomainError(
      'VALIDATION_ERROR',
      'say where to activate: destinations [{type: "platform", platform: "the-trade-desk", account: "<buyer seat>"}] (or deliver_to.deployments [{platform, account}])',
      'correctable',
      'destinations',
    )
  }
  if (input.action === 'deactivate') {
    const targets = resolveTargets(destinations, { field: 'destinations', requireAccount: false })
    return deactivateSignal(deps, clientId, parsed, targets, { version, context: input.context })
  }
  const targets = resolveTargets(destinations, { field: 'destinations', requireAccount: true })
  const geo = checkCountries(asked.countries, 'countries') ?? earlier?.request.countries ?? null
  checkDeal(ctx, targets, geo)

  const stored: StoredDestination[] = targets.map((t) =>
    t.type === 'platform'
      ? { type: 'platform', platform: t.platform, dsp: t.dsp.slug, account: t.account, activation_id: null }
      : { type: 'agent', agent_url: t.agent_url, account: t.account, activation_id: null },
  )
  const hash = createHash('sha256')
    .update(JSON.stringify([parsed.id, stored.map((d) => [d.type, d.dsp ?? d.agent_url, d.account]), geo]))
    .digest('hex')
  const key = input.idempotency_key ?? null
  const contextId = earlier?.id ?? newContextId()
  const replay = async (record: ActivationRecord) => {
    if (record.request_hash !== hash) {
      throw new DomainError(
        'IDEMPOTENCY_CONFLICT',
        `idempotency_key ${key} was already used for a different activation request; use a new key`,
        'correctable',
        'idempotency_key',
      )
    }
    return render(deps, clientId, record, version, { replayed: true, context: input.context })
  }
  if (key) {
    const prior = await loadRecord(ctx, clientId, { key })
    if (prior) return replay(prior)
  }

  const { segmentId, name } = await segmentFor(ctx, clientId, parsed)
  const complete = (await segmentStates(ctx.db, clientId, [segmentId])).get(segmentId)?.status === 'complete'
  const { rows } = await ctx.db.query<ActivationRecord>(
    `INSERT INTO adcp_activations (client_id, idempotency_key, request_hash, signal_id, segment_id, context_id, destinations, geo, pending, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10)
     ON CONFLICT (client_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
     RETURNING ${columns}`,
    [clientId, key, hash, parsed.id, segmentId, contextId, JSON.stringify(stored), geo, !complete, now],
  )
  if (!rows[0]) {
    // The same key arrived concurrently and won the insert.
    const winner = await loadRecord(ctx, clientId, { key: key! })
    if (!winner) throw new Error('idempotency record vanished')
    return replay(winner)
  }
  let record = rows[0]
  if (earlier) await touchContext(ctx.db, clientId, earlier.id, now)
  else await saveContext(ctx.db, clientId, { id: contextId, request: { signal_spec: null, destinations, countries: geo }, signal_ids: [parsed.id] }, now)

  const wait = ctx.config.adcp.activationWaitMs
  if (complete) {
    const made = await createDeals(ctx, clientId, segmentId, stored, geo)
    await ctx.db.query(`UPDATE adcp_activations SET destinations = $2::jsonb WHERE id = $1`, [record.id, JSON.stringify(made)])
    record = { ...record, destinations: made }
  } else {
    // A custom segment being built: give a quick build the chance to finish within this call.
    await waitUntil(async () => (await segmentStates(ctx.db, clientId, [segmentId])).get(segmentId)?.status === 'complete', wait)
    await settlePending(ctx, { id: record.id })
    record = (await loadRecord(ctx, clientId, { id: record.id }))!
  }
  const ids = record.destinations.flatMap((d) => (d.activation_id === null ? [] : [d.activation_id]))
  if (ids.length) {
    await waitUntil(async () => {
      const { rows: open } = await ctx.db.query(`SELECT 1 FROM activations WHERE id = ANY($1::bigint[]) AND deal_id IS NULL AND status <> 'failed'`, [ids])
      return open.length === 0
    }, wait)
  }
  return render(deps, clientId, record, version, { context: input.context, contextId, name })
}
