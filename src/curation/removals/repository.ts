/**
 * Removing a domain from an audience (DELETE /v1/curation/url-classifications/by-tld).
 *
 * The audience of taxonomy leaf L, for one client, is every URL of the client's segments that
 *  - belongs to a segment whose taxonomy_id is L, or
 *  - is itself classified under L (its result_taxonomy_leaf_id — the page's most specific category — is L).
 * Removing domain D from L deletes those URLs whose registrable domain is D and remembers (D, L), so
 * later builds, rebuilds and expansions leave them out too (exclusion reason `removed_by_tld`).
 */
import type { Queryable } from '../../platform/db/db.ts'
import type { SegmentKey } from '../builder/store.ts'
import { recordChange, recordExclusions, refreshSegmentStats } from '../builder/store.ts'
import type { Exclusion } from '../quality/filters.ts'

interface RemovedRow {
  segment_id: number
  page_id: number
  url: string
  tld: string
  score: number
  taxonomy_id: number | null
  leaf: number
}

async function afterRemoval(tx: Queryable, clientId: number, rows: RemovedRow[], now: Date, recordChanges: boolean): Promise<void> {
  const bySegment = new Map<number, RemovedRow[]>()
  for (const r of rows) bySegment.set(r.segment_id, [...(bySegment.get(r.segment_id) ?? []), r])
  for (const [segmentId, removed] of bySegment) {
    const seg: SegmentKey = { id: segmentId, client_id: clientId }
    const exclusions: Exclusion[] = removed.map((r) => ({
      candidate: {
        pageId: r.page_id,
        url: r.url,
        host: '',
        tld: r.tld,
        wordCount: null,
        datedArticle: false,
        pageMfaScore: null,
        language: null,
        taxonomyId: r.taxonomy_id,
        simhash: null,
        score: r.score,
        source: 'prompt',
      },
      reason: 'removed_by_tld',
      detail: { tld: r.tld, taxonomy_leaf_id: r.leaf },
    }))
    await recordExclusions(tx, seg, exclusions, now)
    await refreshSegmentStats(tx, seg, now)
    if (recordChanges) await recordChange(tx, seg, 'tld_removal', now)
  }
}

/** What a removal takes out of one segment. */
export interface SegmentReach {
  segment_id: number
  name: string | null
  /** Why the segment is in the audience: it was built for the leaf, or some of its URLs are classified under it. */
  via: 'segment_taxonomy' | 'url_classification'
  deleted_count: number
}

// The audience's URLs of the domain: in a segment built for the leaf, or classified under it.
const audienceOfDomain = `su.segment_id = s.id AND s.client_id = $1 AND su.client_id = $1 AND su.tld = $2
        AND (s.taxonomy_id = $3 OR su.taxonomy_id = $3)`

/** What removing the domain from the audience would take out, per segment (a dry run changes nothing). */
export async function removalReach(q: Queryable, clientId: number, tld: string, leafId: number): Promise<SegmentReach[]> {
  const { rows } = await q.query<SegmentReach>(
    `SELECT s.id::int AS segment_id, s.name, CASE WHEN s.taxonomy_id = $3 THEN 'segment_taxonomy' ELSE 'url_classification' END AS via,
            count(*)::int AS deleted_count
       FROM segment_urls su, segment_requests s
      WHERE ${audienceOfDomain}
      GROUP BY s.id, s.name, s.taxonomy_id ORDER BY s.id`,
    [clientId, tld, leafId],
  )
  return rows
}

/** Removes the domain from the audience in every segment of the client; returns what it removed per segment. */
export async function removeDomainFromAudience(tx: Queryable, clientId: number, tld: string, leafId: number, now: Date): Promise<SegmentReach[]> {
  const reach = await removalReach(tx, clientId, tld, leafId)
  const { rows } = await tx.query<RemovedRow>(
    `DELETE FROM segment_urls su
      USING segment_requests s
      WHERE ${audienceOfDomain}
      RETURNING su.segment_id, su.page_id, su.url, su.tld, su.score::float8 AS score, su.taxonomy_id, $3::int AS leaf`,
    [clientId, tld, leafId],
  )
  await tx.query(
    `INSERT INTO tld_removals (client_id, tld, taxonomy_leaf_id, deleted_count, created_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (client_id, tld, taxonomy_leaf_id) DO UPDATE SET deleted_count = tld_removals.deleted_count + EXCLUDED.deleted_count`,
    [clientId, tld, leafId, rows.length, now],
  )
  await afterRemoval(tx, clientId, rows, now, true)
  return reach
}

/**
 * Re-applies the client's stored removals to one segment (a build or expansion that ran while a
 * removal was made must not bring the domain back). Returns the URLs removed.
 */
export async function enforceRemovals(tx: Queryable, seg: SegmentKey, now: Date): Promise<number> {
  const { rows: any } = await tx.query('SELECT 1 FROM tld_removals WHERE client_id = $1 LIMIT 1', [seg.client_id])
  if (!any.length) return 0
  const { rows } = await tx.query<RemovedRow>(
    `DELETE FROM segment_urls su
      USING segment_requests s, tld_removals r
      WHERE su.segment_id = $1 AND su.client_id = $2 AND s.id = su.segment_id AND s.client_id = $2
        AND r.client_id = $2 AND r.tld = su.tld AND (r.taxonomy_leaf_id = s.taxonomy_id OR r.taxonomy_leaf_id = su.taxonomy_id)
      RETURNING su.segment_id, su.page_id, su.url, su.tld, su.score::float8 AS score, su.taxonomy_id, r.taxonomy_leaf_id AS leaf`,
    [seg.id, seg.client_id],
  )
  await afterRemoval(tx, seg.client_id, rows, now, false)
  return rows.length
}
