// Indexes <meta> tags by every key they answer to (name, property, itemprop), lower-cased, first one wins.
// Dots in names are read as colons so "dc.title" and "dc:title" meet.

export type MetaIndex = Map<string, string>

export function indexMetaTags(metas: Array<Record<string, string>>): MetaIndex {
  const index: MetaIndex = new Map()
  for (const attrs of metas) {
    const content = attrs.content
    if (content === undefined) continue
    const value = content.trim()
    if (value === '') continue
    for (const keyAttr of [attrs.property, attrs.name, attrs.itemprop]) {
      if (keyAttr === undefined) continue
      // property may hold several space-separated names (RDFa).
      for (const raw of keyAttr.split(/\s+/)) {
        if (raw === '') continue
        const key = raw.toLowerCase().replace(/\./g, ':')
        if (!index.has(key)) index.set(key, value)
      }
    }
  }
  return index
}

export function firstMeta(index: MetaIndex, keys: readonly string[]): string | null {
  for (const key of keys) {
    const value = index.get(key)
    if (value !== undefined) return value
  }
  return null
}
