// Collects every date a page carries, each with where it came from: JSON-LD (any object, @graph and
// nested), the meta conventions CMSs emit, in-page markup (itemprop, <time>, date-classed elements),
// labelled or headline-adjacent dates in the visible text, and the URL path. dates.ts decides among them.

import { CAPTION } from './content-patterns.ts'
import type { DateMatch } from './date-parse.ts'
import { DAY_MS, findDates, loneShortYearDate, parseDate, parseShortYearDate } from './date-parse.ts'
import type { ScriptDate } from './date-script.ts'
import { inTeaser } from './date-teaser.ts'
import {
  BARE_MORE_AFTER,
  COMMENT_AFTER,
  EMBED_BEFORE,
  OTHERS_LABEL,
  PUBLISHED_AFTER,
  PUBLISHED_LABEL,
  READ_MORE_AFTER,
  READ_MORE_BEFORE,
  SPAN_BETWEEN,
  SPAN_END_BEFORE,
  UPDATED_LABEL,
} from './date-words.ts'
import type { DomNode, ElementNode } from './dom.ts'
import { classFlags, lineOf, markerOf, textOf, textWithin } from './dom.ts'
import type { MetaIndex } from './meta-tags.ts'

export type DateKind = 'published' | 'modified'
export type EvidenceSource = 'json-ld' | 'meta' | 'markup' | 'text' | 'url'

export interface DateEvidence {
  kind: DateKind
  source: EvidenceSource
  /** The key, attribute or rule that held the date (e.g. "article:published_time", "near headline"). */
  field: string
  /** ISO 8601 as parsed (local day and offset kept). */
  value: string
}

const PUBLISHED_META = [
  'article:published_time',
  'og:article:published_time',
  'og:published_time',
  'article:published',
  'article:post_date',
  'parsely-pub-date',
  'sailthru:date',
  'cxenseparse:recs:publishtime',
  'shareaholic:article_published_time',
  'datepublished',
  'date_published',
  'publishdate',
  'publish-date',
  'publish_date',
  'published_time',
  'published-date',
  'publication_date',
  'publication-date',
  'pubdate',
  'pub_date',
  'og:pubdate',
  'article_date_original',
  'original-publish-date',
  'originalpublicationdate',
  'firstpublisheddate',
  'analyticsattributes:articledate',
  'article_date',
  'article:publication_date',
  'displaydate',
  'dc:date:issued',
  'dcterms:issued',
  'dc:date:created',
  'dcterms:created',
  'dcterm:created',
  'citation_publication_date',
  'citation_date',
  'citation_online_date',
  'rnews:datepublished',
  'bt:pubdate',
  'ptime',
  // Further conventions htmldate reads (its DATE_ATTRIBUTES, dots read as colons). Left out: gentime (the
  // page's render time), meta (any name), video:release_date (a film's), timestamp (says nothing of which).
  'article:published_date',
  'article:publicationdate',
  'content_create_date',
  'field-name-post-date',
  'og:datepublished',
  'og:publish_date',
  'og:question:published_time',
  'og:regdate',
  'publish_time',
  'publisheddate',
  'article:created',
  'date_created',
  'datecreated',
  'dateposted',
  'dc:date:publication',
  'dc:created',
  'dcsext:articlefirstpublished',
  'doc_date',
  'mediator_published_time',
  'pdate',
  'pubtime',
  'rbpubdate',
  'twt-published-at',
  'vr:published_time',
  'weibo:article:create_at',
  'dc:date',
  'dcterms:date',
  'date',
  'creation_date',
  'created',
  'release_date',
]
const MODIFIED_META = [
  'article:modified_time',
  'og:article:modified_time',
  'og:updated_time',
  'article:modified',
  'shareaholic:article_modified_time',
  'datemodified',
  'dcterms:modified',
  'dc:date:modified',
  'last-modified',
  'lastmod',
  'modified',
  'revised',
  'updated_time',
  'last-updated',
  'revision_date',
  'utime',
  'article:updated_time',
  'dc:modified',
  'date_modified',
  'last_updated',
  'lastmodified',
]

