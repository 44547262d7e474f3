// Article title: metadata first (JSON-LD, Dublin Core, Open Graph, Twitter), else the <title> with the
// site name trimmed off ("Headline | Site", "Site: Headline").
import type { JsonLdArticle } from './json-ld.ts'
import type { MetaIndex } from './meta-tags.ts'
import { firstMeta } from './meta-tags.ts'
import { textSimilarity } from './text-similarity.ts'

function wordCount(text: string): number {
  return text.split(/\s+/).length
}

/** <title> cleaned of site-name prefixes/suffixes; `headings` are the page's h1/h2 texts. */
export function cleanDocumentTitle(docTitle: string, headings: string[], h1s: string[]): string {
  const original = docTitle.trim().replace(/\s+/g, ' ')
  let title = original
  let hierarchical = false
  if (/ [|\-\\/>»] /.test(title)) {
    hierarchical = / [\\/>»] /.test(title)
    const separators = Array.from(original.matchAll(/ [|\-\\/>»] /g))
    const last = separators[separators.length - 1]
    title = original.slice(0, last?.index ?? original.length)
    if (wordCount(title) < 3) title = original.replace(/^[^|\-\\/>»]*[|\-\\/>»]/, '')
  } else if (title.includes(': ')) {
    if (!headings.some((h) => h.trim() === title)) {
      title = original.slice(original.lastIndexOf(':') + 1)
      if (wordCount(title) < 3) title = original.slice(original.indexOf(':') + 1)
      else if (wordCount(original.slice(0, original.indexOf(':'))) > 5) title = original
    }
  } else if ((title.length > 150 || title.length < 15) && h1s.length === 1) {
    title = (h1s[0] as string).trim()
  }
  title = title.trim().replace(/\s{2,}/g, ' ')
  const words = wordCount(title)
  if (words <= 4 && (!hierarchical || words !== wordCount(original.replace(/[|\-\\/>»]+/g, '')) - 1)) title = original
  return title
}

export function chooseTitle(jsonLd: JsonLdArticle | null, meta: MetaIndex, docTitle: string | null, headings: string[], h1s: string[]): string {
  const cleaned = (): string => cleanDocumentTitle(docTitle ?? '', headings, h1s)
  if (jsonLd !== null) {
    const { name, headline } = jsonLd
    if (name !== null && headline !== null && name !== headline) {
      // Some sites put their own name in "name"; prefer whichever matches the page title.
      const page = cleaned()
      const headlineMatches = textSimilarity(headline, page) > 0.75
      const nameMatches = textSimilarity(name, page) > 0.75
      return headlineMatches && !nameMatches ? headline : name
    }
    if (name !== null || headline !== null) return (name ?? headline) as string
  }
  const fromMeta = firstMeta(meta, [
    'dc:title',
    'dcterm:title',
    'og:title',
    'weibo:article:title',
    'weibo:webpage:title',
    'title',
    'twitter:title',
    'parsely-title',
  ])
  if (fromMeta !== null) return fromMeta
  const fromTitle = cleaned()
  return fromTitle !== '' ? fromTitle : (h1s[0]?.trim().replace(/\s+/g, ' ') ?? '')
}
