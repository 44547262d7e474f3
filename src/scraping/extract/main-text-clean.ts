// Cleans the chosen article: drops forms, asides, share bars and link-heavy or otherwise suspicious
// tables/lists/divs. Each conditional pass is one post-order walk that sums the counts it needs on the
// way up, instead of re-querying every subtree as a DOM implementation would.

import { AD_WORDS, CAPTION, HEADINGS, LOADING_WORDS, SHARE, TEXTISH, VIDEO } from './content-patterns.ts'
import type { ElementNode } from './dom.ts'
import { markerOf, textOf } from './dom.ts'
import type { Article } from './main-text-grab.ts'
import { classWeight, FLAG_CLEAN_CONDITIONALLY, hasAncestorTag } from './main-text-grab.ts'
import type { Span } from './text-stats.ts'
import { emptySpan, joinSpan, textSpan, trimmedLength } from './text-stats.ts'

interface Counts {
  span: Span
  text: number
  commas: number
  link: number
  p: number
  img: number
  li: number
  input: number
  heading: number
  list: number
  embeds: number
  video: boolean
  textish: boolean
  dataTable: boolean
}

function zero(): Counts {
  return {
    span: emptySpan(),
    text: 0,
    commas: 0,
    link: 0,
    p: 0,
    img: 0,
    li: 0,
    input: 0,
    heading: 0,
    list: 0,
    embeds: 0,
    video: false,
    textish: false,
    dataTable: false,
  }
}

function add(into: Counts, c: Counts): void {
  joinSpan(into.span, c.span)
  into.commas += c.commas
  into.link += c.link
  into.p += c.p
  into.img += c.img
  into.li += c.li
  into.input += c.input
  into.heading += c.heading
  into.list += c.list
  into.embeds += c.embeds
  into.video ||= c.video
  into.textish ||= c.textish
  into.dataTable ||= c.dataTable
}

function hasVideoAttr(el: ElementNode): boolean {
  for (const key in el.attrs) if (VIDEO.test(el.attrs[key] as string)) return true
  return false
}

interface Pass {
  run: number
  flags: number
  targets: ReadonlySet<string>
  asDiv: ReadonlySet<ElementNode>
  /** Text length of the whole article before cleaning. */
  articleLength: number
}

function tagOf(el: ElementNode, pass: Pass): string {
  return pass.asDiv.has(el) ? 'div' : el.tag
}

/** Tags of the nearest ancestors (innermost last), for the cheap "has ancestor X within 3 levels" checks. */
function nearAncestor(stack: string[], tag: string): boolean {
  for (let i = stack.length - 1; i >= 0 && i >= stack.length - 4; i--) if (stack[i] === tag) return true
  return false
}

function shouldRemove(el: ElementNode, tag: string, c: Counts, pass: Pass, stack: string[], inDataTable: boolean): boolean {
  if (tag === 'table' && el.dataTable) return false
  if (inDataTable || nearAncestor(stack, 'code') || c.dataTable) return false
  const weight = classWeight(el, pass.flags)
  // A block holding half the article is the article, whatever its class says ("field--label-hidden").
  if (weight < 0 && c.text * 2 < pass.articleLength) return true
  if (c.commas >= 10) return false
  if (c.video) return false
  const textLen = c.text
  if (textLen < 24) {
    const text = textOf(el, pass.run)
      .trim()
      .replace(/\s{2,}/g, ' ')
    if (AD_WORDS.test(text) || LOADING_WORDS.test(text)) return true
  }
  const isList = tag === 'ul' || tag === 'ol' || (textLen > 0 ? c.list / textLen > 0.9 : c.list > 0)
  const isFigureChild = nearAncestor(stack, 'figure')
  const li = c.li - 100
  const headingDensity = textLen === 0 ? 0 : c.heading / textLen
  const linkDensity = textLen === 0 ? 0 : c.link / textLen
  const remove =
    (!isFigureChild && c.img > 1 && c.p / c.img < 0.5) ||
    (!isList && li > c.p) ||
    c.input > Math.floor(c.p / 3) ||
    (!isList && !isFigureChild && headingDensity < 0.9 && textLen < 25 && (c.img === 0 || c.img > 2) && linkDensity > 0) ||
    (!isList && weight < 25 && linkDensity > 0.2) ||
    (weight >= 25 && linkDensity > 0.5) ||
    (c.embeds === 1 && textLen < 75) ||
    c.embeds > 1 ||
    (c.img === 0 && !c.textish)
  if (remove && isList) {
    // Simple image galleries (one image per item) survive.
    for (const child of el.children) {
      if (child.isText || child.gone === pass.run) continue
      let elementKids = 0
      for (const k of child.children) if (!k.isText && k.gone !== pass.run) elementKids++
      if (elementKids > 1) return true
    }
    if (c.img === c.li) return false
  }
  return remove
}

