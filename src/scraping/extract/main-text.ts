// Main-text extraction: normalise once, then try progressively more lenient attempts (as Readability
// does) until one yields a real article; otherwise keep the longest text any attempt found. Each attempt
// adds the lead standing before the container and drops the boilerplate inside it (docs/extraction.md).

import type { ElementNode } from './dom.ts'
import { textOf } from './dom.ts'
import type { DroppedBlock } from './main-text-boilerplate.ts'
import { dropBoilerplate } from './main-text-boilerplate.ts'
import { cleanArticle } from './main-text-clean.ts'
import type { GrabContext } from './main-text-grab.ts'
import { FLAG_CLEAN_CONDITIONALLY, FLAG_STRIP_UNLIKELY, FLAG_WEIGHT_CLASSES, grabArticle } from './main-text-grab.ts'
import { findLead } from './main-text-lead.ts'
import { measure, prepareTree } from './main-text-prepare.ts'
import type { ParsedPage } from './parse-html.ts'
import { renderText } from './text-render.ts'
import { textSimilarity } from './text-similarity.ts'

/** Below this many characters an attempt is considered to have missed the article. */
const MIN_ARTICLE_CHARS = 500
/** ...of which the container itself (without the lead found before it) must hold at least this many. */
const MIN_CONTAINER_CHARS = 100
/**
 * Pages with more elements than this get a single attempt, which bounds the time spent on link farms
 * and generated junk (the largest of the 311 benchmark pages has under 10,000 elements).
 */
const SINGLE_ATTEMPT_ELEMENTS = 25_000

const ATTEMPT_FLAGS = [
  FLAG_STRIP_UNLIKELY | FLAG_WEIGHT_CLASSES | FLAG_CLEAN_CONDITIONALLY,
  FLAG_WEIGHT_CLASSES | FLAG_CLEAN_CONDITIONALLY,
  FLAG_CLEAN_CONDITIONALLY,
  0,
]

export interface MainText {
  /** Empty when nothing readable was found. */
  text: string
  /** Byline spotted in the page body (only looked for when metadata has none). */
  byline: string | null
  /** Normalised length of all visible body text, for the main-text ratio signal. */
  pageTextLength: number
  /** In-article blocks dropped as boilerplate, with the rule that dropped each (when asked for). */
  dropped: DroppedBlock[] | null
}

/** The page's headline: the <h1>/<h2> closest to the title, else the first <h1>. */
function headlineOf(headings: ElementNode[], title: string): ElementNode | null {
  let best: ElementNode | null = null
  let bestSimilarity = 0.5
  // Link farms carry hundreds of headings; the headline is among the first.
  for (const h of headings.slice(0, 50)) {
    const similarity = textSimilarity(title, textOf(h).trim())
    if (similarity > bestSimilarity) {
      best = h
      bestSimilarity = similarity
    }
  }
  return best ?? headings.find((h) => h.tag === 'h1') ?? null
}

/** The whitespace-normalised length of the article's live text, measured without rendering it. */
function liveTextLength(roots: ElementNode[], run: number): number {
  let length = 0
  for (const root of roots) {
    if (root.gone === run) continue
    measure(root, run)
    length += root.textLen
  }
  return length
}

export function extractMainText(page: ParsedPage, title: string, hasMetadataByline: boolean, explain = false): MainText {
  prepareTree(page.body)
  const pageTextLength = page.body.textLen
  const ctx: GrabContext = { body: page.body, title, hasMetadataByline, byline: null }
  const headline = headlineOf(page.headings, title)
  let best: { text: string; dropped: DroppedBlock[] | null } = { text: '', dropped: null }
  let bestLength = 0
  const attempts = page.elementCount > SINGLE_ATTEMPT_ELEMENTS ? 1 : ATTEMPT_FLAGS.length
  for (let i = 0; i < attempts; i++) {
    const run = i + 1
    const flags = ATTEMPT_FLAGS[i] as number
    const article = grabArticle(ctx, run, flags)
    const lead = findLead(page.body, headline, article.roots, run)
    if (lead.length > 0) article.roots.unshift(...lead)
    cleanArticle(article, run, flags)
    // Whether an attempt found the article is judged before in-article boilerplate goes, so a short
    // article followed by its comments is still found by the first attempt, not replaced by a comment.
    const length = liveTextLength(article.roots, run)
    // The lead adds to an article; it does not make one: a container with less than a paragraph of its
    // own (a rating widget after the article, the lead scan having walked into the article body) failed.
    const containerLength = length - liveTextLength(lead, run)
    const trace: DroppedBlock[] | null = explain ? [] : null
    dropBoilerplate(article.roots, run, length, trace)
    // Rendered now: a later attempt may re-stamp the same nodes.
    const text = renderText(article.roots, run)
    if (length >= MIN_ARTICLE_CHARS && containerLength >= MIN_CONTAINER_CHARS) return { text, byline: ctx.byline, pageTextLength, dropped: trace }
    if (length > bestLength) {
      best = { text, dropped: trace }
      bestLength = length
    }
  }
  return { ...best, byline: ctx.byline, pageTextLength }
}
