/**
 * The scrape result of spec 2.7, read from the content index (`pages`) and the ads.txt cache
 * (`ads_txt`). The index is shared by every client: it describes the public web, not client data.
 */
import type { Queryable } from '../../platform/db/db.ts'
import type { AdsTxtEntry } from '../ads-txt/parse.ts'
import type { PageRow } from '../index/pages-repository.ts'
import type { AdsTxt, ScrapeResult } from '../schemas.ts'

/** The columns of a page a scrape result needs (not the embedding, links or signals). */
export type IndexedPage = Pick<
  PageRow,
  | 'url'
  | 'tld'
  | 'host'
  | 'state'
  | 'errors'
  | 'title'
  | 'full_text'
  | 'language'
  | 'word_count'
  | 'metadata'
  | 'published_date'
  | 'last_updated_date'
  | 'requested_at'
  | 'fetched_at'
  | 'failed_fetches'
>

const columns = `url, tld, host, state, errors, title, full_text, language, word_count, metadata, published_date,
  last_updated_date, requested_at, fetched_at, failed_fetches`

export async function pagesByUrl(q: Queryable, urls: string[]): Promise<Map<string, IndexedPage>> {
  if (!urls.length) return new Map()
  const { rows } = await q.query<IndexedPage>(`SELECT ${columns} FROM pages WHERE url = ANY($1::text[])`, [urls])
  return new Map(rows.map((r) => [r.url, r]))
}

/** The cached ads.txt of each root domain that has one, in the result's shape. */
export async function adsTxtByDomain(q: Queryable, domains: string[]): Promise<Map<string, AdsTxt>> {
  if (!domains.length) return new Map()
  const { rows } = await q.query<{ domain: string; status: AdsTxt['status']; seller_count: number; entries: AdsTxtEntry[] }>(
    `SELECT domain, status, seller_count, entries FROM ads_txt WHERE domain = ANY($1::text[])`,
    [domains],
  )
  return new Map(
    rows.map((r) => [
      r.domain,
      {
        status: r.status,
        seller_count: r.seller_count,
        entries: r.entries.map((e) => ({
          domain: e.domain,
          account_id: e.account_id,
          relationship: e.relationship,
          certification_id: e.certification_id ?? null,
        })),
      },
    ]),
  )
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null)

/** A page of the index as a scrape result. A queued page is E001 with nothing else known yet. */
export function toScrapeResult(page: IndexedPage, adsTxt: AdsTxt | null): ScrapeResult {
  if (page.state === 'queued') return pendingResult(page.url, page.tld, adsTxt)
  const m = page.metadata
  return {
    url: page.url,
    tld: page.tld,
    errors: page.errors,
    published_date: iso(page.published_date),
    last_updated_date: iso(page.last_updated_date),
    content:
      page.full_text === null
        ? null
        : {
            title: page.title ?? '',
            full_text: page.full_text,
            language: page.language ?? '',
            word_count: page.word_count ?? 0,
          },
    metadata:
      // A key missing from the stored metadata reads as null (as the job export's SQL writes it).
      m == null || m.http_status == null
        ? null
        : {
            http_status: m.http_status,
            content_type: m.content_type ?? '',
            canonical_url: m.canonical_url ?? null,
            og_title: m.og_title ?? null,
            og_description: m.og_description ?? null,
            og_image: m.og_image ?? null,
            og_type: m.og_type ?? null,
            author: m.author ?? null,
            meta_description: m.meta_description ?? null,
            robots: m.robots ?? null,
            date_evidence: m.date_evidence ?? null,
          },
    ads_txt: adsTxt,
  }
}

/** E001: submitted, not fetched yet. */
export function pendingResult(url: string, tld: string, adsTxt: AdsTxt | null = null): ScrapeResult {
  return { url, tld, errors: ['E001'], published_date: null, last_updated_date: null, content: null, metadata: null, ads_txt: adsTxt }
}

/** A job entry that is not a scrapable URL: E002 (it cannot be accessed), with nothing else. */
export function invalidResult(submitted: string): ScrapeResult {
  return { url: submitted, tld: '', errors: ['E002'], published_date: null, last_updated_date: null, content: null, metadata: null, ads_txt: null }
}