function fromMeta(meta: MetaIndex, out: DateEvidence[]): void {
  for (const [kind, keys] of [
    ['published', PUBLISHED_META],
    ['modified', MODIFIED_META],
  ] as const) {
    for (const key of keys) {
      const raw = meta.get(key)
      const value = raw === undefined ? null : parseDate(raw)
      if (value !== null) out.push({ kind, source: 'meta', field: key, value })
    }
  }
  // parsely-page holds a JSON blob with pub_date.
  const parsely = meta.get('parsely-page')
  const m = parsely === undefined ? null : /"pub_date"\s*:\s*"([^"]+)"/.exec(parsely)
  const value = m ? parseDate(m[1] as string) : null
  if (value !== null) out.push({ kind: 'published', source: 'meta', field: 'parsely-page', value })
}

const ARTICLE_TYPE = /Article|Posting|Report|BlogPost|NewsArticle|Review|Recipe|Event|Episode|Creative/
const MEDIA_TYPE = /ImageObject|VideoObject|AudioObject|MediaObject|Comment|Person|Organization|WebSite|Product|Offer|Rating|ListItem|BreadcrumbList/

/** Properties that hold other works (listed, related, cited, reviewed): their dates are not the page's. */
const OTHER_THINGS = new Set([
  'itemListElement',
  'hasPart',
  'relatedLink',
  'isPartOf',
  'citation',
  'comment',
  'review',
  'subjectOf',
  'about',
  'mentions',
  'workExample',
  'exampleOfWork',
  'isBasedOn',
  'associatedMedia',
  'image',
  'video',
  'audio',
  'author',
  'publisher',
  'creator',
  'sourceOrganization',
  'potentialAction',
  'offers',
  'aggregateRating',
])

function typesOf(obj: Record<string, unknown>): string {
  const t = obj['@type']
  return (Array.isArray(t) ? t : [t]).filter((x): x is string => typeof x === 'string').join(' ')
}

/** Objects with their rank: 0 article-typed, 1 web page or untyped, 2 anything else (media, comments). */
function walkJsonLd(value: unknown, depth: number, out: Array<{ obj: Record<string, unknown>; rank: number }>): void {
  if (depth > 8 || out.length > 300) return
  if (Array.isArray(value)) {
    for (const v of value) walkJsonLd(v, depth + 1, out)
    return
  }
  if (value === null || typeof value !== 'object') return
  const obj = value as Record<string, unknown>
  const types = typesOf(obj)
  const rank = ARTICLE_TYPE.test(types) ? 0 : MEDIA_TYPE.test(types) ? 2 : 1
  out.push({ obj, rank })
  for (const key in obj) {
    const v = obj[key]
    if (v !== null && typeof v === 'object' && !OTHER_THINGS.has(key)) walkJsonLd(v, depth + 1, out)
  }
}

function fromJsonLd(objects: Array<Record<string, unknown>>, raw: string[], out: DateEvidence[]): void {
  const all: Array<{ obj: Record<string, unknown>; rank: number }> = []
  for (const o of objects) walkJsonLd(o, 0, all)
  const ranked = all.filter((x) => x.rank < 2).sort((a, b) => a.rank - b.rank)
  for (const [kind, key] of [
    ['published', 'datePublished'],
    ['modified', 'dateModified'],
    ['published', 'dateCreated'],
    ['published', 'uploadDate'],
  ] as const) {
    for (const { obj } of ranked) {
      const v = obj[key]
      const value = typeof v === 'string' ? parseDate(v) : null
      if (value !== null) {
        out.push({ kind, source: 'json-ld', field: key, value })
        break
      }
    }
  }
  if (out.some((e) => e.source === 'json-ld')) return
  // Broken JSON-LD (trailing commas, raw newlines) still names its dates.
  for (const [kind, key] of [
    ['published', 'datePublished'],
    ['modified', 'dateModified'],
  ] as const) {
    const re = new RegExp(`"${key}"\\s*:\\s*"([^"]{6,40})"`)
    for (const block of raw) {
      const m = re.exec(block)
      const value = m ? parseDate(m[1] as string) : null
      if (value !== null) {
        out.push({ kind, source: 'json-ld', field: key, value })
        break
      }
    }
  }
}

export interface DateNode {
  attrs: Record<string, string>
  el: ElementNode | null
  tag: string
}

/** A time of day without an offset ("2019-11-20T00:53:52"): whose clock it is on, the value does not say. */
const NO_OFFSET_TIME = /T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/

