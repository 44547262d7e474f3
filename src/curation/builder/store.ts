/** Writing a segment's URL list and exclusions (inside the job's finishing transaction). */
import type { Queryable } from '../../platform/db/db.ts'
import type { Candidate, Exclusion } from '../quality/filters.ts'

export interface SegmentKey {
  id: number
  client_id: number
}

/** Replaces the segment's URL list and exclusions with a new build. */
export async function replaceSegmentUrls(tx: Queryable, seg: SegmentKey, kept: Candidate[], excluded: Exclusion[], now: Date): Promise<void> {
  await tx.query('DELETE FROM segment_urls WHERE segment_id = $1 AND client_id = $2', [seg.id, seg.client_id])
  await tx.query('DELETE FROM segment_exclusions WHERE segment_id = $1 AND client_id = $2', [seg.id, seg.client_id])
  await insertUrls(tx, seg, kept, 1)
  await recordExclusions(tx, seg, excluded, now)
}

/** Adds URLs (ranks starting at firstRank); URLs already in the segment are left as they are. */
export async function insertUrls(tx: Queryable, seg: SegmentKey, urls: Candidate[], firstRank: number): Promise<number> {
  if (!urls.length) return 0
  const { rowCount } = await tx.query(
    `INSERT INTO segment_urls (segment_id, client_id, page_id, rank, score, url, host, tld, taxonomy_id, source, language, reasons)
     SELECT $1, $2, u.page_id, u.rank, u.score, u.url, u.host, u.tld, u.taxonomy_id, u.source, u.language, u.reasons::jsonb
       FROM unnest($3::bigint[], $4::int[], $5::real[], $6::text[], $7::text[], $8::text[], $9::int[], $10::text[], $11::text[], $12::text[])
            AS u(page_id, rank, score, url, host, tld, taxonomy_id, source, language, reasons)
     ON CONFLICT (segment_id, page_id) DO NOTHING`,
    [
      seg.id,
      seg.client_id,
      urls.map((c) => c.pageId),
      urls.map((_c, i) => firstRank + i),
      urls.map((c) => c.score),
      urls.map((c) => c.url),
      urls.map((c) => c.host),
      urls.map((c) => c.tld),
      urls.map((c) => c.taxonomyId),
      urls.map((c) => c.source),
      urls.map((c) => c.language),
      urls.map((c) => (c.reasons && Object.keys(c.reasons).length ? JSON.stringify(c.reasons) : null)),
    ],
  )
  return rowCount
}

/** Records why URLs were left out (a later reason for the same URL replaces the earlier one). */
export async function recordExclusions(tx: Queryable, seg: SegmentKey, excluded: Exclusion[], now: Date): Promise<void> {
  if (!excluded.length) return
  const unique = new Map<number, Exclusion>()
  for (const e of excluded) unique.set(e.candidate.pageId, e)
  const list = [...unique.values()]
  await tx.query(
    `INSERT INTO segment_exclusions (segment_id, client_id, page_id, url, tld, reason, detail, score, created_at)
     SELECT $1, $2, e.page_id, e.url, e.tld, e.reason, e.detail::jsonb, e.score, $9
       FROM unnest($3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[], $8::real[]) AS e(page_id, url, tld, reason, detail, score)
     ON CONFLICT (segment_id, page_id) DO UPDATE SET reason = EXCLUDED.reason, detail = EXCLUDED.detail, score = EXCLUDED.score, created_at = EXCLUDED.created_at`,
    [
      seg.id,
      seg.client_id,
      list.map((e) => e.candidate.pageId),
      list.map((e) => e.candidate.url),
      list.map((e) => e.candidate.tld),
      list.map((e) => e.reason),
      list.map((e) => JSON.stringify(e.detail)),
      list.map((e) => e.candidate.score),
      now,
    ],
  )
}

/** Renumbers ranks 1..n by score (after URLs were added or removed). */
export async function rerank(tx: Queryable, seg: SegmentKey): Promise<void> {
  await tx.query(
    `UPDATE segment_urls su SET rank = r.rn
       FROM (SELECT page_id, row_number() OVER (ORDER BY score DESC, page_id)::int AS rn
               FROM segment_urls WHERE segment_id = $1 AND client_id = $2) r
      WHERE su.segment_id = $1 AND su.client_id = $2 AND su.page_id = r.page_id AND su.rank <> r.rn`,
    [seg.id, seg.client_id],
  )
}

/** Recounts the segment's URLs (in total and per language) and stamps last_updated_date; returns the total. */
export async function refreshSegmentStats(tx: Queryable, seg: SegmentKey, now: Date): Promise<number> {
  const { rows } = await tx.query<{ language: string; n: number }>(
    `SELECT COALESCE(language, 'und') AS language, count(*)::int AS n FROM segment_urls WHERE segment_id = $1 AND client_id = $2 GROUP BY 1`,
    [seg.id, seg.client_id],
  )
  const byLanguage: Record<string, number> = {}
  let total = 0
  for (const r of rows) {
    byLanguage[r.language] = r.n
    total += r.n
  }
  await tx.query('UPDATE segment_requests SET url_count = $3, language_counts = $4::jsonb, last_updated_date = $5 WHERE id = $1 AND client_id = $2', [
    seg.id,
    seg.client_id,
    total,
    JSON.stringify(byLanguage),
    now,
  ])
  return total
}

export type ChangeKind = 'build' | 'optimization' | 'tld_removal' | 'deleted'

/** The activation feature's hook: one row per change of a segment's URL list (docs/curation.md). */
export async function recordChange(tx: Queryable, seg: SegmentKey, kind: ChangeKind, now: Date, optimizationId: number | null = null): Promise<void> {
  await tx.query(`INSERT INTO segment_changes (segment_id, client_id, optimization_id, kind, created_at) VALUES ($1, $2, $3, $4, $5)`, [
    seg.id,
    seg.client_id,
    optimizationId,
    kind,
    now,
  ])
}
