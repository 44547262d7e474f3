// Page metadata for the scrape result (spec 2.7): canonical URL, Open Graph, author, description, robots.
import type { DateEvidenceRecord } from './dates.ts'
import type { JsonLdArticle } from './json-ld.ts'
import { resolveUrl } from './links.ts'
import type { MetaIndex } from './meta-tags.ts'
import { firstMeta } from './meta-tags.ts'

export interface PageMetadata {
  canonical_url: string | null
  og_title: string | null
  og_description: string | null
  og_image: string | null
  og_type: string | null
  author: string | null
  meta_description: string | null
  robots: string | null
  /**
   * Where the published and last-updated dates came from, and dates the page carries that were rejected.
   * Absent where no page was extracted (a failed fetch) and on pages indexed before it existed.
   */
  date_evidence?: DateEvidenceRecord | null
}

const IS_URL = /^https?:\/\//i

/** Author named in metadata (not a profile URL), or null. */
export function metadataAuthor(meta: MetaIndex, jsonLd: JsonLdArticle | null): string | null {
  const articleAuthor = meta.get('article:author')
  return (
    jsonLd?.author ??
    firstMeta(meta, ['dc:creator', 'dcterm:creator', 'author', 'parsely-author', 'sailthru:author', 'byl']) ??
    (articleAuthor !== undefined && !IS_URL.test(articleAuthor) ? articleAuthor : null)
  )
}

/** The page's canonical URL: its <link rel=canonical>, else og:url. */
export function canonicalUrl(linkTags: Array<Record<string, string>>, meta: MetaIndex, base: URL | null): string | null {
  for (const attrs of linkTags) {
    const rel = (attrs.rel ?? '').toLowerCase().split(/\s+/)
    if (rel.includes('canonical') && attrs.href) {
      const url = resolveUrl(attrs.href, base)
      if (url !== null) return url
    }
  }
  const og = meta.get('og:url')
  return og !== undefined ? resolveUrl(og, base) : null
}

export function buildMetadata(
  meta: MetaIndex,
  canonical: string | null,
  jsonLd: JsonLdArticle | null,
  pageByline: string | null,
  base: URL | null,
  dateEvidence: DateEvidenceRecord | null,
): PageMetadata {
  const image = firstMeta(meta, ['og:image', 'og:image:url', 'og:image:secure_url', 'twitter:image', 'twitter:image:src'])
  return {
    canonical_url: canonical,
    og_title: meta.get('og:title') ?? null,
    og_description: meta.get('og:description') ?? null,
    og_image: image !== null ? resolveUrl(image, base) : null,
    og_type: meta.get('og:type') ?? null,
    author: metadataAuthor(meta, jsonLd) ?? (pageByline !== null && pageByline !== '' ? pageByline : null),
    meta_description: meta.get('description') ?? null,
    robots: meta.get('robots') ?? null,
    date_evidence: dateEvidence,
  }
}
