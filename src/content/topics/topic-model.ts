// The learned tier-1 topic model (scripts/train-topics.ts; provenance in PROVENANCE.md): turns text
// into a probability for every topical tier-1 IAB category. Loaded once, on first use.
import { readFileSync } from 'node:fs'
import { getNodeByUniqueId } from '../taxonomy/taxonomy.ts'
import { featureVector } from './features.ts'

interface ModelFile {
  classes: string[]
  weight_scale: number
  bias: number[]
  /** feature → [idf × weight_scale, class, weight × weight_scale, class, weight × weight_scale…] */
  features: Record<string, number[]>
}

export interface TopicModel {
  /** each class as the file names it (an IAB Unique ID, a theme's corpus:class), in model order */
  names: string[]
  /** taxonomy id of each class, in model order */
  classIds: number[]
  bias: Float64Array
  /** feature → [idf, class, weight, class, weight…] */
  weights: Map<string, Float64Array>
}

/**
 * Version of the page classifier (learned model + vocabulary). Pages classified by an older one are
 * reclassified in the background (src/scraping/index/reclassify.ts); bump it when the model or the
 * vocabulary changes (a vocabulary edit means retraining: training-inputs.ts).
 * 1: the keyword vocabulary alone; 2: the learned model; 3: the learned model over tf-idf features;
 * 4: retrained on the vocabulary of 2026-11-27 (Desktops, Computer Peripherals);
 * 5: retrained with British and European usage (Westminster's words, football as soccer, holidays, the royals);
 * 6: retrained with the words of wildlife and plant life under Biological Sciences (2026-11-28).
 * 7: retrained with each faith's words on its own node (Christianity, Islam, Judaism …) and Gardening's (2026-11-28).
 * 8: embeddings carry the page's themes (theme-model.ts), which prompt fit compares (2026-11-28).
 * 9: embeddings keep the vocabulary's probability for the topics no corpus covers (embed.ts conceptRoots, 2026-11-28).
 * 10: a page with a sentence vector adds its topics (semantic-topics.ts, 2026-11-29).
 * 11: the sentence-vector topics retrained with a second batch of written items (2026-11-29).
 */
export const CLASSIFIER_VERSION = 11

let cached: TopicModel | undefined

export function topicModel(): TopicModel {
  cached ??= readModelFile('topic-model.json', (uid) => {
    const n = getNodeByUniqueId(uid)
    if (!n) throw new Error(`topic model names unknown IAB Unique ID ${uid}`)
    return n.id
  })
  return cached
}

/** A model file of this folder, its classes numbered by `classId` (a taxonomy id, or the theme's index). */
export function readModelFile(fileName: string, classId: (name: string, index: number) => number): TopicModel {
  const file = JSON.parse(readFileSync(new URL(`./${fileName}`, import.meta.url), 'utf8')) as ModelFile
  const scale = 1 / file.weight_scale
  const weights = new Map<string, Float64Array>()
  for (const [k, row] of Object.entries(file.features)) {
    const a = new Float64Array(row.length)
    a[0] = (row[0] as number) * scale
    for (let i = 1; i < row.length; i += 2) {
      a[i] = row[i] as number
      a[i + 1] = (row[i + 1] as number) * scale
    }
    weights.set(k, a)
  }
  return { names: file.classes, classIds: file.classes.map(classId), bias: Float64Array.from(file.bias, (b) => b * scale), weights }
}

export interface TopicScores {
  /** raw scores per class (model order) before the softmax */
  logits: Float64Array
  /** how many of the text's features the model knows */
  known: number
}

/**
 * Linear scores of a text for every class, from its feature counts (features.ts `featureCounts`), which
 * the topic and theme models share: analyze.ts counts once for both.
 */
export function logitsOfCounts(counts: ReadonlyMap<string, number>, m: TopicModel = topicModel()): TopicScores {
  const v = featureVector(counts, (k) => m.weights.get(k)?.[0])
  const logits = Float64Array.from(m.bias)
  for (let i = 0; i < v.keys.length; i++) {
    const row = m.weights.get(v.keys[i] as string) as Float64Array
    const x = v.values[i] as number
    for (let j = 1; j < row.length; j += 2) {
      const c = row[j] as number
      logits[c] = (logits[c] as number) + x * (row[j + 1] as number)
    }
  }
  return { logits, known: v.keys.length }
}

/** Softmax with a temperature, in place. */
export function softmax(logits: Float64Array, temperature = 1): Float64Array {
  let max = -Infinity
  for (const l of logits) max = Math.max(max, l)
  let z = 0
  for (let i = 0; i < logits.length; i++) z += logits[i] = Math.exp(((logits[i] as number) - max) / temperature)
  for (let i = 0; i < logits.length; i++) logits[i] = (logits[i] as number) / z
  return logits
}
