// Tier-1 top-1 accuracy on the check split of every labelled topic corpus (scripts/lib/topic-corpora.ts),
// for the shipped classifier and its parts (the ablation of docs/taxonomy-and-classification.md).

import { type CorpusName, loadCorpora } from '../../scripts/lib/topic-corpora.ts'
import { analyze } from '../../src/content/classify/analyze.ts'
import { classifyPage, tier1Evidence, tier1Probabilities } from '../../src/content/classify/classify-page.ts'
import { ancestry, getNode, getNodeByUniqueId } from '../../src/content/taxonomy/taxonomy.ts'

export type Variant = 'shipped' | 'model only' | 'vocabulary only'

/** Share of the items classifyPage classifies at all (the rest would be E007 in the index). */
export type Classified = number

export interface CorpusAccuracy {
  corpus: CorpusName
  items: number
  top1: Record<Variant, number>
  classified: Classified
  /** shipped classifier, per expected tier-1 name */
  perClass: Record<string, number>
}

function predict(variant: Variant, title: string, body: string): number | undefined {
  const a = analyze({ title, body }, false)
  if (variant === 'shipped') return tier1Probabilities(a)[0]?.id
  return variant === 'model only' ? tier1Probabilities(a, 0)[0]?.id : tier1Evidence(a)[0]?.id
}

export function corpusAccuracy(): CorpusAccuracy[] {
  const check = loadCorpora().filter((d) => d.split === 'check')
  const out: CorpusAccuracy[] = []
  for (const corpus of [...new Set(check.map((d) => d.corpus))]) {
    const items = check.filter((d) => d.corpus === corpus)
    const hits: Record<Variant, number> = { shipped: 0, 'model only': 0, 'vocabulary only': 0 }
    const cls = new Map<string, [number, number]>()
    let classified = 0
    for (const d of items) {
      if (classifyPage({ title: d.title, text: d.body }).classified) classified++
      // A class mapped to several topics (class-map.json) is right on any of them.
      const wants = d.uids.map((uid) => ancestry(getNodeByUniqueId(uid)?.id ?? -1)[0]?.id)
      const want = wants[0]
      for (const v of Object.keys(hits) as Variant[]) {
        const predicted = predict(v, d.title, d.body)
        const ok = predicted !== undefined && wants.includes(predicted)
        if (ok) hits[v]++
        if (v === 'shipped') {
          const name = want === undefined ? '?' : (getNode(want)?.name ?? '?')
          const e = cls.get(name) ?? [0, 0]
          cls.set(name, [e[0] + (ok ? 1 : 0), e[1] + 1])
        }
      }
    }
    const top1 = Object.fromEntries(Object.entries(hits).map(([k, n]) => [k, n / items.length])) as Record<Variant, number>
    out.push({
      corpus,
      items: items.length,
      top1,
      classified: classified / items.length,
      perClass: Object.fromEntries([...cls].map(([k, [a, n]]) => [k, a / n])),
    })
  }
  return out
}
