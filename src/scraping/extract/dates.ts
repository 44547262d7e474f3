// Published / last-updated dates, htmldate-style: header markup first (JSON-LD, then the meta tags CMSs
// emit), then in-page markup (<time>, itemprop), then the URL path. The first source that parses wins.
import type { ElementNode } from './dom.ts'
import { textOf } from './dom.ts'
import { parseDate } from './date-parse.ts'
import type { JsonLdArticle } from './json-ld.ts'
import type { MetaIndex } from './meta-tags.ts'

export interface PageDates {
  published: string | null
  modified: string | null
}

export interface DateInputs {
  jsonLd: JsonLdArticle | null
  jsonLdRaw: string[]
  meta: MetaIndex
  dateNodes: Array<{ attrs: Record<string, string>; el: ElementNode | null; tag: string }>
  url: string
}

const PUBLISHED_META = [
  'article:published_time', 'parsely-pub-date', 'og:published_time', 'og:article:published_time',
  'article:published', 'datepublished', 'publishdate', 'publish-date', 'publish_date', 'published_time',
  'published-date', 'pubdate', 'pub_date', 'date_published', 'article_date_original', 'original-publish-date',
  'originalpublicationdate', 'dc:date:issued', 'dcterms:issued', 'dc:date', 'dcterms:date', 'dcterms:created',
  'dc:date:created', 'dcterm:created', 'citation_publication_date', 'citation_date', 'citation_online_date',
  'sailthru:date', 'cxenseparse:recs:publishtime', 'rnews:datepublished', 'bt:pubdate', 'article:post_date',
  'date', 'creation_date', 'created', 'release_date',
]
const MODIFIED_META = [
  'article:modified_time', 'og:updated_time', 'article:modified', 'datemodified', 'last-modified', 'lastmod',
  'modified', 'dcterms:modified', 'dc:date:modified', 'revised', 'updated_time', 'last-updated',
]

function fromMeta(meta: MetaIndex, keys: readonly string[]): string | null {
  for (const key of keys) {
    const value = meta.get(key)
    if (value === undefined) continue
    const parsed = parseDate(value)
    if (parsed !== null) return parsed
  }
  return null
}

/** parsely-page holds a JSON blob with pub_date. */
function fromParselyPage(meta: MetaIndex): string | null {
  const blob = meta.get('parsely-page')
  if (blob === undefined) return null
  const m = /"pub_date"\s*:\s*"([^"]+)"/.exec(blob)
  return m ? parseDate(m[1] as string) : null
}

function fromJsonLdText(blocks: string[], key: string): string | null {
  const re = new RegExp(`"${key}"\\s*:\\s*"([^"]{6,40})"`)
  for (const block of blocks) {
    const m = re.exec(block)
    if (m) {
      const parsed = parseDate(m[1] as string)
      if (parsed !== null) return parsed
    }
  }
  return null
}

function nodeValue(node: { attrs: Record<string, string>; el: ElementNode | null }): string | null {
  const a = node.attrs
  const value = a.datetime ?? a.content ?? a.title ?? (node.el !== null ? textOf(node.el) : null)
  return value === null ? null : parseDate(value)
}

function fromNodes(nodes: DateInputs['dateNodes'], kind: 'published' | 'modified'): string | null {
  const itemprop = kind === 'published' ? /datepublished|datecreated/i : /datemodified/i
  const hint = kind === 'published' ? /publish|entry-date|post-date|posted|article-date|pubdate|created/i : /updated|modified/i
  for (const n of nodes) {
    if (n.attrs.itemprop !== undefined && itemprop.test(n.attrs.itemprop)) {
      const v = nodeValue(n)
      if (v !== null) return v
    }
  }
  for (const n of nodes) {
    if (n.tag !== 'time') continue
    const marker = `${n.attrs.class ?? ''} ${n.attrs.id ?? ''} ${n.attrs.itemprop ?? ''}`
    if ((kind === 'published' && n.attrs.pubdate !== undefined) || hint.test(marker)) {
      const v = nodeValue(n)
      if (v !== null) return v
    }
  }
  if (kind === 'modified') return null
  // Last resort for the publication date: the first machine-readable <time> on the page.
  for (const n of nodes) {
    if (n.tag !== 'time' || n.attrs.datetime === undefined) continue
    if (/updated|modified|comment/i.test(`${n.attrs.class ?? ''} ${n.attrs.itemprop ?? ''}`)) continue
    const v = parseDate(n.attrs.datetime)
    if (v !== null) return v
  }
  return null
}

const URL_DATE = /\/((?:19|20)\d{2})[/_-]?(0[1-9]|1[0-2])[/_-]?(0[1-9]|[12]\d|3[01])(?:\/|[_-]|\.html?|$)/

function fromUrl(url: string): string | null {
  const m = URL_DATE.exec(url)
  return m ? parseDate(`${m[1]}-${m[2]}-${m[3]}`) : null
}

export function extractDates(input: DateInputs): PageDates {
  const ld = input.jsonLd
  const published =
    (ld?.datePublished ? parseDate(ld.datePublished) : null) ??
    fromMeta(input.meta, PUBLISHED_META) ??
    fromParselyPage(input.meta) ??
    // dateCreated is often the CMS record's creation time, in UTC, so it ranks below the meta tags.
    (ld?.dateCreated ? parseDate(ld.dateCreated) : null) ??
    fromJsonLdText(input.jsonLdRaw, 'datePublished') ??
    fromNodes(input.dateNodes, 'published') ??
    fromUrl(input.url)
  const modified =
    (ld?.dateModified ? parseDate(ld.dateModified) : null) ??
    fromMeta(input.meta, MODIFIED_META) ??
    fromJsonLdText(input.jsonLdRaw, 'dateModified') ??
    fromNodes(input.dateNodes, 'modified')
  return { published, modified }
}
