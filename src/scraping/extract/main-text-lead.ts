// The lead: news and magazine templates put the standfirst (the bold first paragraph) between the
// headline and the article body, outside the container Readability picks. Prose found there, after the
// headline and before the chosen container, belongs to the article.
import type { DomNode, ElementNode } from './dom.ts'
import { markerOf } from './dom.ts'
import { linkDensity } from './main-text-prepare.ts'

/** A lead block is prose: long enough to be a sentence and mostly not links. */
const MIN_LEAD_CHARS = 80
const MAX_LEAD_BLOCKS = 3
const MIN_PROSE_CHARS = 100
const MAX_LEAD_CHARS = 1500
/** Paragraphs only (prepareTree already made text-only divs into <p>): a wrapper also holds the headline, dates, images. */
const LEAD_TAGS = new Set(['p'])
/** Templates name the standfirst: only a paragraph inside such an element is taken. */
const LEAD_CLASS =
  /lead|intro|teaser|standfirst|summary|abstract|excerpt|subtitle|sub-title|subline|deck|dek|vorspann|chapeau|chapo|entradilla|sommario|bajada|description/i
const NOT_LEAD = /caption|credit|byline|author|meta|date|breadcrumb|nav|menu|share|social|related|teaser-list|promo|newsletter|cookie|banner|ad-|advert/i

function markedAsLead(el: ElementNode, stopAt: Set<ElementNode>): boolean {
  for (let n: ElementNode | null = el; n !== null && !stopAt.has(n); n = n.parent) {
    const subject = n.alias ?? n
    if (LEAD_CLASS.test(`${subject.attrs.class ?? ''} ${subject.attrs.id ?? ''} ${subject.attrs.itemprop ?? ''}`)) return true
  }
  return false
}

const QUOTED = new Set(['figure', 'figcaption', 'blockquote', 'aside', 'li', 'td', 'a'])

/** Unmarked, a paragraph is taken only when it reads as a sentence and is not a quote, caption or item. */
function isProse(el: ElementNode, stopAt: Set<ElementNode>): boolean {
  if (el.textLen < MIN_PROSE_CHARS) return false
  for (let n: ElementNode | null = el.parent; n !== null && !stopAt.has(n); n = n.parent) if (QUOTED.has(n.tag)) return false
  return true
}

/**
 * Blocks of prose that stand after `headline` and before the first of `roots` in document order, as new
 * roots to prepend. Nothing when the headline is missing or comes after the article.
 */
export function findLead(body: ElementNode, headline: ElementNode | null, roots: ElementNode[], run: number): ElementNode[] {
  if (headline === null || roots.length === 0) return []
  // A root outside the tree (the whole body wrapped when nothing stood out) already holds everything.
  if (roots.some((r) => r.parent === null || !r.parent.children.includes(r))) return []
  const holdsArticle = new Set<ElementNode>()
  for (const root of roots) for (let n: ElementNode | null = root; n !== null; n = n.parent) holdsArticle.add(n)
  if (holdsArticle.has(headline)) return []
  const rootSet = new Set(roots)
  const lead: ElementNode[] = []
  let chars = 0
  let started = false
  const stack: DomNode[] = [body]
  while (stack.length > 0) {
    const node = stack.pop() as DomNode
    if (node.isText) continue
    // The headline itself is usually marked gone (it repeats the title): it still marks where the lead starts.
    if (node === headline) {
      started = true
      continue
    }
    if (node.gone === run) continue
    if (rootSet.has(node)) break
    const marker = markerOf(node.alias ?? node)
    if (started && !holdsArticle.has(node) && LEAD_TAGS.has(node.tag) && node.textLen >= MIN_LEAD_CHARS) {
      if (NOT_LEAD.test(marker) || linkDensity(node) > 0.25 || !(markedAsLead(node, holdsArticle) || isProse(node, holdsArticle))) continue
      if (node.textLen + chars > MAX_LEAD_CHARS) break
      lead.push(node)
      chars += node.textLen
      if (lead.length >= MAX_LEAD_BLOCKS) break
      continue
    }
    if (started && !holdsArticle.has(node) && NOT_LEAD.test(marker)) continue
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as DomNode)
  }
  return lead
}
