import { ancestry, getNodeByUniqueId } from '../taxonomy/taxonomy.ts'
import classMap from './class-map.json' with { type: 'json' }

/** Tier-1 nodes the topic model does not predict: media genres describe a format, not a subject, and sensitive topics are scored apart (brand safety). */
export const TOPIC_ROOT_EXCLUDED: ReadonlySet<string> = new Set(['SPSHQ5', 'v9i3On'])

/** The labelled corpora the topic models train on (fixtures/topics), by the names class-map.json uses. */
export const CORPORA = ['huffpost', '20news', 'dbpedia'] as const
export type CorpusName = (typeof CORPORA)[number]
/** How reasons and docs name each corpus. */
export const CORPUS_TITLES: Record<CorpusName, string> = { huffpost: 'HuffPost', '20news': '20 Newsgroups', dbpedia: 'DBpedia' }

export function isCorpusName(name: string): name is CorpusName {
  return (CORPORA as readonly string[]).includes(name)
}

let covered: ReadonlySet<number> | undefined

/**
 * Tier-1 taxonomy ids some training corpus class maps to (class-map.json). The topic model learned
 * the others (Video Gaming, Law, War and Conflicts, Shopping…) from the vocabulary's one-word
 * pseudo-documents alone.
 */
export function corpusTopics(): ReadonlySet<number> {
  if (covered) return covered
  const out = new Set<number>()
  for (const corpus of CORPORA) {
    for (const target of Object.values(classMap[corpus] as Record<string, string | string[] | null>)) {
      for (const uid of target === null ? [] : [target].flat()) {
        const node = getNodeByUniqueId(uid)
        const root = node ? ancestry(node.id)[0] : undefined
        if (root) out.add(root.id)
      }
    }
  }
  covered = out
  return out
}
