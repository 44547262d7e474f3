/**
 * The signals a client can discover, built from the curation catalog (listCatalog) and the agent's
 * own records (adcp_signals):
 *  - marketplace: the public IAB and seasonal catalog entries;
 *  - owned: the client's own complete segments (catalog "personal" entries), except the segments the
 *    agent created behind activated marketplace and custom signals, which appear as those signals;
 *  - custom: segments proposed for a spec (see custom.ts), listed once activated.
 */

import { getNode } from '../content/taxonomy/taxonomy.ts'
import type { CatalogEntry } from '../curation/catalog/list.ts'
import { listCatalog } from '../curation/catalog/list.ts'
import type { AdcpContext } from './context.ts'
import type { Rankable } from './ranking.ts'
import type { SignalType } from './signal-ids.ts'

export interface SignalCandidate extends Rankable {
  type: SignalType
  cpm: number
  currency: string
  page_count: number | null
  catalog_id: string | null
  window: CatalogEntry['window']
  /** The client-owned segment behind the signal, once there is one. */
  segment_id: number | null
  /** Custom signals: the spec they were proposed for. */
  spec: string | null
}

export interface AgentSignalRow {
  signal_id: string
  kind: 'marketplace' | 'custom'
  name: string
  description: string
  spec: string | null
  taxonomy_id: number | null
  segment_id: number | null
}

export interface SignalUniverse {
  candidates: SignalCandidate[]
  byId: Map<string, SignalCandidate>
  /** Catalog entries by id (for the coverage of a category, and materialization). */
  entries: Map<string, CatalogEntry>
  pricing: { personal: number; currency: string }
}

export async function agentSignals(ctx: AdcpContext, clientId: number): Promise<Map<string, AgentSignalRow>> {
  const { rows } = await ctx.db.query<AgentSignalRow>(
    `SELECT signal_id, kind, name, description, spec, taxonomy_id, segment_id FROM adcp_signals WHERE client_id = $1`,
    [clientId],
  )
  return new Map(rows.map((r) => [r.signal_id, r]))
}

function fromEntry(e: CatalogEntry, segmentId: number | null): SignalCandidate {
  return {
    id: e.id,
    type: e.type === 'personal' ? 'owned' : 'marketplace',
    name: e.name,
    description: e.description,
    taxonomy_id: e.taxonomy_id,
    coverage_percentage: e.coverage.percentage,
    window_active: e.window?.active ?? false,
    cpm: e.pricing.cpm,
    currency: e.pricing.currency,
    page_count: e.page_count,
    catalog_id: e.id,
    window: e.window,
    segment_id: segmentId,
    spec: null,
  }
}

/** Coverage (percent) of a category in the catalog: its own entry, else its nearest ancestor's. */
export function categoryCoverage(entries: Map<string, CatalogEntry>, taxonomyId: number | null): number {
  for (let n = taxonomyId === null ? undefined : getNode(taxonomyId); n; n = n.parent_id === null ? undefined : getNode(n.parent_id)) {
    const e = entries.get(`iab:${n.id}`)
    if (e) return e.coverage.percentage
  }
  return 0
}

export function customCandidate(
  row: Pick<AgentSignalRow, 'signal_id' | 'name' | 'description' | 'spec' | 'taxonomy_id' | 'segment_id'>,
  u: Pick<SignalUniverse, 'entries' | 'pricing'>,
): SignalCandidate {
  const built = row.segment_id === null ? undefined : u.entries.get(`segment:${row.segment_id}`)
  return {
    id: row.signal_id,
    type: 'custom',
    name: row.name,
    description: row.description,
    taxonomy_id: row.taxonomy_id,
    coverage_percentage: built ? built.coverage.percentage : categoryCoverage(u.entries, row.taxonomy_id),
    window_active: false,
    cpm: u.pricing.personal,
    currency: u.pricing.currency,
    page_count: built?.page_count ?? null,
    catalog_id: built?.id ?? null,
    window: null,
    segment_id: row.segment_id,
    spec: row.spec,
  }
}

export async function loadSignals(ctx: AdcpContext, clientId: number): Promise<SignalUniverse> {
  const config = ctx.config.curation
  const [{ entries }, own] = await Promise.all([listCatalog(ctx.db, clientId, { now: ctx.clock.now(), config }), agentSignals(ctx, clientId)])
  const byEntry = new Map(entries.map((e) => [e.id, e]))
  const behindSignals = new Set([...own.values()].flatMap((r) => (r.segment_id === null ? [] : [`segment:${r.segment_id}`])))
  const pricing = { personal: config.catalog.pricing.personal, currency: config.catalog.pricing.currency }
  const candidates: SignalCandidate[] = []
  for (const e of entries) {
    if (behindSignals.has(e.id)) continue
    candidates.push(fromEntry(e, e.type === 'personal' ? Number(e.id.slice('segment:'.length)) : (own.get(e.id)?.segment_id ?? null)))
  }
  for (const r of own.values()) {
    if (r.kind === 'custom' && r.segment_id !== null) candidates.push(customCandidate(r, { entries: byEntry, pricing }))
  }
  return { candidates, byId: new Map(candidates.map((c) => [c.id, c])), entries: byEntry, pricing }
}
