// Entry point of page extraction: HTML + URL in, text/metadata/dates/language/links/signals out.
// Pure (no I/O) and total: malformed input gives an empty result, never an exception.

import { dayFirstLocale } from './date-parse.ts'
import { extractDates } from './dates.ts'
import { textOf } from './dom.ts'
import { findArticle, parseJsonLdBlocks } from './json-ld.ts'
import { declaredLanguage, detectLanguage } from './language.ts'
import { baseUrl, collectLinks } from './links.ts'
import { extractMainText } from './main-text.ts'
import { withJsonLdBody } from './main-text-json-ld.ts'
import { indexMetaTags } from './meta-tags.ts'
import type { PageMetadata } from './metadata.ts'
import { buildMetadata, canonicalUrl, metadataAuthor } from './metadata.ts'
import type { PageSignals } from './page-signals.ts'
import { computeSignals } from './page-signals.ts'
import type { ParsedPage } from './parse-html.ts'
import { parseHtml } from './parse-html.ts'
import { emptyRawSignals } from './raw-signals.ts'
import { chooseTitle } from './title.ts'

export type { PageMetadata } from './metadata.ts'
export type { PageSignals } from './page-signals.ts'

export interface ExtractedContent {
  title: string
  full_text: string
  /** ISO 639-1 code, or null when neither the text nor the markup tells. */
  language: string | null
  word_count: number
}

export interface ExtractedPage {
  /** null when no readable text could be extracted. */
  content: ExtractedContent | null
  metadata: PageMetadata
  /** ISO 8601; the page's own local date and offset are kept. */
  published_date: string | null
  last_updated_date: string | null
  /** Absolute http(s) links found in the page (deduplicated, fragment removed), for further crawl hops. */
  links: string[]
  signals: PageSignals
  /** True when the language came from a confident text detection rather than markup or a weak guess. */
  language_reliable: boolean
}

/**
 * Inputs beyond this are cut: fetchers cap bodies around 10 MB, and the tail of a huge page (comments,
 * inline data) does not change what the page is about.
 */
export const MAX_HTML_CHARS = 6_000_000

/** Metadata of a page that has none (no HTML, or a fetch that got no page): every field null. */
export function emptyMetadata(): PageMetadata {
  return {
    canonical_url: null,
    og_title: null,
    og_description: null,
    og_image: null,
    og_type: null,
    author: null,
    meta_description: null,
    robots: null,
    date_evidence: null,
  }
}

function emptyPage(url: string): ExtractedPage {
  return {
    content: null,
    metadata: emptyMetadata(),
    published_date: null,
    last_updated_date: null,
    links: [],
    signals: computeSignals({ raw: emptyRawSignals(), url, links: [], anchors: [], mainText: '', wordCount: 0, pageTextLength: 0 }),
    language_reliable: false,
  }
}

function headingTexts(page: ParsedPage): { headings: string[]; h1s: string[] } {
  const headings: string[] = []
  const h1s: string[] = []
  for (const el of page.headings) {
    const text = textOf(el)
    headings.push(text)
    if (el.tag === 'h1') h1s.push(text)
  }
  return { headings, h1s }
}

function extract(html: string, url: string, fetchedAt: Date): ExtractedPage {
  const page = parseHtml(html.length > MAX_HTML_CHARS ? html.slice(0, MAX_HTML_CHARS) : html)
  const meta = indexMetaTags(page.metas)
  const jsonLdObjects = parseJsonLdBlocks(page.jsonLd)
  const jsonLd = findArticle(jsonLdObjects)
  const { headings, h1s } = headingTexts(page)
  const title = chooseTitle(jsonLd, meta, page.title, headings, h1s).trim()
  const author = metadataAuthor(meta, jsonLd)
  // The page's declared locales, first given first: its language, and how it writes 02/11/2023.
  const locales = [page.htmlLang, meta.get('og:locale'), meta.get('content-language'), meta.get('language')]
  const base = baseUrl(url, page.baseHref)
  const canonical = canonicalUrl(page.linkTags, meta, base)
  // Dates first: the main-text pass reshapes the tree.
  const headline = page.headings.find((el) => el.tag === 'h1') ?? null
  const dates = extractDates({
    jsonLdObjects,
    jsonLdRaw: page.jsonLd,
    meta,
    dateNodes: page.dateNodes,
    body: page.body,
    headline,
    url,
    canonicalUrl: canonical,
    fetchedAt,
    scriptDate: page.scriptDate,
    dayFirst: dayFirstLocale(locales),
  })

  const main = extractMainText(page, title, author !== null)
  const { text: fullText, wordCount } = withJsonLdBody(main.text, jsonLdObjects)
  const declared = declaredLanguage(locales)
  const language = detectLanguage(fullText.length > 0 ? fullText : `${title}\n${meta.get('description') ?? ''}`, declared)

  const links = collectLinks(page.hrefs, base)
  const signals = computeSignals({
    raw: page.signals,
    url,
    links,
    anchors: page.anchors,
    mainText: fullText,
    wordCount,
    pageTextLength: main.pageTextLength,
  })

  return {
    content: fullText === '' ? null : { title, full_text: fullText, language: language.language, word_count: wordCount },
    metadata: buildMetadata(meta, canonical, jsonLd, main.byline, base, dates.evidence),
    published_date: dates.published,
    last_updated_date: dates.modified,
    links,
    signals,
    language_reliable: language.reliable,
  }
}

export interface ExtractOptions {
  /** When the page was fetched (default: now); a page date after it is implausible. */
  fetchedAt?: Date
}

/** extractPage without its safety net: for the robustness tests, which must see any exception. */
export function extractPageOrThrow(html: string, url: string, options: ExtractOptions = {}): ExtractedPage {
  if (typeof html !== 'string' || html.length === 0) return emptyPage(url)
  return extract(html, url, options.fetchedAt ?? new Date())
}

export function extractPage(html: string, url: string, options: ExtractOptions = {}): ExtractedPage {
  try {
    return extractPageOrThrow(html, url, options)
  } catch {
    // Defence in depth: a bug on one odd page must not fail a whole scrape job.
    return emptyPage(url)
  }
}