/**
 * An element's date: its machine-readable attributes first, then its own short text. When an attribute
 * gives a time without an offset and the element shows another day beside it ("2019-11-20T00:53:52"
 * shown as "Nov 19, 2019, 7:53pm EST"), the shown day is the publisher's: the value was on UTC.
 */
function nodeValue(attrs: Record<string, string>, el: ElementNode | null, dayFirst: boolean): string | null {
  // The element's text is read only when needed: most values carry an offset.
  const shown = (): string | null => {
    const text = el === null ? '' : textOf(el)
    return el !== null && text.length <= 200 ? (parseDate(text, dayFirst) ?? parseShortYearDate(text, dayFirst)) : null
  }
  for (const v of [attrs.datetime, attrs.content, attrs.title]) {
    const parsed = v === undefined ? null : parseDate(v)
    if (parsed === null) continue
    if (NO_OFFSET_TIME.test(parsed)) {
      const day = shown()
      if (day !== null && Math.abs(Date.parse(day.slice(0, 10)) - Date.parse(parsed.slice(0, 10))) === DAY_MS) return day
    }
    return parsed
  }
  return shown()
}

const ITEMPROP_PUBLISHED = /datepublished|datecreated|uploaddate/i
const ITEMPROP_MODIFIED = /datemodified/i
const PUBLISHED_HINT =
  /publish|submitted|entry-date|post-date|posted|article-date|pubdate|created|date-main|dateline|byline|datum|fecha|data-pub|timestamp|meta-date|post-meta|entry-meta|article-meta|story-date|news-date|date/i
/** "upd" and "change" as words of a class name: b-article__date-upd, date-changed. */
const MODIFIED_HINT = /updated|modified|revised|aktualisiert|(?:^|[\s_-])upd(?:$|[\s_-])|chang(?:e|ed)(?:$|[\s_-])/i
/**
 * A "today's date" widget shows the day of the visit, not the page's; so does a date named for the site's
 * header (`site-header__below-date`), wherever the template puts it. A class naming only the site header
 * may wrap the article's own header too, so it alone is not enough (measured: a dated byline was lost).
 */
const CURRENT_DATE = /current[-_]?date|today|heute|weather|site-header[\w-]{0,40}date/i
const EXCLUDED_HINT = new RegExp(
  `${CURRENT_DATE.source}|comment|related|sidebar|widget|footer|archive|calendar|event|copyright|teaser|recent|popular|reply|kommentar`,
  'i',
)
/**
 * A comment thread's dates are its readers', however their own elements are named ("date", "time"); a
 * date in the site navigation is the day of the visit or of another page.
 */
const OTHERS_AREA = /comment|repl(?:y|ies)|respond|kommentar|disqus|(?:^|\s)(?:nav|navbar|navtop|navigation|topbar|top-bar)(?:$|\s)/i

function inComments(el: ElementNode | null): boolean {
  let depth = 0
  for (let n = el?.parent ?? null; n !== null && depth < 8; n = n.parent, depth++) {
    if (n.tag === 'nav' || OTHERS_AREA.test(markerOf(n))) return true
  }
  return false
}

const LABEL_CHARS = 40
const LABEL_NODES = 100

/**
 * The words right before an element in its own line ("<span>Updated <time>…"): a label there says which
 * date the element holds, as its class may not. Read backwards up to two levels up, never across a
 * block, a line break or another <time>, and within a bounded number of nodes however large the page.
 */
function labelBefore(el: ElementNode | null): string {
  const levels: DomNode[][] = []
  for (let n = el, depth = 0; n?.parent && depth < 2; n = n.parent, depth++) {
    const siblings = n.parent.children
    const at = siblings.indexOf(n)
    levels.push(siblings.slice(Math.max(0, at - 8), at))
    if (LINE_BREAKING.has(n.parent.tag)) break
  }
  // The nearest level last, so the nearest text is popped first, in reverse document order.
  const stack = levels.reverse().flat()
  let out = ''
  let visited = 0
  for (let node = stack.pop(); node !== undefined && out.length < LABEL_CHARS && visited < LABEL_NODES; node = stack.pop(), visited++) {
    if (node.isText) out = node.text + out
    else if (LINE_BREAKING.has(node.tag)) break
    else for (const child of node.children) stack.push(child)
  }
  return out.slice(-LABEL_CHARS)
}

