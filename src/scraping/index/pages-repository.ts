import { CLASSIFIER_VERSION } from '../../content/topics/topic-model.ts'
import type { NormalizedUrl } from '../../content/urls/normalize-url.ts'
import type { Queryable } from '../../platform/db/db.ts'
import type { ScrapeErrorCode } from '../schemas.ts'
import type { AnalyzedPage } from './analyze-page.ts'

/** A row of `pages`, the content index, as the repository reads it (the one type of it: others pick from it). */
export interface PageRow {
  id: number
  url: string
  tld: string
  host: string
  state: 'queued' | 'done'
  errors: ScrapeErrorCode[]
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
  /** Fetches in a row that failed (E002): the retry backoff (freshness.ts). */
  failed_fetches: number
}

const columns = `id, url, tld, host, state, errors, requested_at, fetched_at, final_url, http_status, content_type,
  title, full_text, language, word_count, metadata, published_date, last_updated_date, categories,
  primary_category, embedding, signals, simhash::text AS simhash, links, failed_fetches`

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
  const { rows } = await q.query<{ id: number; url: string }>('SELECT id, url FROM pages WHERE url = ANY($1::text[])', [urls.map((u) => u.url)])
  for (const r of rows) ids.set(r.url, r.id)
  return ids
}

/** Adds URLs to the index as queued (known URLs are left as they are), without reading them back. */
export async function registerUrls(q: Queryable, urls: NormalizedUrl[], now: Date): Promise<void> {
  if (!urls.length) return
  await q.query(
    `INSERT INTO pages (url, host, tld, requested_at)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) AS u(url, host, tld), (SELECT $4::timestamptz) AS t
     ON CONFLICT (url) DO NOTHING`,
    [urls.map((u) => u.url), urls.map((u) => u.host), urls.map((u) => u.tld), now],
  )
}

/** Stores a fetch result on its page and refreshes the page's category membership. */
export async function savePage(q: Queryable, pageId: number, p: AnalyzedPage): Promise<void> {
  await savePages(q, [{ id: pageId, page: p }])
}

/**
 * Stores many fetch results in one statement (one round trip, one parse, however many pages): each
 * page's row is updated and its category membership replaced. When a page appears twice, the last
 * entry wins.
 */
export async function savePages(q: Queryable, entries: readonly { id: number; page: AnalyzedPage }[]): Promise<void> {
  const byId = new Map<number, AnalyzedPage>()
  for (const e of entries) byId.set(e.id, e.page)
  if (!byId.size) return
  const rows = [...byId].map(([id, p]) => ({
    id,
    errors: p.errors,
    fetched_at: p.fetched_at,
    final_url: p.final_url,
    http_status: p.http_status,
    content_type: p.content_type,
    title: p.title,
    full_text: p.full_text,
    language: p.language,
    word_count: p.word_count,
    metadata: p.metadata,
    published_date: p.published_date,
    last_updated_date: p.last_updated_date,
    categories: p.categories,
    primary_category: p.primary_category,
    embedding: p.embedding,
    signals: p.signals,
    simhash: p.simhash,
    links: p.links,
  }))
  await q.query(
    `WITH input AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(
         id bigint, errors jsonb, fetched_at timestamptz, final_url text, http_status integer, content_type text,
         title text, full_text text, language text, word_count integer, metadata jsonb, published_date timestamptz,
         last_updated_date timestamptz, categories jsonb, primary_category integer, embedding jsonb, signals jsonb,
         simhash bigint, links jsonb)),
     -- The sentence vector stays while the text it was read from does (index.semantic), and with it the
     -- classification read with it (stored-classification.ts): this fetch's has not read the vector.
     same_text AS (
       SELECT i.id, p.semantic IS NOT NULL AND p.title IS NOT DISTINCT FROM i.title AND p.full_text IS NOT DISTINCT FROM i.full_text AS keep
         FROM input i JOIN pages p ON p.id = i.id),
     saved AS (
       UPDATE pages p SET state = 'done', errors = ARRAY(SELECT jsonb_array_elements_text(i.errors)),
           fetched_at = i.fetched_at, final_url = i.final_url, http_status = i.http_status, content_type = i.content_type,
           title = i.title, full_text = i.full_text, language = i.language, word_count = i.word_count,
           metadata = i.metadata, published_date = i.published_date, last_updated_date = i.last_updated_date,
           categories = CASE WHEN t.keep THEN p.categories ELSE i.categories END,
           primary_category = CASE WHEN t.keep THEN p.primary_category ELSE i.primary_category END,
           embedding = CASE WHEN t.keep THEN p.embedding ELSE i.embedding END,
           classifier_version = CASE WHEN t.keep THEN p.classifier_version ELSE $2 END,
           semantic = CASE WHEN t.keep THEN p.semantic END,
           signals = i.signals, simhash = i.simhash, links = i.links,
           failed_fetches = CASE WHEN i.errors ? 'E002' THEN p.failed_fetches + 1 ELSE 0 END
         FROM input i JOIN same_text t ON t.id = i.id WHERE p.id = i.id RETURNING p.id, p.categories),
     wanted AS (
       SELECT s.id AS page_id, (c ->> 'id')::integer AS taxonomy_id, (c ->> 'score')::real AS score
         FROM saved s, jsonb_array_elements(s.categories) AS c),
     dropped AS (
       DELETE FROM page_categories pc USING input i
        WHERE pc.page_id = i.id
          AND NOT EXISTS (SELECT 1 FROM wanted w WHERE w.page_id = pc.page_id AND w.taxonomy_id = pc.taxonomy_id))
     INSERT INTO page_categories (taxonomy_id, page_id, score)
     SELECT w.taxonomy_id, w.page_id, w.score FROM wanted w
     ON CONFLICT (taxonomy_id, page_id) DO UPDATE SET score = EXCLUDED.score`,
    [JSON.stringify(rows, textSafe), CLASSIFIER_VERSION],
  )
}

// NUL is exactly what this looks for.
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /[\u0000\uD800-\uDFFF]/
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/**
 * PostgreSQL text and jsonb hold neither NUL nor half of a surrogate pair (a page can carry both,
 * and cutting text at a length can split a pair): drop NULs, replace lone halves with U+FFFD.
 */
function textSafe(_key: string, value: unknown): unknown {
  if (typeof value !== 'string' || !UNSTORABLE.test(value)) return value
  return value.replaceAll('\u0000', '').replace(LONE_SURROGATE, '\uFFFD')
}

export async function getPageByUrl(q: Queryable, url: string): Promise<PageRow | null> {
  const { rows } = await q.query<PageRow>(`SELECT ${columns} FROM pages WHERE url = $1`, [url])
  return rows[0] ?? null
}
