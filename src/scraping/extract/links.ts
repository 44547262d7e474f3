// Absolute http(s) links of a page for further crawl hops: resolved against <base href> (itself resolved
// against the page URL), fragment removed, deduplicated in document order.

/** Upper bound per page; link farms can list tens of thousands. */
export const MAX_LINKS = 5000

export function baseUrl(pageUrl: string, baseHref: string | null): URL | null {
  let page: URL | null = null
  try {
    page = new URL(pageUrl)
  } catch {
    page = null
  }
  if (baseHref !== null) {
    try {
      return new URL(baseHref.trim(), page ?? undefined)
    } catch {
      // An unusable <base> is ignored, as browsers do.
    }
  }
  return page
}

export function resolveUrl(href: string, base: URL | null): string | null {
  const trimmed = href.trim()
  if (trimmed === '') return null
  try {
    const url = new URL(trimmed, base ?? undefined)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
    url.hash = ''
    return url.href
  } catch {
    return null
  }
}

const NOT_NAVIGATION = /^\s*(#|javascript:|mailto:|tel:|data:|sms:)/i

export function collectLinks(hrefs: string[], base: URL | null): string[] {
  const seenRaw = new Set<string>()
  const out = new Set<string>()
  for (const href of hrefs) {
    if (out.size >= MAX_LINKS) break
    if (seenRaw.has(href) || NOT_NAVIGATION.test(href)) continue
    seenRaw.add(href)
    const resolved = resolveUrl(href, base)
    if (resolved !== null) out.add(resolved)
  }
  return [...out]
}
