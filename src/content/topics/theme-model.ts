// The theme model: the labelled corpora's own classes (20 Newsgroups' sci.electronics, HuffPost's
// TRAVEL, DBpedia's Album …), finer than the tier-1 topics their items are mapped to. Prompt and page
// are compared on their theme distributions (relevance.ts), which tells "electronics hobbyists
// building circuits" from the rest of Technology & Computing, where the taxonomy has no node for it.
// Trained by `npm run train:themes` (scripts/train-topics.ts); loaded once, on first use.
import { CORPUS_TITLES, isCorpusName } from './classes.ts'
import { logitsOfCounts, readModelFile, softmax, type TopicModel } from './topic-model.ts'

let cached: TopicModel | undefined

/** Its classes are numbered by their index; `names` holds their corpus:class names. */
export function themeModel(): TopicModel {
  cached ??= readModelFile('theme-model.json', (_name, i) => i)
  return cached
}

/** A theme kept on an embedding needs at least this probability. */
const MIN_THEME = 0.02
/** ...and at most this many are kept, the likeliest. */
const MAX_THEMES = 8

/**
 * A text's likeliest themes as [theme index, probability], sorted by index, from its feature counts
 * (features.ts: the topic model's); [] when the model knows none of its words.
 */
export function themesOf(counts: ReadonlyMap<string, number>): [number, number][] {
  const m = themeModel()
  const { logits, known } = logitsOfCounts(counts, m)
  if (known === 0) return []
  const p = softmax(logits)
  const kept = [...p]
    .map((x, i): [number, number] => [i, x])
    .filter(([, x]) => x >= MIN_THEME)
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_THEMES)
  return kept.sort((a, b) => a[0] - b[0])
}

/** A theme's name for reasons: its class and the corpus it is from ("sci.electronics (20 Newsgroups)"). */
export function themeName(index: number): string {
  const name = themeModel().names[index]
  if (name === undefined) return String(index)
  const at = name.indexOf(':')
  const corpus = name.slice(0, at)
  return `${name.slice(at + 1)} (${isCorpusName(corpus) ? CORPUS_TITLES[corpus] : corpus})`
}