/** Post-order walk: returns what `el` contributes to its parent's counts (nothing if removed). */
function walk(el: ElementNode, pass: Pass, stack: string[], inDataTable: boolean): Counts {
  const tag = tagOf(el, pass)
  const inner = zero()
  const insideData = inDataTable || (tag === 'table' && el.dataTable)
  stack.push(tag)
  for (const child of el.children) {
    if (child.isText) {
      const t = textSpan(child)
      joinSpan(inner.span, t)
      inner.commas += t.commas
    } else if (child.gone !== pass.run) {
      add(inner, walk(child, pass, stack, insideData))
    }
  }
  stack.pop()
  inner.text = trimmedLength(inner.span)
  if (pass.targets.has(tag) && shouldRemove(el, tag, inner, pass, stack, inDataTable)) {
    el.gone = pass.run
    return zero()
  }
  switch (tag) {
    case 'p':
      inner.p++
      break
    case 'img':
      inner.img++
      break
    case 'li':
      inner.li++
      break
    case 'input':
      inner.input++
      break
    case 'a': {
      const href = el.attrs.href
      inner.link = href !== undefined && href.length > 1 && href.charCodeAt(0) === 35 ? inner.text * 0.3 : inner.text
      break
    }
    case 'ul':
    case 'ol':
      inner.list = inner.text
      break
    case 'table':
      if (el.dataTable) inner.dataTable = true
      break
    case 'object':
    case 'embed':
    case 'iframe':
      if (hasVideoAttr(el)) inner.video = true
      else inner.embeds++
      break
  }
  if (HEADINGS.has(tag)) inner.heading = inner.text
  if (TEXTISH.has(tag) && inner.text > 0) inner.textish = true
  return inner
}

function collectTags(el: ElementNode, run: number, into: Set<string>): void {
  into.add(el.tag)
  for (const child of el.children) if (!child.isText && child.gone !== run) collectTags(child, run, into)
}

function conditionalPass(article: Article, run: number, flags: number, targets: string[], present: Set<string>, articleLength: number): void {
  if ((flags & FLAG_CLEAN_CONDITIONALLY) === 0) return
  // Most pages have no forms, fieldsets or tables in the article: skip those walks.
  if (!targets.some((t) => present.has(t))) return
  const pass: Pass = { run, flags, targets: new Set(targets), asDiv: article.asDiv, articleLength }
  for (const root of article.roots) if (root.gone !== run) walk(root, pass, [], false)
}

function rowsAndColumns(table: ElementNode, run: number): { rows: number; columns: number } {
  let rows = 0
  let columns = 0
  const visit = (el: ElementNode, row: { cells: number } | null): void => {
    for (const child of el.children) {
      if (child.isText || child.gone === run) continue
      if (child.tag === 'tr') {
        rows += Number.parseInt(child.attrs.rowspan ?? '', 10) || 1
        const r = { cells: 0 }
        visit(child, r)
        columns = Math.max(columns, r.cells)
      } else {
        if (child.tag === 'td' && row !== null) row.cells += Number.parseInt(child.attrs.colspan ?? '', 10) || 1
        visit(child, row)
      }
    }
  }
  visit(table, null)
  return { rows, columns }
}

function hasDescendant(el: ElementNode, tags: ReadonlySet<string>, run: number): boolean {
  for (const child of el.children) {
    if (child.isText || child.gone === run) continue
    if (tags.has(child.tag) || hasDescendant(child, tags, run)) return true
  }
  return false
}

const DATA_TABLE_PARTS = new Set(['col', 'colgroup', 'tfoot', 'thead', 'th'])
const TABLE = new Set(['table'])