/** Whether the text just before `at` labels the date there an update ("Updated", "Stand:", "Last edited:"). */
const updateLabelBefore = (text: string, at: number): boolean => UPDATED_LABEL.test(text.slice(Math.max(0, at - LABEL_CHARS), at))

const labelledUpdate = (el: ElementNode | null): boolean => UPDATED_LABEL.test(labelBefore(el))

/** A <time> that dates something else: a widget or list by its class, a comment, another article's teaser. */
function othersTime(n: DateNode, marker: string, headlineLine: ReadonlySet<ElementNode>): boolean {
  return EXCLUDED_HINT.test(marker) || inComments(n.el) || (n.el !== null && inTeaser(n.el, headlineLine))
}

function fromMarkup(nodes: DateNode[], headlineLine: ReadonlySet<ElementNode>, dayFirst: boolean, out: DateEvidence[]): void {
  for (const n of nodes) {
    const prop = n.attrs.itemprop
    if (prop === undefined) continue
    const kind = ITEMPROP_PUBLISHED.test(prop) ? 'published' : ITEMPROP_MODIFIED.test(prop) ? 'modified' : null
    const value = kind === null || inComments(n.el) ? null : nodeValue(n.attrs, n.el, dayFirst)
    if (kind !== null && value !== null) out.push({ kind, source: 'markup', field: n.tag === 'meta' ? `meta[itemprop=${prop}]` : `itemprop=${prop}`, value })
  }
  for (const n of nodes) {
    if (n.tag !== 'time') continue
    const marker = markerOf(n)
    if (othersTime(n, marker, headlineLine)) continue
    const kind =
      MODIFIED_HINT.test(marker) || labelledUpdate(n.el) ? 'modified' : n.attrs.pubdate !== undefined || PUBLISHED_HINT.test(marker) ? 'published' : null
    const value = kind === null ? null : nodeValue(n.attrs, n.el, dayFirst)
    if (kind !== null && value !== null)
      out.push({ kind, source: 'markup', field: n.attrs.pubdate !== undefined ? 'time[pubdate]' : `time.${marker.trim()}`, value })
  }
  // Last resort among the markup: the first machine-readable <time> that is not an update or a comment's.
  for (const n of nodes) {
    if (
      n.tag !== 'time' ||
      n.attrs.datetime === undefined ||
      MODIFIED_HINT.test(n.attrs.class ?? '') ||
      labelledUpdate(n.el) ||
      othersTime(n, markerOf(n), headlineLine)
    )
      continue
    const value = parseDate(n.attrs.datetime)
    if (value !== null) {
      out.push({ kind: 'published', source: 'markup', field: 'first time[datetime]', value })
      break
    }
  }
}

/** The visible text in document order, with where the headline starts and the date-classed elements. */
interface TextView {
  text: string
  headline: number
  classed: Array<{ el: ElementNode; at: number; marker: string }>
  /** Positions where a block (paragraph, cell, span…) starts or ends, ascending. */
  breaks: number[]
}

const BLOCK = new Set([
  'p',
  'div',
  'li',
  'td',
  'th',
  'tr',
  'br',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'section',
  'article',
  'header',
  'footer',
  'time',
  'span',
  'abbr',
  'dd',
  'dt',
])
/** Elements that end a line of text (the view's blocks but inline spans, and lists and tables): a label is not read across them. */
const LINE_BREAKING: ReadonlySet<string> = new Set([...[...BLOCK].filter((t) => t !== 'span' && t !== 'abbr'), 'ul', 'ol', 'table'])
/**
 * A page's own dates sit near its headline: the view stops this far past the headline (or after
 * MAX_VIEW_CHARS without one), which bounds the cost on long pages. Mega-menus can put the headline
 * hundreds of thousands of characters down: past MAX_VIEW_CHARS, only the text just before it is kept.
 */
const MAX_VIEW_CHARS = 100_000
const AFTER_HEADLINE_CHARS = 20_000
const BEFORE_HEADLINE_CHARS = 5_000
const MAX_VIEW_NODES = 300_000
/** A caption-classed element longer than this is a wrapper (an article "with-caption"), not a caption. */
const MAX_CAPTION_CHARS = 400

