/**
 * A marketplace signal (a public IAB or seasonal catalog entry) becomes a client-owned segment the
 * first time the client activates it, because activations (and deals) are made of client segments.
 * The segment is a segment request marked complete whose URL list is copied from the catalog entry's
 * pages (curation's catalogSegmentUrls, best first, up to the segment size limit), with its stats
 * counted by curation's refreshSegmentStats. It is recorded in adcp_signals, so later activations of
 * the signal (other DSPs, seats) reuse it: like a REST re-activation, a new deal does not rebuild it.
 */

import { getNode } from '../content/taxonomy/taxonomy.ts'
import { refreshSegmentStats } from '../curation/builder/store.ts'
import type { CatalogEntry } from '../curation/catalog/list.ts'
import { catalogSegmentUrls } from '../curation/catalog/list.ts'
import type { AdcpContext } from './context.ts'
import { DomainError } from './results.ts'

export async function materializeCatalogSignal(ctx: AdcpContext, clientId: number, entry: CatalogEntry): Promise<number> {
  const now = ctx.clock.now()
  const config = ctx.config.curation
  return ctx.db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO adcp_signals (client_id, signal_id, kind, name, description, taxonomy_id, created_at)
       VALUES ($1, $2, 'marketplace', $3, $4, $5, $6) ON CONFLICT (client_id, signal_id) DO NOTHING`,
      [clientId, entry.id, entry.name, entry.description, entry.taxonomy_id, now],
    )
    // The row lock makes concurrent first activations of one signal create one segment.
    const { rows } = await tx.query<{ segment_id: number | null }>(`SELECT segment_id FROM adcp_signals WHERE client_id = $1 AND signal_id = $2 FOR UPDATE`, [
      clientId,
      entry.id,
    ])
    const existing = rows[0]?.segment_id ?? null
    if (existing !== null) return existing

    const urls = await catalogSegmentUrls(tx, clientId, entry.id, { limit: config.maxSegmentUrls, offset: 0, config })
    if (urls === null) throw new DomainError('REFERENCE_NOT_FOUND', `signal ${entry.id} is no longer in the catalog`, 'correctable', 'signal_agent_segment_id')
    const node = entry.taxonomy_id === null ? undefined : getNode(entry.taxonomy_id)
    const { rows: created } = await tx.query<{ id: number }>(
      `INSERT INTO segment_requests (client_id, name, prompt, taxonomy_id, level1_name, level2_name, level3_name, taxonomy_given,
          status, created_date, processed_date, last_updated_date)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'complete', $9, $9, $9) RETURNING id`,
      [
        clientId,
        `${entry.name} (AdCP signal ${entry.id})`,
        entry.description,
        node?.id ?? null,
        node?.level1_name ?? null,
        node?.level2_name ?? null,
        node?.level3_name ?? null,
        node !== undefined,
        now,
      ],
    )
    const seg = { id: created[0]!.id, client_id: clientId }
    await tx.query(
      `INSERT INTO segment_urls (segment_id, client_id, page_id, rank, score, url, host, tld, taxonomy_id, source, language)
       SELECT $1, $2, p.id, u.rank, u.score, p.url, p.host, p.tld, p.primary_category, 'prompt', p.language
         FROM unnest($3::text[], $4::real[]) WITH ORDINALITY AS u(url, score, rank)
         JOIN pages p ON p.url = u.url
       ON CONFLICT (segment_id, page_id) DO NOTHING`,
      [seg.id, clientId, urls.map((u) => u.url), urls.map((u) => u.score)],
    )
    await refreshSegmentStats(tx, seg, now)
    await tx.query(`UPDATE adcp_signals SET segment_id = $3 WHERE client_id = $1 AND signal_id = $2`, [clientId, entry.id, seg.id])
    return seg.id
  })
}
