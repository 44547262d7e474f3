/**
 * Custom signals: a segment the agent proposes for a signal_spec. Its id encodes the category the
 * spec is about and a hash of the spec (`custom:<taxonomy id>:<hash>`), and the proposal is kept in
 * adcp_signals so activate_signal can build it: activating creates a segment request (the spec as
 * its prompt) through curation's own createSegmentRequest, whose build job ranks the index against it
 * and produces the URL list; the deal follows once it is complete (settle.ts).
 */

import { getNode } from '../content/taxonomy/taxonomy.ts'
import { readExclusions } from '../content/topics/interpret-prompt.ts'
import { derivedTaxonomy } from '../curation/builder/rank.ts'
import { createSegmentRequest } from '../curation/segments/repository.ts'
import type { Queryable } from '../platform/db/db.ts'
import type { AdcpContext } from './context.ts'
import { representBrief } from './ranking.ts'
import { DomainError } from './results.ts'
import type { ParsedSignalId } from './signal-ids.ts'
import { customSignalId } from './signal-ids.ts'
import type { AgentSignalRow } from './signals.ts'

const pathOf = (taxonomyId: number | null): string | null => {
  const n = taxonomyId === null ? undefined : getNode(taxonomyId)
  return n ? [n.level1_name, n.level2_name, n.level3_name].filter(Boolean).join(' > ') : null
}

const clip = (s: string, n: number): string => (s.length <= n ? s : `${s.slice(0, n - 1).trimEnd()}…`)

/** The custom signal for a spec, or null when the classifier cannot place the spec in any category. */
export function customProposal(spec: string): Omit<AgentSignalRow, 'segment_id'> | null {
  // "car buyers but no luxury cars" is about cars, not Luxury Cars.
  const excluded = readExclusions(spec)
  const { rep } = representBrief(excluded.rest, excluded.named)
  if (!rep?.categories.length) return null
  const taxonomyId = derivedTaxonomy(rep, [])
  const path = pathOf(taxonomyId)
  return {
    signal_id: customSignalId(spec, taxonomyId),
    kind: 'custom',
    name: clip(`Custom: ${spec.trim().replace(/\s+/g, ' ')}`, 100),
    description: `A contextual segment built for this brief${path ? ` within ${path}` : ''}: pages of the index ranked against "${clip(spec.trim(), 300)}", quality-filtered. Built when activated, then issued as a Deal ID.`,
    spec: spec.trim(),
    taxonomy_id: taxonomyId,
  }
}

/** Records a proposal (the same spec gives the same id; an earlier record, maybe built, is kept). */
export async function saveProposal(db: Queryable, clientId: number, p: Omit<AgentSignalRow, 'segment_id'>, now: Date): Promise<AgentSignalRow> {
  await db.query(
    `INSERT INTO adcp_signals (client_id, signal_id, kind, name, description, spec, taxonomy_id, created_at)
     VALUES ($1, $2, 'custom', $3, $4, $5, $6, $7) ON CONFLICT (client_id, signal_id) DO NOTHING`,
    [clientId, p.signal_id, p.name, p.description, p.spec, p.taxonomy_id, now],
  )
  const { rows } = await db.query<AgentSignalRow>(
    `SELECT signal_id, kind, name, description, spec, taxonomy_id, segment_id FROM adcp_signals WHERE client_id = $1 AND signal_id = $2`,
    [clientId, p.signal_id],
  )
  return rows[0]!
}

/**
 * The segment behind a custom signal, creating its segment request (and so its build) the first
 * time. A custom id the agent never proposed to this client is still built: its category is in the
 * id, and the category's name becomes the prompt.
 */
export async function customSegment(
  ctx: AdcpContext,
  clientId: number,
  parsed: Extract<ParsedSignalId, { kind: 'custom' }>,
): Promise<{ segmentId: number; row: AgentSignalRow }> {
  const now = ctx.clock.now()
  return ctx.db.transaction(async (tx) => {
    const node = parsed.taxonomyId === null ? undefined : getNode(parsed.taxonomyId)
    const fallback = node?.name ?? null
    await tx.query(
      `INSERT INTO adcp_signals (client_id, signal_id, kind, name, description, spec, taxonomy_id, created_at)
       VALUES ($1, $2, 'custom', $3, $4, $5, $6, $7) ON CONFLICT (client_id, signal_id) DO NOTHING`,
      [
        clientId,
        parsed.id,
        `Custom: ${fallback ?? 'segment'}`,
        `A contextual segment built for ${pathOf(parsed.taxonomyId) ?? 'this category'}.`,
        fallback,
        node?.id ?? null,
        now,
      ],
    )
    const { rows } = await tx.query<AgentSignalRow>(
      `SELECT signal_id, kind, name, description, spec, taxonomy_id, segment_id FROM adcp_signals WHERE client_id = $1 AND signal_id = $2 FOR UPDATE`,
      [clientId, parsed.id],
    )
    const row = rows[0]!
    if (row.segment_id !== null) return { segmentId: row.segment_id, row }
    if (!row.spec && row.taxonomy_id === null) {
      throw new DomainError(
        'REFERENCE_NOT_FOUND',
        `custom signal ${parsed.id} is unknown; take a signal_agent_segment_id from get_signals`,
        'correctable',
        'signal_agent_segment_id',
      )
    }
    // With a spec the build ranks pages against it and derives the category itself (a requested
    // taxonomy would confine it to that subtree); without one, the category is the request.
    const taxonomy = row.spec || row.taxonomy_id === null ? null : (getNode(row.taxonomy_id) ?? null)
    const seg = await createSegmentRequest(
      tx,
      clientId,
      { name: row.name, prompt: row.spec, exampleUrls: [], taxonomy, extraHops: null, blockTlds: null, blockKeywords: null },
      now,
    )
    await tx.query(`UPDATE adcp_signals SET segment_id = $3 WHERE client_id = $1 AND signal_id = $2`, [clientId, parsed.id, seg.id])
    return { segmentId: seg.id, row: { ...row, segment_id: seg.id } }
  })
}
