// The baseline the date extractor is measured against: meta tags only, the way a simple scraper reads
// them (linkedom, a fixed list of the common publication-date keys, the first that holds an ISO day).
import { parseHTML } from 'linkedom'

const KEYS = [
  'article:published_time',
  'og:published_time',
  'og:article:published_time',
  'datepublished',
  'publishdate',
  'pubdate',
  'parsely-pub-date',
  'sailthru.date',
  'dc.date',
  'dc.date.issued',
  'dcterms.date',
  'dcterms.issued',
  'date',
]

/** The publication day (YYYY-MM-DD) a meta-tags-only reader finds, or null. */
export function metaTagsOnlyDay(html: string): string | null {
  try {
    const { document } = parseHTML(html)
    const found = new Map<string, string>()
    for (const meta of document.querySelectorAll('meta')) {
      const key = (meta.getAttribute('property') ?? meta.getAttribute('name') ?? meta.getAttribute('itemprop') ?? '').toLowerCase()
      const content = meta.getAttribute('content') ?? ''
      if (key !== '' && !found.has(key)) found.set(key, content)
    }
    for (const key of KEYS) {
      const m = /^\s*(\d{4}-\d{2}-\d{2})/.exec(found.get(key) ?? '')
      if (m) return m[1] as string
    }
    return null
  } catch {
    return null
  }
}
