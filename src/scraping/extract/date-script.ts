// A CMS often serialises its article record into an inline script (Shopify's product JSON, a Redux or
// Next.js state, a widget's initial state): `"publishedDate":"2016-11-04T20:37:27Z"`. It is the
// publisher's own record but not a statement made for readers or crawlers, and a state may hold other
// records (related items) too, so it is a last-resort piece of evidence (docs/extraction.md, Dates).

/** Keys that name a publication date, with an ISO date (or date-time) as their string value. */
const SCRIPT_PUBLISHED =
  /\\?["'](datePublished|publishedDate|published_at|publishDate|publishedAt|first_published_at|date_published|publicationDate|pubDate)\\?["']\s*:\s*\\?["']((?:19|20)\d{2}-[01]\d-[0-3]\d(?:[T ][0-2]\d:[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:Z|[+-][0-2]\d:?[0-5]\d)?)?)\\?["']/

/** Scripts beyond this size are bundles, not page state: not searched (bounds the cost). */
const MAX_SCRIPT_CHARS = 2_000_000

export interface ScriptDate {
  key: string
  raw: string
}

/** The first publication-keyed date in one inline script's text, or null. */
export function scriptPublishedDate(text: string): ScriptDate | null {
  // Three plain searches: V8 scans for a literal far faster than for an alternation.
  if (text.length > MAX_SCRIPT_CHARS || (!text.includes('ublish') && !text.includes('ublicat') && !text.includes('pubDate'))) return null
  const m = SCRIPT_PUBLISHED.exec(text)
  return m === null ? null : { key: m[1] as string, raw: m[2] as string }
}
