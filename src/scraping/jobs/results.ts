/**
 * A complete job's results as JSON text produced piece by piece: only the chunks that hold the
 * requested entries are read, a few chunks a query, so a whole job never sits in memory. The
 * database writes each result's JSON (resultLinesSql): the paged results read it as rows, the
 * export as COPY bytes.
 */

import { isNormalizeError, normalizeUrl } from '../../content/urls/normalize-url.ts'
import type { Db, Queryable } from '../../platform/db/db.ts'
import { pendingResult } from '../search/scrape-result.ts'
import { CHUNK_SIZE } from './prepare.ts'

/** A valid entry with no page in the index (not expected once a job is complete): E001. */
function notIndexed(url: string) {
  const n = normalizeUrl(url)
  return pendingResult(url, isNormalizeError(n) ? '' : n.tld)
}

// Results read per query of a page: one chunk (a page of long articles never sits in memory whole).
const BATCH = CHUNK_SIZE

/** The chunk numbers holding entries offset..offset+limit-1 of a job of urlCount entries, or null when none. */
export function chunkRange(urlCount: number, offset: number, limit: number): { from: number; to: number; end: number } | null {
  const end = Math.min(urlCount, offset + limit)
  if (offset >= end) return null
  return { from: Math.floor(offset / CHUNK_SIZE), to: Math.floor((end - 1) / CHUNK_SIZE), end }
}

// A timestamptz as JS's toISOString writes it (milliseconds, Z), or null.
const isoJson = (col: string) => `coalesce('"' || to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"', 'null')`
// A key of a jsonb value as JSON text: null when absent; '' instead of null for a required string.
const key = (col: string, k: string) => `coalesce(${col}->'${k}', 'null'::jsonb)::text`
const keyString = (col: string, k: string) => `coalesce(nullif(${col}->'${k}', 'null'::jsonb), '""'::jsonb)::text`