// What an element's class and id tell textView, as bits: a date widget of the visit's day, a caption, a
// date's own element, one in an area whose dates are not the page's.
const TODAY = 1
const CAPTIONED = 2
const DATED = 4
const EXCLUDED = 8
const OTHERS = 16
const BYLINE_BOX = 32
/**
 * A byline box by its own class word: dated even when another of its classes names a widget
 * ("entry-meta nyo-social-comments" holds the author, the date and a comment count).
 */
const BYLINE_CLASS = /(?:^|\s)(?:entry-meta|post-meta|article-meta|byline)(?:$|\s)/i
const hintsOf = classFlags(
  (value) =>
    (CURRENT_DATE.test(value) ? TODAY : 0) |
    (OTHERS_AREA.test(value) ? OTHERS : 0) |
    (CAPTION.test(value) ? CAPTIONED : 0) |
    (PUBLISHED_HINT.test(value) || MODIFIED_HINT.test(value) ? DATED : 0) |
    (EXCLUDED_HINT.test(value) ? EXCLUDED : 0) |
    (BYLINE_CLASS.test(value) ? BYLINE_BOX : 0),
)

function textView(body: ElementNode, headlineEl: ElementNode | null, headlineLine: ReadonlySet<ElementNode>): TextView {
  let parts: string[] = []
  let length = 0
  let headline = -1
  let classed: TextView['classed'] = []
  let breaks: number[] = []
  const stack: Array<DomNode | null> = [body]
  const holdsHeadline = new Set<DomNode>()
  for (let n: ElementNode | null = headlineEl; n !== null; n = n.parent) holdsHeadline.add(n)
  const blockBreak = (): void => {
    breaks.push(length)
    parts.push(' ')
    length++
  }
  let nodes = 0
  while (stack.length > 0 && (headline < 0 || length < headline + AFTER_HEADLINE_CHARS) && nodes++ < MAX_VIEW_NODES) {
    if (headline < 0 && length >= MAX_VIEW_CHARS) {
      if (headlineEl === null) break
      const cut = length - BEFORE_HEADLINE_CHARS
      parts = [parts.join('').slice(cut)]
      length -= cut
      classed = classed.filter((c) => c.at >= cut).map((c) => ({ ...c, at: c.at - cut }))
      breaks = breaks.filter((b) => b >= cut).map((b) => b - cut)
    }
    const node = stack.pop()
    if (node === undefined) break
    if (node === null) {
      blockBreak()
      continue
    }
    if (node.isText) {
      parts.push(node.text)
      length += node.text.length
      continue
    }
    if (node === headlineEl) headline = length
    const hints = hintsOf(node)
    if (hints & TODAY) continue
    // A comment thread's or the navigation's dates are not the page's (inComments), nor is their text;
    // a byline's "date-and-comments" box is the page's own. Nor is a <header> before the headline that
    // does not hold it: the site's banner, whose date is the day of the visit. The block still ends
    // what came before it.
    const sitesBanner = node.tag === 'header' && headline < 0 && headlineEl !== null
    if ((node.tag === 'nav' || sitesBanner || (hints & (OTHERS | DATED)) === OTHERS) && !holdsHeadline.has(node)) {
      if (BLOCK.has(node.tag)) blockBreak()
      continue
    }
    // A caption dates its photo ("… rallies outside Paramount, Friday, Nov. 3"), not the page; one that
    // holds the headline is a hero image's header.
    if ((node.tag === 'figcaption' || (hints & CAPTIONED && textWithin(node, MAX_CAPTION_CHARS) !== null)) && !headlineLine.has(node)) continue
    const dated = (hints & (DATED | EXCLUDED)) === DATED || (hints & BYLINE_BOX) !== 0
    if (dated && !inComments(node)) classed.push({ el: node, at: length, marker: markerOf(node) })
    if (BLOCK.has(node.tag)) {
      blockBreak()
      stack.push(null)
    }
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as DomNode)
  }
  return { text: parts.join(''), headline, classed, breaks }
}

/** Whether an element's own text labels its first date an update ("Updated Nov 13, 2019, 10:28am EST"). */
function labelledWithin(el: ElementNode, dayFirst: boolean): boolean {
  const own = textWithin(el, 300)
  if (own === null) return false
  const first = findDates(own, 1, dayFirst)[0]
  return first !== undefined && updateLabelBefore(own, first.index)
}