/** Layout tables vs data tables: data tables are never cleaned away. */
function isDataTable(table: ElementNode, run: number): boolean {
  const role = table.attrs.role
  if (role === 'presentation') return false
  if (table.attrs.datatable === '0') return false
  if (table.attrs.summary) return true
  for (const child of table.children) if (!child.isText && child.tag === 'caption' && child.children.length > 0) return true
  if (hasDescendant(table, DATA_TABLE_PARTS, run)) return true
  if (hasDescendant(table, TABLE, run)) return false
  const { rows, columns } = rowsAndColumns(table, run)
  if (rows === 1 || columns === 1) return false
  if (rows >= 10 || columns > 4) return true
  return rows * columns > 10
}

function markDataTables(el: ElementNode, run: number): void {
  for (const child of el.children) {
    if (child.isText || child.gone === run) continue
    if (child.tag === 'table') child.dataTable = isDataTable(child, run)
    markDataTables(child, run)
  }
}

const ALWAYS_DROP = new Set(['object', 'embed', 'footer', 'link', 'aside', 'iframe', 'input', 'textarea', 'select', 'button'])

/** Some templates wrap the whole article column in an <aside>: one that holds an <article> is not a sidebar. */
const ARTICLE = new Set(['article'])

/** Unconditional removals: embeds, asides, footers, form controls, share widgets, negative headers. */
/** `inFigure`: `el` is or sits in a <figure>, where a block the template names a caption is one even when written as a bare div. */
function dropFurniture(el: ElementNode, article: Article, run: number, flags: number, inFigure: boolean): void {
  for (const child of el.children) {
    if (child.isText || child.gone === run) continue
    const tag = article.asDiv.has(child) ? 'div' : child.tag
    if (
      ALWAYS_DROP.has(tag) &&
      !((tag === 'object' || tag === 'embed' || tag === 'iframe') && hasVideoAttr(child)) &&
      !(tag === 'aside' && hasDescendant(child, ARTICLE, run))
    ) {
      child.gone = run
      continue
    }
    if ((tag === 'h1' || tag === 'h2') && classWeight(child, flags) < 0) {
      child.gone = run
      continue
    }
    const match = (child.attrs.class ?? '') + ' ' + (child.attrs.id ?? '')
    // Captions and photo credits are not body text (they repeat or annotate it); our deviation from
    // Readability, worth +0.01 F1 on scrapinghub for -0.008 on Readability's own test pages.
    const captionMatch = inFigure && child.alias !== null ? `${match} ${markerOf(child.alias)}` : match
    if (tag === 'figcaption' || (child.textLen < 400 && CAPTION.test(captionMatch))) {
      child.gone = run
      continue
    }
    if (match.length > 1 && SHARE.test(match) && child.textLen < 500) {
      child.gone = run
      continue
    }
    dropFurniture(child, article, run, flags, inFigure || tag === 'figure')
  }
}

/** Readability's "prepArticle", restricted to what changes the text. */
export function cleanArticle(article: Article, run: number, flags: number): void {
  const present = new Set<string>()
  if (article.asDiv.size > 0) present.add('div')
  for (const root of article.roots) collectTags(root, run, present)
  for (const root of article.roots) {
    if (root.tag === 'table') root.dataTable = isDataTable(root, run)
    markDataTables(root, run)
  }
  let articleLength = 0
  for (const root of article.roots) articleLength += root.textLen
  conditionalPass(article, run, flags, ['form'], present, articleLength)
  conditionalPass(article, run, flags, ['fieldset'], present, articleLength)
  for (const root of article.roots) {
    const tag = article.asDiv.has(root) ? 'div' : root.tag
    const embed = tag === 'object' || tag === 'embed' || tag === 'iframe'
    if (ALWAYS_DROP.has(tag) && !(embed && hasVideoAttr(root))) root.gone = run
    else if ((tag === 'h1' || tag === 'h2') && classWeight(root, flags) < 0) root.gone = run
    else dropFurniture(root, article, run, flags, root.tag === 'figure' || hasAncestorTag(root, 'figure', 0))
  }
  conditionalPass(article, run, flags, ['table'], present, articleLength)
  conditionalPass(article, run, flags, ['ul'], present, articleLength)
  conditionalPass(article, run, flags, ['div'], present, articleLength)
}
