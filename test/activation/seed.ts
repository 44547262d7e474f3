import type { NormalizedUrl } from '../../src/content/urls/normalize-url.ts'
import { normalizeUrl } from '../../src/content/urls/normalize-url.ts'
import type { Queryable } from '../../src/platform/db/db.ts'
import { queuePages } from '../../src/scraping/index/pages-repository.ts'

/** A segment of a client with the given build status and URLs (pages are queued in the index). */
export async function seedSegment(
  db: Queryable,
  clientId: number,
  opts: { status?: 'pending' | 'processing' | 'complete'; urls?: string[] } = {},
): Promise<number> {
  const now = new Date('2026-11-22T09:00:00Z')
  const status = opts.status ?? 'complete'
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO segment_requests (client_id, name, prompt, status, created_date, processed_date)
     VALUES ($1, 'test segment', 'anything', $2, $3, $4) RETURNING id`,
    [clientId, status, now, status === 'complete' ? now : null],
  )
  const id = rows[0]!.id
  await setSegmentUrls(db, clientId, id, opts.urls ?? ['https://news.example.com/a', 'https://blog.example.org/b'])
  return id
}

export async function setSegmentUrls(db: Queryable, clientId: number, segmentId: number, urls: string[]): Promise<void> {
  const normalized = urls.map((u) => normalizeUrl(u) as NormalizedUrl)
  const ids = await queuePages(db, normalized, new Date('2026-11-22T09:00:00Z'))
  await db.query('DELETE FROM segment_urls WHERE segment_id = $1', [segmentId])
  // One statement for the whole list: a row at a time, a 12,000-URL segment took seconds per engine.
  await db.query(
    `INSERT INTO segment_urls (segment_id, client_id, page_id, rank, score, url, host, tld, taxonomy_id, source)
     SELECT $1, $2, u.page_id, u.rank - 1, 0.9, u.url, u.host, u.tld, NULL, 'prompt'
       FROM unnest($3::bigint[], $4::text[], $5::text[], $6::text[]) WITH ORDINALITY AS u(page_id, url, host, tld, rank)`,
    [segmentId, clientId, normalized.map((u) => ids.get(u.url)), normalized.map((u) => u.url), normalized.map((u) => u.host), normalized.map((u) => u.tld)],
  )
}
