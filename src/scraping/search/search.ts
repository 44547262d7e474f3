/**
 * Looking one URL up in the content index (spec 4.7 search), and submitting it when asked to.
 * GET never submits; POST submits an unknown URL and answers 202 until it is fetched.
 */

import { rootDomain } from '../../content/urls/domains.ts'
import type { NormalizedUrl } from '../../content/urls/normalize-url.ts'
import { isNormalizeError, normalizeUrl } from '../../content/urls/normalize-url.ts'
import { ApiError, badRequest, unprocessable } from '../../platform/http/errors.ts'
import { enqueue } from '../../platform/jobs/queue.ts'
import type { ScrapingContext } from '../context.ts'
import { isFresh } from '../index/freshness.ts'
import { queuePages } from '../index/pages-repository.ts'
import { urlJobKind } from '../jobs/kinds.ts'
import type { ScrapeResult, SearchQueued } from '../schemas.ts'
import { adsTxtByDomain, pagesByUrl, toScrapeResult } from './scrape-result.ts'

export type SearchOutcome = { status: 200; body: ScrapeResult } | { status: 202; body: SearchQueued }

/** A URL queued this long ago is submitted again by POST, so no URL stays E001 for good. */
export const requeueAfterMs = 10 * 60_000

/** The URL of a search request: `url`, or its alias `u`; both present means both must agree. */
export function searchInput(input: { url?: string | undefined; u?: string | undefined }, part: 'body' | 'query'): { raw: string; field: string } {
  const { url, u } = input
  if (url !== undefined && u !== undefined && url !== u) {
    throw badRequest(`send the URL as ${part}.url or as ${part}.u, not two different ones`, [
      { path: `${part}.u`, message: `${part}.u differs from ${part}.url` },
    ])
  }
  const raw = url ?? u
  if (raw === undefined) throw badRequest(`${part}.url is required`, [{ path: `${part}.url`, message: `${part}.url is required` }])
  return { raw, field: `${part}.${url !== undefined ? 'url' : 'u'}` }
}

function normalized(raw: string, field: string): NormalizedUrl {
  const n = normalizeUrl(raw)
  if (isNormalizeError(n)) throw unprocessable(`${field}: ${n.error}`, [{ path: field, message: n.error }])
  return n
}

async function submit(ctx: ScrapingContext, n: NormalizedUrl, maxAgeMs?: number): Promise<void> {
  const now = ctx.clock.now()
  await ctx.db.transaction(async (tx) => {
    await queuePages(tx, [n], now)
    const payload = maxAgeMs === undefined ? { url: n.url } : { url: n.url, max_age_ms: maxAgeMs }
    await enqueue(tx, urlJobKind, payload, { now, maxAttempts: 3, singletonKey: `${urlJobKind}:${n.url}` })
  })
}

const queued = (n: { url: string; tld: string }): SearchOutcome => ({
  status: 202,
  body: { url: n.url, tld: n.tld, status: 'queued', errors: ['E001'] },
})

/**
 * 200 with the stored result when the URL has been fetched (POST also refreshes it in the background
 * once it is no longer fresh, or older than the request's max age: index/freshness.ts); 202 while it
 * is queued; for a URL never submitted, POST submits it (202) and GET answers 404.
 */
export async function search(
  ctx: ScrapingContext,
  raw: string,
  field: string,
  opts: { submit: boolean; maxAgeMs?: number | undefined },
): Promise<SearchOutcome> {
  const n = normalized(raw, field)
  const page = (await pagesByUrl(ctx.db, [n.url])).get(n.url)
  const now = ctx.clock.now().getTime()
  if (!page) {
    if (!opts.submit) {
      throw new ApiError(404, 'not_found', 'URL not scraped: submit it with POST /v1/scraping/search or in a scrape job (POST /v1/scraping/jobs)')
    }
    await submit(ctx, n, opts.maxAgeMs)
    return queued(n)
  }
  if (page.state === 'queued') {
    if (opts.submit && now - page.requested_at.getTime() > requeueAfterMs) await submit(ctx, n, opts.maxAgeMs)
    return queued(page)
  }
  if (opts.submit && !isFresh(page, now, ctx.config.scrape, opts.maxAgeMs)) await submit(ctx, n, opts.maxAgeMs)
  const domain = rootDomain(page.host)
  const ads = domain ? ((await adsTxtByDomain(ctx.db, [domain])).get(domain) ?? null) : null
  return { status: 200, body: toScrapeResult(page, ads) }
}
