// Shared by the relevance benchmarks: the usable labelled dev pages (fixtures/classification) and
// their HTML, a fetched page as the crawler hands it to analyzePage, and a prompt-only segment built
// and stored by the real builder (as the curation.build job does).
import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gunzipSync } from 'node:zlib'
import { isNormalizeError, normalizeUrl } from '../../src/content/urls/normalize-url.ts'
import { type BuildOutcome, buildSegment, storeBuild } from '../../src/curation/builder/build-segment.ts'
import type { CurationContext } from '../../src/curation/context.ts'
import { createSegmentRequest, getSegment, listSegmentUrls } from '../../src/curation/segments/repository.ts'
import type { CurationConfig } from '../../src/platform/config.ts'
import type { Queryable } from '../../src/platform/db/db.ts'
import type { FetchOutcome } from '../../src/scraping/fetch/fetcher.ts'
import { type AnalyzedPage, analyzePage } from '../../src/scraping/index/analyze-page.ts'
import { queuePages, savePage } from '../../src/scraping/index/pages-repository.ts'
import { semanticBatch } from '../../src/scraping/index/semantic-vectors.ts'

const data = join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), 'fixtures')

export interface DevLabel {
  set: 'scrapinghub' | 'readability'
  id: string
  url: string
  unusable: boolean
}

/** The dev pages not marked unusable. */
export function usableDevPages(): DevLabel[] {
  return (JSON.parse(readFileSync(join(data, 'classification/dev-labels.json'), 'utf8')) as DevLabel[]).filter((l) => !l.unusable)
}

const gunzip = (p: string): string => gunzipSync(readFileSync(p)).toString('utf8')
export const devHtml = (l: DevLabel): string =>
  l.set === 'scrapinghub'
    ? gunzip(join(data, 'extraction/scrapinghub/html', `${l.id}.html.gz`))
    : gunzip(join(data, 'extraction/readability-test-pages', l.id, 'source.html.gz'))

/**
 * The URL each dev page is indexed under: its own, or (without one) a host of its own with no words
 * in it for the classifier to read; a URL seen before gets a `dev=` parameter to stay distinct.
 */
export function devPageUrls(labels: readonly DevLabel[]): string[] {
  const seen = new Set<string>()
  return labels.map((l, i) => {
    const n = i + 1
    let raw = l.url || `https://devpage${n}.example/`
    if (seen.has(raw)) raw = `${raw}${raw.includes('?') ? '&' : '?'}dev=${n}`
    seen.add(raw)
    return raw
  })
}

/** Puts the HTML through analyzePage into the index under the URL, as a crawl would; `label` names it in errors. */
export async function indexPage(db: Queryable, rawUrl: string, html: string, at: Date, label: string): Promise<{ url: string; analyzed: AnalyzedPage }> {
  const u = normalizeUrl(rawUrl)
  if (isNormalizeError(u)) throw new Error(`${label}: ${u.error}`)
  const ids = await queuePages(db, [u], at)
  const analyzed = analyzePage(fetched(u.url, html, at))
  await savePage(db, ids.get(u.url)!, analyzed)
  return { url: u.url, analyzed }
}

export function fetched(url: string, html: string, at: Date): FetchOutcome {
  return {
    url,
    finalUrl: url,
    status: 200,
    contentType: 'text/html; charset=utf-8',
    html,
    encoding: 'utf8',
    headers: {},
    truncated: false,
    error: null,
    fetchedAt: at.toISOString(),
    elapsedMs: 0,
  }
}

export async function buildPromptSegment(
  ctx: CurationContext,
  cfg: CurationConfig,
  clientId: number,
  prompt: string,
  now: Date,
  limit: number,
): Promise<{ out: BuildOutcome; urls: Awaited<ReturnType<typeof listSegmentUrls>>['urls'] }> {
  const seg = await ctx.db.transaction((tx) =>
    createSegmentRequest(tx, clientId, { name: null, prompt, exampleUrls: [], taxonomy: null, extraHops: null, blockTlds: null, blockKeywords: null }, now),
  )
  const row = (await getSegment(ctx.db, clientId, seg.id))!
  const out = await buildSegment(ctx, row, cfg)
  await ctx.db.transaction((tx) => storeBuild(tx, row, out, now))
  const { urls } = await listSegmentUrls(ctx.db, clientId, seg.id, limit, 0)
  return { out, urls }
}

/**
 * Gives every indexed page its sentence vector, as the index.semantic job would in the background, and
 * prints how many and how long (nothing when the encoder is off: SEMANTIC_VECTORS=off ranks as before).
 */
export async function fillSemanticVectors(ctx: CurationContext): Promise<void> {
  const { encoder } = ctx
  if (!encoder) return
  const started = Date.now()
  let total = 0
  for (let n = -1; n !== 0; total += n) n = await semanticBatch(ctx.db, encoder, (fn) => ctx.db.transaction(fn))
  console.log(`sentence vectors: ${total} pages read in ${((Date.now() - started) / 1000).toFixed(1)} s (SEMANTIC_VECTORS=off skips them)`)
}
