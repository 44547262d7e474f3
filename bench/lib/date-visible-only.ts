// The visible-page date rules alone: the page dated with its JSON-LD, meta tags, script state and URL taken
// away (in-page markup and text kept). On pages with metadata the visible page rarely decides, so this is
// how the rules that unseen pages with thin metadata fall back on are measured (docs/extraction.md).
import { dayFirstLocale } from '../../src/scraping/extract/date-parse.ts'
import { extractDates } from '../../src/scraping/extract/dates.ts'
import { indexMetaTags } from '../../src/scraping/extract/meta-tags.ts'
import { parseHtml } from '../../src/scraping/extract/parse-html.ts'

const NO_URL = 'https://example.org/page'

/** The published day the visible page alone gives, or null. */
export function visibleOnlyDay(html: string, fetchedAt: Date): string | null {
  const page = parseHtml(html)
  const dates = extractDates({
    jsonLdObjects: [],
    jsonLdRaw: [],
    meta: indexMetaTags([]),
    // A <meta itemprop> in the body is metadata too.
    dateNodes: page.dateNodes.filter((n) => n.tag !== 'meta'),
    body: page.body,
    headline: page.headings.find((el) => el.tag === 'h1') ?? null,
    url: NO_URL,
    canonicalUrl: null,
    scriptDate: null,
    fetchedAt,
    // The document's language stays: it is how the visible dates are written, not metadata about them.
    dayFirst: dayFirstLocale([page.htmlLang]),
  })
  return dates.published?.slice(0, 10) ?? null
}
