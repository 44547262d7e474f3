// Reads the schema.org article object out of JSON-LD blocks: headline, author, description and dates.
// Pages often ship several blocks (breadcrumbs, organisation, article) and @graph arrays, so every object
// is visited and the first article-typed one wins.

export interface JsonLdArticle {
  name: string | null
  headline: string | null
  author: string | null
  description: string | null
  datePublished: string | null
  dateCreated: string | null
  dateModified: string | null
}

const ARTICLE_TYPE = /Article|Posting|Report|APIReference|WebPage/

function typeMatches(value: unknown, strict: boolean): boolean {
  const types = Array.isArray(value) ? value : [value]
  return types.some((t) => typeof t === 'string' && (strict ? ARTICLE_TYPE.test(t) && !/WebPage/.test(t) : ARTICLE_TYPE.test(t)))
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null
}

function authorName(value: unknown): string | null {
  const list = Array.isArray(value) ? value : [value]
  const names: string[] = []
  for (const a of list) {
    if (typeof a === 'string') {
      if (a.trim() !== '' && !/^https?:\/\//.test(a)) names.push(a.trim())
    } else if (a !== null && typeof a === 'object') {
      const name = str((a as Record<string, unknown>).name)
      if (name !== null) names.push(name)
    }
  }
  return names.length > 0 ? names.join(', ') : null
}

function collectObjects(value: unknown, out: Array<Record<string, unknown>>, depth: number): void {
  if (depth > 6 || out.length > 200) return
  if (Array.isArray(value)) {
    for (const v of value) collectObjects(v, out, depth + 1)
  } else if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>
    out.push(obj)
    if (Array.isArray(obj['@graph'])) collectObjects(obj['@graph'], out, depth + 1)
    if (obj.mainEntity !== undefined) collectObjects(obj.mainEntity, out, depth + 1)
  }
}

export function parseJsonLdBlocks(blocks: string[]): Array<Record<string, unknown>> {
  const objects: Array<Record<string, unknown>> = []
  for (const block of blocks) {
    const text = block.replace(/^\s*<!\[CDATA\[|\]\]>\s*$/g, '').trim()
    if (text === '' || text.length > 2_000_000) continue
    try {
      collectObjects(JSON.parse(text), objects, 0)
    } catch {
      // Broken JSON-LD is common (trailing commas, raw newlines); the regex fallbacks still see it.
    }
  }
  return objects
}

export function findArticle(objects: Array<Record<string, unknown>>): JsonLdArticle | null {
  const article = objects.find((o) => typeMatches(o['@type'], true)) ?? objects.find((o) => typeMatches(o['@type'], false))
  if (article === undefined) return null
  return {
    name: str(article.name),
    headline: str(article.headline),
    author: authorName(article.author),
    description: str(article.description),
    datePublished: str(article.datePublished),
    dateCreated: str(article.dateCreated),
    dateModified: str(article.dateModified),
  }
}