/** Date-classed elements ("post-date", "datum", "entry-meta"): the first one at or after the headline. */
function fromClassed(view: TextView, headlineLine: ReadonlySet<ElementNode>, dayFirst: boolean, out: DateEvidence[]): void {
  const after = view.headline < 0 ? view.classed : view.classed.filter((c) => c.at >= view.headline - 300)
  for (const list of [after, view.classed]) {
    for (const c of list.slice(0, 40)) {
      if (inTeaser(c.el, headlineLine)) continue
      // "Last edited: <span class=date>…</span>": the label before the element says which date it holds,
      // or the label inside it before its first date ("<span class=byline-item>Updated <time>…").
      const update = updateLabelBefore(view.text, c.at) || labelledWithin(c.el, dayFirst)
      const kind: DateKind = (MODIFIED_HINT.test(c.marker) && !/publish/i.test(c.marker)) || update ? 'modified' : 'published'
      const value = nodeValue(c.el.attrs, c.el, dayFirst)
      if (value !== null) {
        out.push({ kind, source: 'markup', field: `class=${c.marker.trim().slice(0, 60)}`, value })
        return
      }
    }
  }
}

/** A dateline or byline date stands alone or opens its block; one deep in a long paragraph is a mention. */
const PROSE_BLOCK_CHARS = 200
const OPENING_CHARS = 40

