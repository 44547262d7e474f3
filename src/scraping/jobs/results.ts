/**
 * One page of a complete job's results, as JSON text produced piece by piece: only the chunks that
 * hold the page are read, and pages of the index are read a few hundred at a time, so a 10,000-result
 * page of long articles never sits in memory whole.
 */

import { rootDomain } from '../../content/urls/domains.ts'
import { isNormalizeError, normalizeUrl } from '../../content/urls/normalize-url.ts'
import type { Queryable } from '../../platform/db/db.ts'
import { adsTxtByDomain, invalidResult, pagesByUrl, pendingResult, toScrapeResult } from '../search/scrape-result.ts'
import { CHUNK_SIZE } from './prepare.ts'
import { readChunks } from './repository.ts'

/** A valid entry with no page in the index (not expected once a job is complete): E001. */
function notIndexed(url: string) {
  const n = normalizeUrl(url)
  return pendingResult(url, isNormalizeError(n) ? '' : n.tld)
}

// Results read from the index per query.
const BATCH = 250

/** The chunk numbers holding entries offset..offset+limit-1 of a job of urlCount entries, or null when none. */
export function chunkRange(urlCount: number, offset: number, limit: number): { from: number; to: number; end: number } | null {
  const end = Math.min(urlCount, offset + limit)
  if (offset >= end) return null
  return { from: Math.floor(offset / CHUNK_SIZE), to: Math.floor((end - 1) / CHUNK_SIZE), end }
}

/**
 * Yields the results of entries offset.. (at most limit of them) as JSON texts, a batch at a time.
 * Reads the chunks holding the range at once: callers keep the range to a page (or a window of one).
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
  const chunks = await readChunks(db, clientId, job.id, range.from, range.to)
  const entries: { url: string; invalid: boolean }[] = []
  for (const c of chunks) {
    const base = c.chunk_no * CHUNK_SIZE
    for (let i = 0; i < c.urls.length; i++) {
      const at = base + i
      if (at >= offset && at < range.end) entries.push({ url: c.urls[i]!, invalid: c.invalid?.[i] != null })
    }
  }
  // Every URL of a domain shares its ads.txt: serialized once per domain per range.
  const adsJson = new Map<string, string>()
  const load = async (batch: typeof entries) => {
    const pages = await pagesByUrl(
      db,
      batch.filter((e) => !e.invalid).map((e) => e.url),
    )
    const domains = new Set<string>()
    for (const p of pages.values()) {
      const d = rootDomain(p.host)
      if (d && !adsJson.has(d)) domains.add(d)
    }
    const ads = await adsTxtByDomain(db, [...domains])
    for (const d of domains) adsJson.set(d, JSON.stringify(ads.get(d) ?? null))
    return pages
  }
  // The next batch is read while this one is serialized and written: the database (its own thread or
  // process) and this thread work at the same time.
  let next = entries.length ? load(entries.slice(0, batchSize)) : null
  try {
    for (let i = 0; i < entries.length; i += batchSize) {
      const batch = entries.slice(i, i + batchSize)
      const pages = await next!
      next = i + batchSize < entries.length ? load(entries.slice(i + batchSize, i + 2 * batchSize)) : null
      const parts: string[] = []
      for (const e of batch) {
        const page = e.invalid ? undefined : pages.get(e.url)
        const result = e.invalid ? invalidResult(e.url) : page ? toScrapeResult(page, null) : notIndexed(e.url)
        const domain = page ? rootDomain(page.host) : null
        // ads_txt is the last key: splice the domain's serialized copy in place of null.
        const text = JSON.stringify(result)
        parts.push(domain ? `${text.slice(0, -'null}'.length)}${adsJson.get(domain) ?? 'null'}}` : text)
      }
      yield parts
    }
  } finally {
    // A reader that stops early (a closed connection) leaves the read-ahead unawaited.
    next?.catch(() => {})
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

// Entries read per window of a whole-job export: the memory an export holds, whatever the job's size.
const EXPORT_WINDOW = 10 * CHUNK_SIZE
const EXPORT_BATCH = 1000
const LINES_PER_WRITE = 50

/**
 * Every result from entry `offset` on, as JSON Lines, one window of chunks at a time: the server
 * holds one window whatever the job's size, and a client resumes a broken download at the number
 * of lines it has.
 */
export async function* resultLines(db: Queryable, clientId: number, job: { id: number; url_count: number }, offset: number): AsyncGenerator<string> {
  for (let at = offset; at < job.url_count; at += EXPORT_WINDOW) {
    for await (const parts of resultTexts(db, clientId, job, at, EXPORT_WINDOW, EXPORT_BATCH)) {
      // Written in pieces well under V8's large-object size (~128 KB): one string per batch (about
      // 1 MB) would go to the large-object space, which only a full GC frees, and RSS would climb.
      for (let i = 0; i < parts.length; i += LINES_PER_WRITE) yield `${parts.slice(i, i + LINES_PER_WRITE).join('\n')}\n`
    }
  }
}