/** A whole number to write into SQL text (COPY takes no parameters). */
function int(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a count: ${n}`)
  return String(n)
}

/**
 * The results of entries start..end-1 (chunks from..to) of a job, one JSON text per row in
 * submission order, written by the database in toScrapeResult's shape and key order: Node neither
 * parses a page's columns nor serializes them again, which was most of an export's time. The
 * ads.txt of a page's root domain is joined on `pages.tld` (spec `tld`: the root domain, or the host
 * itself when it has none, which never names an ads.txt). A valid URL with no page (not expected once
 * a job is complete) reads `!` + the URL: the caller writes its E001 result (its tld needs the public
 * suffix list). Entries are ordered before the join, so the sort handles short rows only.
 */
export function resultLinesSql(clientId: number, jobId: number, from: number, to: number, start: number, end: number): string {
  const at = `c.chunk_no * ${CHUNK_SIZE} + e.i - 1`
  return `
SELECT CASE
         WHEN s.invalid THEN
           concat('{"url":', to_json(s.url), ',"tld":"","errors":["E002"],"published_date":null,"last_updated_date":null,"content":null,"metadata":null,"ads_txt":null}')
         WHEN p.url IS NULL THEN '!' || s.url
         WHEN p.state = 'queued' THEN
           concat('{"url":', to_json(p.url), ',"tld":', to_json(p.tld),
                  ',"errors":["E001"],"published_date":null,"last_updated_date":null,"content":null,"metadata":null,"ads_txt":', coalesce(ads.json, 'null'), '}')
         ELSE
           -- concat() writes the line in one pass (a chain of || copies it once per piece).
           concat('{"url":', to_json(p.url), ',"tld":', to_json(p.tld),
                  -- Error codes (E001–E008) have nothing to escape; to_json of an array costs a catalog look-up per row.
                  ',"errors":', CASE WHEN cardinality(p.errors) > 0 THEN concat('["', array_to_string(p.errors, '","'), '"]') ELSE '[]' END,
                  ',"published_date":', ${isoJson('p.published_date')}, ',"last_updated_date":', ${isoJson('p.last_updated_date')},
                  ',"content":', CASE WHEN p.full_text IS NULL THEN 'null' ELSE
                    concat('{"title":', to_json(coalesce(p.title, '')), ',"full_text":', to_json(p.full_text),
                           ',"language":', to_json(coalesce(p.language, '')), ',"word_count":', coalesce(p.word_count, 0), '}') END,
                  ',"metadata":', CASE WHEN coalesce(p.metadata->'http_status', 'null'::jsonb) = 'null'::jsonb THEN 'null' ELSE
                    concat('{"http_status":', p.metadata->'http_status', ',"content_type":', ${keyString('p.metadata', 'content_type')},
                           ',"canonical_url":', ${key('p.metadata', 'canonical_url')}, ',"og_title":', ${key('p.metadata', 'og_title')},
                           ',"og_description":', ${key('p.metadata', 'og_description')}, ',"og_image":', ${key('p.metadata', 'og_image')},
                           ',"og_type":', ${key('p.metadata', 'og_type')}, ',"author":', ${key('p.metadata', 'author')},
                           ',"meta_description":', ${key('p.metadata', 'meta_description')}, ',"robots":', ${key('p.metadata', 'robots')},
                           ',"date_evidence":', ${key('p.metadata', 'date_evidence')}, '}') END,
                  ',"ads_txt":', coalesce(ads.json, 'null'), '}')
       END AS line
  FROM (SELECT c.chunk_no, e.i, e.url, c.invalid[e.i] IS NOT NULL AS invalid
          FROM scrape_job_chunks c
         CROSS JOIN LATERAL unnest(c.urls) WITH ORDINALITY AS e(url, i)
         WHERE c.client_id = ${int(clientId)} AND c.job_id = ${int(jobId)} AND c.chunk_no BETWEEN ${int(from)} AND ${int(to)}
           AND ${at} >= ${int(start)} AND ${at} < ${int(end)}
         ORDER BY c.chunk_no, e.i) AS s
  LEFT JOIN pages p ON p.url = s.url AND NOT s.invalid
  LEFT JOIN LATERAL (
         SELECT '{"status":' || to_json(a.status)::text || ',"seller_count":' || a.seller_count::text || ',"entries":[' ||
                coalesce((SELECT string_agg('{"domain":' || ${key('x.v', 'domain')} || ',"account_id":' || ${key('x.v', 'account_id')} ||
                                            ',"relationship":' || ${key('x.v', 'relationship')} || ',"certification_id":' || ${key('x.v', 'certification_id')} || '}',
                                            ',' ORDER BY x.n)
                            FROM jsonb_array_elements(a.entries) WITH ORDINALITY AS x(v, n)), '') || ']}' AS json
           FROM ads_txt a WHERE a.domain = p.tld) AS ads ON true
 ORDER BY s.chunk_no, s.i`
}

/** The result of a line of resultLinesSql: `!url` becomes the URL's E001 result. */
const finished = (line: string) => (line.charCodeAt(0) === BANG ? JSON.stringify(notIndexed(line.slice(1))) : line)
const BANG = 0x21
const NL = 0x0a

/**
 * Yields the results of entries offset.. (at most limit of them) as JSON texts, a batch (whole
 * chunks) per query, the next batch read while this one is written.
 */
export async function* resultTexts(
  db: Queryable,
  clientId: number,
  job: { id: number; url_count: number },
  offset: number,
  limit: number,
  batchSize = BATCH,
): AsyncGenerator<string[]> {
  const range = chunkRange(job.url_count, offset, limit)
  if (!range) return
  const perQuery = Math.max(1, Math.round(batchSize / CHUNK_SIZE))
  const read = async (from: number) => {
    const to = Math.min(range.to, from + perQuery - 1)
    const sql = resultLinesSql(clientId, job.id, from, to, Math.max(offset, from * CHUNK_SIZE), Math.min(range.end, (to + 1) * CHUNK_SIZE))
    return (await db.query<{ line: string }>(sql)).rows
  }
  let next: ReturnType<typeof read> | null = read(range.from)
  try {
    for (let from = range.from; from <= range.to; from += perQuery) {
      const rows = await next!
      next = from + perQuery <= range.to ? read(from + perQuery) : null
      yield rows.map((r) => finished(r.line))
    }
  } finally {
    // A reader that stops early (a closed connection) leaves the read-ahead unawaited.
    next?.catch(() => {})
  }
}

/**
 * Passes COPY output through, replacing each `!url` line (a URL without a page) by its result. Such
 * lines are not expected once a job is complete: the bytes are only searched, never copied, unless
 * one turns up.
 */
export async function* withMissingFilled(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  let atLineStart = true
  let marker: Buffer[] | null = null
  for await (const c of chunks) {
    const buf = Buffer.from(c.buffer, c.byteOffset, c.byteLength)
    let pos = 0
    while (pos < buf.length) {
      if (marker) {
        const nl = buf.indexOf(NL, pos)
        marker.push(buf.subarray(pos, nl < 0 ? buf.length : nl))
        if (nl < 0) {
          pos = buf.length
          break
        }
        yield Buffer.from(`${finished(Buffer.concat(marker).toString('utf8'))}\n`)
        marker = null
        pos = nl + 1
        continue
      }
      // The next line starting with `!`: here (at a line's start), or after a later newline.
      const here = buf[pos] === BANG && (pos === 0 ? atLineStart : buf[pos - 1] === NL)
      const nl = here ? -1 : buf.indexOf('\n!', pos)
      const at = here ? pos : nl < 0 ? -1 : nl + 1
      if (at < 0) {
        yield buf.subarray(pos)
        pos = buf.length
        break
      }
      if (at > pos) yield buf.subarray(pos, at)
      marker = []
      pos = at
    }
    atLineStart = buf.length > 0 ? buf[buf.length - 1] === NL : atLineStart
  }
}

/** Yields the results of entries offset.. (at most limit of them) as comma-separated JSON objects. */
export async function* resultsJson(
  db: Queryable,
  clientId: number,
  job: { id: number; url_count: number },
  offset: number,
  limit: number,
): AsyncGenerator<string> {
  let first = true
  for await (const parts of resultTexts(db, clientId, job, offset, limit)) {
    yield (first ? '' : ',') + parts.join(',')
    first = false
  }
}

// Entries per COPY of a whole-job export: what the embedded engine hands over at once (about 4 MB
// of JSON, in 256 kB pieces); PostgreSQL streams it.
const EXPORT_BATCH = 4 * CHUNK_SIZE

/**
 * Every result from entry `offset` on, as JSON Lines bytes: COPY of the job's results a batch of
 * chunks at a time, the next batch started while this one is written. The bytes go from the
 * database to the response without row objects or strings, so the server's memory stays flat
 * whatever the job's size; a client resumes a broken download at the number of lines it has.
 */
export async function* resultLines(db: Db, clientId: number, job: { id: number; url_count: number }, offset: number): AsyncGenerator<Uint8Array> {
  const range = chunkRange(job.url_count, offset, job.url_count)
  if (!range) return
  const per = EXPORT_BATCH / CHUNK_SIZE
  const open = (from: number) => {
    const to = Math.min(range.to, from + per - 1)
    const sql = resultLinesSql(clientId, job.id, from, to, Math.max(offset, from * CHUNK_SIZE), Math.min(range.end, (to + 1) * CHUNK_SIZE))
    const it = db.copyOut(sql)[Symbol.asyncIterator]()
    return { it, first: it.next() }
  }
  async function* batches(): AsyncGenerator<Uint8Array> {
    let next: ReturnType<typeof open> | null = open(range!.from)
    try {
      for (let from = range!.from; from <= range!.to; from += per) {
        const cur = next!
        next = from + per <= range!.to ? open(from + per) : null
        for (let r = await cur.first; !r.done; r = await cur.it.next()) yield r.value
      }
    } finally {
      // A reader that stops early: the read-ahead's connection is given back.
      const pending = next
      pending?.first.then(() => pending.it.return?.(undefined)).catch(() => {})
    }
  }
  yield* withMissingFilled(batches())
}