/** The index of the first break after `pos` in the view (view.breaks.length when none). */
function breakAfter(view: TextView, pos: number): number {
  let lo = 0
  let hi = view.breaks.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if ((view.breaks[mid] as number) <= pos) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Where the block holding text[index, end) starts and ends in the view. */
function blockAround(view: TextView, index: number, endAt: number): { start: number; end: number } {
  const lo = breakAfter(view, index)
  const start = lo > 0 ? (view.breaks[lo - 1] as number) : 0
  let end = view.text.length
  for (let i = lo; i < view.breaks.length; i++) {
    if ((view.breaks[i] as number) >= endAt) {
      end = view.breaks[i] as number
      break
    }
  }
  return { start, end }
}

function inProse(view: TextView, d: DateMatch): boolean {
  const { start, end } = blockAround(view, d.index, d.end)
  return end - start > PROSE_BLOCK_CHARS && d.index - start > OPENING_CHARS
}

// A dateline stands this far above the headline at most (past a kicker, a breadcrumb or a category
// line); below it, a byline within the article's first paragraphs (NEAR_AFTER_HEADLINE).
const NEAR_BEFORE_HEADLINE = 400
const NEAR_AFTER_HEADLINE = 1500
// A lone two-digit-year date is read only right beside the headline.
const LONE_DATE_AFTER_HEADLINE = 400

/**
 * A dateline with a two-digit year standing alone in its own block beside the headline ("02.12.19"
 * above it). In running text "1.2.10" is as likely a version or a section number; alone by the headline,
 * with two-digit day and month, it is the page's date (loneShortYearDate). Two such dates there are a
 * list of dated teasers, and neither is the page's.
 */
function standaloneShortDate(view: TextView, dayFirst: boolean): string | null {
  const from = view.headline - NEAR_BEFORE_HEADLINE
  const to = view.headline + LONE_DATE_AFTER_HEADLINE
  const found = new Set<string>()
  // Blocks run from one break to the next; the first one that ends after `from` is the first looked at.
  for (let i = breakAfter(view, from); i <= view.breaks.length; i++) {
    const start = i > 0 ? (view.breaks[i - 1] as number) : 0
    if (start > to) break
    const end = i < view.breaks.length ? (view.breaks[i] as number) : view.text.length
    const value = loneShortYearDate(view.text.slice(start, end), dayFirst)
    if (value !== null) found.add(value.slice(0, 10))
  }
  return found.size === 1 ? ([...found][0] as string) : null
}

/**
 * A date the prose talks about, not one the page states of itself. A verb-final publication statement at
 * a post's foot ("Dieser Beitrag wurde am 3. Dezember 2011 um 10:00 Uhr veröffentlicht und unter …
 * abgelegt") is a long sentence too, but it is the post's own byline.
 */
function isMention(view: TextView, d: DateMatch): boolean {
  return inProse(view, d) && !PUBLISHED_AFTER.test(view.text.slice(d.end, d.end + 60))
}

/**
 * An embedded post's date, a reader comment's, a teaser's or an event's, by the words around it
 * (date-words.ts) and by the dates beside it (a span's start or end).
 */
function isOthers(view: TextView, d: DateMatch, dates: DateMatch[]): boolean {
  const before = view.text.slice(Math.max(0, d.index - 120), d.index)
  const after = view.text.slice(d.end, d.end + 40)
  // Markup's indentation can stand between a card's date and its link.
  const followed = view.text.slice(d.end, d.end + 200)
  return (
    EMBED_BEFORE.test(before) ||
    READ_MORE_BEFORE.test(before.slice(-40)) ||
    OTHERS_LABEL.test(before.slice(-40)) ||
    COMMENT_AFTER.test(after) ||
    READ_MORE_AFTER.test(followed) ||
    bareMoreLink(view, d.end, followed) ||
    spanEnd(before.slice(-20), d) ||
    dates.some((o) => o !== d && (o.end <= d.index ? d.index - o.end : o.index - d.end) <= 12 && spanBetween(view, o, d))
  )
}

/** A bare "Mehr" right after a date that is a block of its own, a card's link: blocks start before and end after it. */
function bareMoreLink(view: TextView, from: number, followed: string): boolean {
  const m = BARE_MORE_AFTER.exec(followed)
  if (m === null) return false
  const start = from + (m[1] as string).length
  const end = from + m[0].length
  const rest = view.text.slice(end, end + 40)
  const trailing = rest.length - rest.trimStart().length
  return breakWithin(view, from, start) && (end + trailing >= view.text.length || breakWithin(view, end, end + trailing))
}

/** Whether a block break falls in [lo, hi] of the view. */
function breakWithin(view: TextView, lo: number, hi: number): boolean {
  const i = breakAfter(view, lo - 1)
  return i < view.breaks.length && (view.breaks[i] as number) <= hi
}

/** "9-23 Feb 2017": the date ends a span that a smaller day starts. */
function spanEnd(before: string, d: DateMatch): boolean {
  const m = SPAN_END_BEFORE.exec(before)
  return m !== null && Number(m[1]) < Number(d.iso.slice(8, 10))
}

function spanBetween(view: TextView, a: DateMatch, b: DateMatch): boolean {
  const [first, second] = a.index < b.index ? [a, b] : [b, a]
  return first.end <= second.index && SPAN_BETWEEN.test(view.text.slice(first.end, second.index))
}

/**
 * The last resort: the date nearest the headline, before or after it (a dateline above it, a byline at the
 * article's foot), that is not a mention in the prose. The first date after the headline is as often a
 * teaser's or a caption's further down while the page's own stands just above the headline. A page whose
 * only dates are mentions has no date of its own to give. Without a headline, the first date on the page.
 */
function nearestOwnDate(view: TextView, candidates: DateMatch[], all: DateMatch[]): DateMatch | undefined {
  let best: DateMatch | undefined
  let bestDistance = Number.POSITIVE_INFINITY
  for (const d of candidates) {
    const distance = view.headline < 0 ? d.index : Math.abs(d.index - view.headline)
    if (distance < bestDistance && !isMention(view, d) && !isOthers(view, d, all)) {
      best = d
      bestDistance = distance
    }
  }
  return best
}

/** Dates in the visible text: labelled ones ("Veröffentlicht am …", "Updated: …"), then near the headline. */
function fromText(view: TextView, dayFirst: boolean, out: DateEvidence[]): void {
  const dates = findDates(view.text, 400, dayFirst)
  let published = false
  let modified = false
  for (const d of dates) {
    const before = view.text.slice(Math.max(0, d.index - 40), d.index)
    if (!published && PUBLISHED_LABEL.test(before)) {
      out.push({ kind: 'published', source: 'text', field: 'labelled', value: d.iso })
      published = true
    } else if (!modified && UPDATED_LABEL.test(before)) {
      out.push({ kind: 'modified', source: 'text', field: 'labelled', value: d.iso })
      modified = true
    }
  }
  const unlabelled = dates.filter((d) => !updateLabelBefore(view.text, d.index))
  if (view.headline >= 0) {
    // A date the article's prose mentions is no dateline (it stays a last resort, below).
    const near = unlabelled.find(
      (d) =>
        d.index >= view.headline - NEAR_BEFORE_HEADLINE && d.index <= view.headline + NEAR_AFTER_HEADLINE && !inProse(view, d) && !isOthers(view, d, dates),
    )
    const value = near?.iso ?? standaloneShortDate(view, dayFirst)
    if (value !== null) out.push({ kind: 'published', source: 'text', field: 'near headline', value })
  }
  const own = nearestOwnDate(view, unlabelled, dates)
  if (own !== undefined) out.push({ kind: 'published', source: 'text', field: 'nearest in text', value: own.iso })
}

// A one-digit day must end its path segment: in /2023/10/3-fragen-an… the 3 starts the slug.
const URL_DATE = /\/((?:19|20)\d{2})([/_-])(0?[1-9]|1[0-2])\2((?:0[1-9]|[12]\d|3[01])(?=[/_-]|\.html?|$)|[1-9](?=\/|\.html?|$))/
const URL_COMPACT = /[/_-]((?:19|20)\d{2})()(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?:[/_.-]|$)/
/** /2019/may/12/ (The Guardian and others write the month as a word). */
const URL_MONTH_NAME =
  /\/((?:19|20)\d{2})\/(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t|tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\/(0?[1-9]|[12]\d|3[01])(?=[/_-]|\.html?|$)/i

function urlDay(url: string): string | null {
  let path = url
  try {
    path = new URL(url).pathname
  } catch {
    // not a URL: scan it as it is
  }
  for (const re of [URL_DATE, URL_COMPACT]) {
    const m = re.exec(path)
    const value = m ? parseDate(`${m[1]}-${(m[3] as string).padStart(2, '0')}-${(m[4] as string).padStart(2, '0')}`) : null
    if (value !== null) return value
  }
  const named = URL_MONTH_NAME.exec(path)
  return named ? parseDate(`${named[3]} ${named[2]} ${named[1]}`) : null
}

/**
 * The day in the page's URL path, else in its canonical URL's: a syndicated copy (MSN, a feed proxy)
 * points to the original, whose CMS wrote the day into its path.
 */
function fromUrl(url: string, canonicalUrl: string | null, out: DateEvidence[]): void {
  const own = urlDay(url)
  if (own !== null) {
    out.push({ kind: 'published', source: 'url', field: 'path', value: own })
    return
  }
  const canonical = canonicalUrl === null ? null : urlDay(canonicalUrl)
  if (canonical !== null) out.push({ kind: 'published', source: 'url', field: 'canonical path', value: canonical })
}

export interface EvidenceInputs {
  jsonLdObjects: Array<Record<string, unknown>>
  jsonLdRaw: string[]
  meta: MetaIndex
  dateNodes: DateNode[]
  body: ElementNode
  /** The page's headline element (its h1), where bylines and datelines sit. */
  headline: ElementNode | null
  url: string
  /** The page's canonical URL (metadata.ts), read for a date when its own URL has none. */
  canonicalUrl: string | null
  /** The first publication-keyed date in an inline script (date-script.ts). */
  scriptDate: ScriptDate | null
  /** The page's declared locale writes 02/11/2023 day first (dayFirstLocale); otherwise such a date is refused. */
  dayFirst: boolean
}

/** Header evidence (JSON-LD, meta, markup) and URL: cheap, always collected. */
export function headerEvidence(input: EvidenceInputs): DateEvidence[] {
  const out: DateEvidence[] = []
  fromJsonLd(input.jsonLdObjects, input.jsonLdRaw, out)
  fromMeta(input.meta, out)
  fromMarkup(input.dateNodes, lineOf(input.headline), input.dayFirst, out)
  fromUrl(input.url, input.canonicalUrl, out)
  const scripted = input.scriptDate === null ? null : parseDate(input.scriptDate.raw)
  if (scripted !== null) out.push({ kind: 'published', source: 'meta', field: `script:${input.scriptDate?.key}`, value: scripted })
  return out
}

/** Evidence from the page body (date-classed elements and visible text): collected only when needed. */
export function bodyEvidence(input: EvidenceInputs): DateEvidence[] {
  const out: DateEvidence[] = []
  const headlineLine = lineOf(input.headline)
  const view = textView(input.body, input.headline, headlineLine)
  fromClassed(view, headlineLine, input.dayFirst, out)
  fromText(view, input.dayFirst, out)
  return out
}
