// Tier-1 topics read from a page's sentence vector (src/content/semantic/), added to the topic model's
// scores when the page has one (analyze.ts). The vector reads meaning the words do not spell out, and
// it reads the topics no corpus covers better than the topic model, which learned them from its
// vocabulary alone. The model (semantic-topics.json, scripts/train-semantic-topics.ts) holds:
// - a softmax head over the vector for the topics the corpora cover;
// - for every topic, the centroid of pseudo-documents drawn from its vocabulary: a topic no corpus
//   covers is read by the page's similarity to it, against every topic's (zero-shot).
// Each part adds the log of a likelihood ratio (how much likelier the topic is than an average one), so a
// page whose vector favours no topic keeps the topic model's reading.
import { readFileSync } from 'node:fs'
import { SEMANTIC_DIMENSIONS as D } from '../semantic/vectors.ts'
import { topicModel } from './topic-model.ts'

interface ModelFile {
  classes: string[]
  covered: boolean[]
  bias: number[]
  head: number[][]
  centroids: number[][]
}

interface SemanticTopicModel {
  covered: boolean[]
  bias: Float64Array
  /** class-major: head[k * D + d] (zero rows for classes no corpus covers) */
  head: Float64Array
  centroids: Float64Array
  coveredCount: number
}

// Weights of the two parts and the sharpness of the similarity's softmax, chosen on the corpora's check
// splits and half of the team-written items (BENCHMARKS.md, twentieth stop): the head gains on the
// covered topics, the similarity on the others, and neither costs the other much.
const HEAD_WEIGHT = 1
const SIMILARITY_WEIGHT = 1.5
const SIMILARITY_SHARPNESS = 10

let cached: SemanticTopicModel | undefined

function semanticTopicModel(): SemanticTopicModel {
  if (cached) return cached
  const file = JSON.parse(readFileSync(new URL('./semantic-topics.json', import.meta.url), 'utf8')) as ModelFile
  // Its classes are the topic model's, in its order: the two are added class by class.
  if (file.classes.join() !== topicModel().names.join())
    throw new Error('semantic-topics.json: classes differ from topic-model.json (npm run train:semantic-topics)')
  const K = file.classes.length
  const head = new Float64Array(K * D)
  const centroids = new Float64Array(K * D)
  for (let k = 0; k < K; k++) {
    head.set(file.head[k] ?? [], k * D)
    centroids.set(file.centroids[k] ?? [], k * D)
  }
  cached = { covered: file.covered, bias: Float64Array.from(file.bias), head, centroids, coveredCount: file.covered.filter(Boolean).length }
  return cached
}

/** The score to add to each tier-1 class of the topic model (its order) for a page with this sentence vector. */
export function semanticTopicLogits(vector: Int8Array): Float64Array {
  const m = semanticTopicModel()
  const K = m.covered.length
  let norm = 0
  for (const x of vector) norm += x * x
  const out = new Float64Array(K)
  if (vector.length !== D || norm === 0) return out
  const scale = 1 / Math.sqrt(norm)
  const head = new Float64Array(K)
  const similarity = new Float64Array(K)
  for (let k = 0; k < K; k++) {
    let h = m.bias[k] as number
    let s = 0
    for (let d = 0; d < D; d++) {
      const x = (vector[d] as number) * scale
      h += x * (m.head[k * D + d] as number)
      s += x * (m.centroids[k * D + d] as number)
    }
    head[k] = h
    similarity[k] = SIMILARITY_SHARPNESS * s
  }
  // log(q_k · C) for the covered topics (q: the head's softmax over them), log(z_k · K) for the others
  // (z: the softmax of the similarities over all topics).
  const headNorm = logSumExp(head, (k) => m.covered[k] === true) - Math.log(m.coveredCount)
  const similarityNorm = logSumExp(similarity, () => true) - Math.log(K)
  for (let k = 0; k < K; k++) {
    out[k] = m.covered[k] ? HEAD_WEIGHT * ((head[k] as number) - headNorm) : SIMILARITY_WEIGHT * ((similarity[k] as number) - similarityNorm)
  }
  return out
}

function logSumExp(xs: Float64Array, include: (k: number) => boolean): number {
  let max = -Infinity
  for (let k = 0; k < xs.length; k++) if (include(k)) max = Math.max(max, xs[k] as number)
  let sum = 0
  for (let k = 0; k < xs.length; k++) if (include(k)) sum += Math.exp((xs[k] as number) - max)
  return max + Math.log(sum)
}
