// BM25 (k1 1.2, b 0.75) over the text the index extracted: the plain keyword baseline the relevance
// benchmarks print beside the builder's figures, computed in the same run over the same pages.
import { contentTokens } from '../../src/content/classify/text.ts'
import type { TermStats } from '../../src/curation/builder/rank.ts'

export interface Bm25<T> {
  /** How many items hold each word, as the builder's rarity weighting (weighByRarity) reads its index. */
  termStats(terms: readonly string[]): TermStats
  /** The k best-scoring items for the prompt's words (only those `keep` accepts); items without a prompt word are left out. */
  top(prompt: string, k: number, keep?: (item: T) => boolean): T[]
}

export function bm25<T>(items: readonly { item: T; text: string }[]): Bm25<T> {
  const docs = items.map(({ item, text }) => {
    const tf = new Map<string, number>()
    const toks = contentTokens(text)
    for (const t of toks) tf.set(t, (tf.get(t) ?? 0) + 1)
    return { item, tf, len: toks.length }
  })
  const avgLen = docs.reduce((s, d) => s + d.len, 0) / Math.max(1, docs.length)
  const df = new Map<string, number>()
  for (const d of docs) for (const t of d.tf.keys()) df.set(t, (df.get(t) ?? 0) + 1)
  return {
    termStats: (terms) => ({ pages: docs.length, df: new Map(terms.map((t) => [t, df.get(t) ?? 0])) }),
    top(prompt, k, keep = () => true) {
      const q = [...new Set(contentTokens(prompt))]
      return docs
        .filter((d) => keep(d.item))
        .map((d) => {
          let s = 0
          for (const t of q) {
            const f = d.tf.get(t) ?? 0
            if (!f) continue
            const n = df.get(t) ?? 0
            const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5))
            s += (idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * d.len) / avgLen))
          }
          return { item: d.item, s }
        })
        .filter((x) => x.s > 0)
        .sort((a, b) => b.s - a.s)
        .slice(0, k)
        .map((x) => x.item)
    },
  }
}
