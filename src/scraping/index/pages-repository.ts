import type { Queryable } from '../../platform/db/db.ts'
import type { AnalyzedPage } from './analyze-page.ts'
import type { NormalizedUrl } from './normalize-url.ts'

export interface PageRow {
  id: number
  url: string
  tld: string
  host: string
  state: 'queued' | 'done'
  errors: string[]
  requested_at: Date
  fetched_at: Date | null
  final_url: string | null
  http_status: number | null
  content_type: string | null
  title: string | null
  full_text: string | null
  language: string | null
  word_count: number | null
  metadata: AnalyzedPage['metadata']
  published_date: Date | null
  last_updated_date: Date | null
  categories: AnalyzedPage['categories']
  primary_category: number | null
  embedding: AnalyzedPage['embedding']
  signals: AnalyzedPage['signals']
  simhash: number | string | null
  links: string[] | null
}

const columns = `id, url, tld, host, state, errors, requested_at, fetched_at, final_url, http_status, content_type,
  title, full_text, language, word_count, metadata, published_date, last_updated_date, categories,
  primary_category, embedding, signals, simhash::text AS simhash, links`

/** Adds URLs to the index as queued (already-known URLs are left as they are); returns their ids. */
export async function queuePages(q: Queryable, urls: NormalizedUrl[], now: Date): Promise<Map<string, number>> {
  const ids = new Map<string, number>()
  if (!urls.length) return ids
  await q.query(
    `INSERT INTO pages (url, host, tld, requested_at)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) AS u(url, host, tld), (SELECT $4::timestamptz) AS t
     ON CONFLICT (url) DO NOTHING`,
    [urls.map((u) => u.url), urls.map((u) => u.host), urls.map((u) => u.tld), now],
  )
  const { rows } = await q.query<{ id: number; url: string }>('SELECT id, url FROM pages WHERE url = ANY($1::text[])', [
    urls.map((u) => u.url),
  ])
  for (const r of rows) ids.set(r.url, r.id)
  return ids
}

/** Stores a fetch result on its page and refreshes the page's category membership. */
export async function savePage(q: Queryable, pageId: number, p: AnalyzedPage): Promise<void> {
  await q.query(
    `UPDATE pages SET state = 'done', errors = $2, fetched_at = $3, final_url = $4, http_status = $5,
        content_type = $6, title = $7, full_text = $8, language = $9, word_count = $10, metadata = $11,
        published_date = $12, last_updated_date = $13, categories = $14, primary_category = $15,
        embedding = $16, signals = $17, simhash = $18::bigint, links = $19
      WHERE id = $1`,
    [
      pageId,
      p.errors,
      p.fetched_at,
      p.final_url,
      p.http_status,
      p.content_type,
      p.title,
      p.full_text,
      p.language,
      p.word_count,
      JSON.stringify(p.metadata),
      p.published_date,
      p.last_updated_date,
      JSON.stringify(p.categories),
      p.primary_category,
      JSON.stringify(p.embedding),
      JSON.stringify(p.signals),
      p.simhash,
      JSON.stringify(p.links),
    ],
  )
  await q.query('DELETE FROM page_categories WHERE page_id = $1', [pageId])
  if (p.categories.length) {
    await q.query(
      `INSERT INTO page_categories (taxonomy_id, page_id, score)
       SELECT t, $1, s FROM unnest($2::int[], $3::real[]) AS c(t, s)`,
      [pageId, p.categories.map((c) => c.id), p.categories.map((c) => c.score)],
    )
  }
}

export async function getPageByUrl(q: Queryable, url: string): Promise<PageRow | null> {
  const { rows } = await q.query<PageRow>(`SELECT ${columns} FROM pages WHERE url = $1`, [url])
  return rows[0] ?? null
}

export async function getPagesByIds(q: Queryable, ids: number[]): Promise<PageRow[]> {
  const { rows } = await q.query<PageRow>(`SELECT ${columns} FROM pages WHERE id = ANY($1::bigint[])`, [ids])
  return rows
}
