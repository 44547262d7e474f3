// Teasers: related-article lists, "more from" cards and latest-news boxes give each linked article's date
// beside its linked title, often with the same classes the page's own date uses ("entry-date",
// "article-date-time"). A date whose small enclosing block also holds such a title link is that other
// article's date, not the page's (docs/extraction.md, "Dates").
import type { ElementNode } from './dom.ts'
import { textWithin } from './dom.ts'

/** Levels walked up from a date element, and the most text a teaser block holds (title, date, a snippet). */
const MAX_LEVELS = 4
const MAX_TEASER_CHARS = 600
/** A linked title: 25+ characters and 4+ words beyond any date inside it (a permalink on the date is not). */
const TITLE_CHARS = 25
const TITLE_WORDS = 4

/** Links of the page's own byline: its author, its comments ("3 comments on <title>"), itself. */
const OWN_LINK = /author|comment|respond|reply/i

function isTitleLink(a: ElementNode, dateText: string): boolean {
  const href = a.attrs.href
  if (a.tag !== 'a' || href === undefined || href.includes('#') || OWN_LINK.test(`${href} ${a.attrs.rel ?? ''} ${a.attrs.class ?? ''}`)) return false
  const text = (textWithin(a, MAX_TEASER_CHARS) ?? '').replace(dateText, '').replace(/\s+/g, ' ').trim()
  return text.length >= TITLE_CHARS && text.split(' ').length >= TITLE_WORDS
}

function holdsTitleLink(block: ElementNode, dateText: string): boolean {
  const stack: ElementNode[] = [block]
  while (stack.length > 0) {
    const el = stack.pop() as ElementNode
    if (isTitleLink(el, dateText)) return true
    for (const c of el.children) if (!c.isText) stack.push(c)
  }
  return false
}

/**
 * True when the date element sits in a teaser: within a few levels, a block of at most 600 characters that
 * holds a linked title, and not the block that holds the page's own headline (a permalinked <h1>).
 * `headlineLine` is the headline and its ancestors (lineOf).
 */
export function inTeaser(dateEl: ElementNode, headlineLine: ReadonlySet<ElementNode>): boolean {
  const dateText = (textWithin(dateEl, 200) ?? '').trim()
  let block: ElementNode | null = dateEl
  for (let level = 0; block !== null && level <= MAX_LEVELS; level++, block = block.parent) {
    if (headlineLine.has(block) || textWithin(block, MAX_TEASER_CHARS) === null) return false
    if (holdsTitleLink(block, dateText)) return true
  }
  return false
}
