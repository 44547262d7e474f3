// What the learned topic model reads of a text: stemmed content words and adjacent-word phrases,
// weighted (1 + log(count)) × idf and scaled to unit length, so a headline and a long article land on
// the same scale and a specific word ("celebrity") counts more than a common one ("news"). The
// training script and the runtime use these functions.
import { contentTokens } from '../classify/text.ts'

export interface TopicText {
  title?: string
  description?: string
  body?: string
}

/** Long pages say what they are about early; reading further costs time and adds little. */
const MAX_BODY_TOKENS = 2500
// A title word says more about the page than one more mention in the body.
const TITLE_COUNT = 2

/** A text as the model reads it: each field's content tokens (classify/text.ts). */
export interface TopicTokens {
  title: readonly string[]
  description: readonly string[]
  body: readonly string[]
  /** positions in `body` that start a new item of a list: no word pair is read across them */
  bodyBreaks?: ReadonlySet<number>
}

export function topicTokens(t: TopicText): TopicTokens {
  return { title: contentTokens(t.title ?? ''), description: contentTokens(t.description ?? ''), body: contentTokens(t.body ?? '') }
}

/** Feature → count (title words count double). Takes tokens, so a caller that has them does not tokenise twice. */
export function featureCounts(t: TopicTokens): Map<string, number> {
  const counts = new Map<string, number>()
  const addRun = (tokens: readonly string[], weight: number, breaks?: ReadonlySet<number>): void => {
    for (let i = 0; i < tokens.length; i++) {
      const w = tokens[i] as string
      counts.set(w, (counts.get(w) ?? 0) + weight)
      if (i + 1 < tokens.length && !breaks?.has(i + 1)) {
        const bigram = `${w} ${tokens[i + 1] as string}`
        counts.set(bigram, (counts.get(bigram) ?? 0) + weight)
      }
    }
  }
  addRun(t.title, TITLE_COUNT)
  addRun(t.description, 1)
  addRun(t.body.length > MAX_BODY_TOKENS ? t.body.slice(0, MAX_BODY_TOKENS) : t.body, 1, t.bodyBreaks)
  return counts
}

/** Unit-length (1 + log(count)) × idf weights of the features `idf` knows (undefined: not a feature). */
export function featureVector(counts: ReadonlyMap<string, number>, idf: (feature: string) => number | undefined): { keys: string[]; values: number[] } {
  const keys: string[] = []
  const values: number[] = []
  let norm = 0
  for (const [k, c] of counts) {
    const w = idf(k)
    if (w === undefined) continue
    const v = (1 + Math.log(c)) * w
    keys.push(k)
    values.push(v)
    norm += v * v
  }
  norm = Math.sqrt(norm)
  if (norm > 0) for (let i = 0; i < values.length; i++) values[i] = (values[i] as number) / norm
  return { keys, values }
}
