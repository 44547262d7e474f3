// Tier-1 topics read from a page's sentence vector (src/content/semantic/), added to the topic model's
// scores when the page has one (analyze.ts). The vector reads meaning the words do not spell out, and it
// reads the 13 topics no corpus covers better than the topic model, which learned them from its
// vocabulary alone. The model (semantic-topics.json, scripts/train-semantic-topics.ts) is a softmax head
// over the vector, trained on the corpora and, for those 13, on team-written items. It adds log(q · K)
// per topic (q: the head's probability, K topics): the log of how much likelier the vector makes the
// topic than an average one, so a vector that favours no topic leaves the reading as it was.
import { readFileSync } from 'node:fs'
import { SEMANTIC_DIMENSIONS as D } from '../semantic/vectors.ts'
import { topicModel } from './topic-model.ts'

interface ModelFile {
  classes: string[]
  bias: number[]
  head: number[][]
}

interface SemanticTopicModel {
  bias: Float64Array
  /** class-major: head[k * D + d] */
  head: Float64Array
}

let cached: SemanticTopicModel | undefined

function semanticTopicModel(): SemanticTopicModel {
  if (cached) return cached
  const file = JSON.parse(readFileSync(new URL('./semantic-topics.json', import.meta.url), 'utf8')) as ModelFile
  // Its classes are the topic model's, in its order: the two are added class by class.
  if (file.classes.join() !== topicModel().names.join())
    throw new Error('semantic-topics.json: classes differ from topic-model.json (npm run train:semantic-topics)')
  const head = new Float64Array(file.classes.length * D)
  for (const [k, row] of file.head.entries()) head.set(row, k * D)
  cached = { bias: Float64Array.from(file.bias), head }
  return cached
}

/** The score to add to each tier-1 class of the topic model (its order) for a page with this sentence vector. */
export function semanticTopicLogits(vector: Int8Array): Float64Array {
  const m = semanticTopicModel()
  const K = m.bias.length
  let norm = 0
  for (const x of vector) norm += x * x
  const out = new Float64Array(K)
  if (vector.length !== D || norm === 0) return out
  const scale = 1 / Math.sqrt(norm)
  for (let k = 0; k < K; k++) {
    let h = m.bias[k] as number
    for (let d = 0; d < D; d++) h += (vector[d] as number) * scale * (m.head[k * D + d] as number)
    out[k] = h
  }
  // log(q · K) = logit − log Σ exp(logits) + log K
  const shift = logSumExp(out) - Math.log(K)
  for (let k = 0; k < K; k++) out[k] = (out[k] as number) - shift
  return out
}

function logSumExp(xs: Float64Array): number {
  let max = -Infinity
  for (const x of xs) max = Math.max(max, x)
  let sum = 0
  for (const x of xs) sum += Math.exp(x - max)
  return max + Math.log(sum)
}
