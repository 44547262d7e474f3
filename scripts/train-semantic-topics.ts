// Trains src/content/topics/semantic-topics.json: tier-1 topics read from a page's sentence vector
// (src/content/semantic/), which the classifier adds to the topic model's scores when a page has one
// (semantic-topics.ts, docs/taxonomy-and-classification.md "Sentence vectors").
// Run: npm run train:semantic-topics   (encodes the corpora once, ~15 min on two cores; the vectors are
//      cached, scripts/lib/cached-vectors.ts, so a rerun takes a minute)
// Data: the train split of fixtures/topics (scripts/lib/topic-corpora.ts); for the 13 topics no corpus
// covers, the team-written items (the first half of fixtures/topics/written-topics.json: every other
// item from the first, the other half is what the benchmark reads; and all of written-topics-train.json);
// and for every topic, pseudo-documents of its curated vocabulary (seeded draws of eight terms). Model: a
// softmax head over the vectors, every topic a class, trained by Adam, deterministic.
import { writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { SEMANTIC_DIMENSIONS as D, semanticInput } from '../src/content/semantic/vectors.ts'
import { topicModel } from '../src/content/topics/topic-model.ts'
import { trainingInputsFingerprint } from '../src/content/topics/training-inputs.ts'
import { cachedVectors } from './lib/cached-vectors.ts'
import { loadCorpora, tier1IndexIn, vocabularyPrior, writtenTraining, writtenTrainingFingerprint } from './lib/topic-corpora.ts'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const outFile = join(root, 'src/content/topics/semantic-topics.json')

const EPOCHS = 12
const BATCH = 64
const LEARNING_RATE = 0.01
const L2 = 1e-4
const PRIOR_WEIGHT = 3
// A written item stands for many: 831 of them teach 13 topics beside 41,117 corpus items (weight 1 and 5
// measured with 322: BENCHMARKS.md, twentieth stop; 3 and 5 with 831: twenty-first stop).
const WRITTEN_WEIGHT = 5
const PSEUDO_DOCS = 100
const TERMS_PER_PSEUDO_DOC = 8
// As train-topics.ts: rare classes weigh by the square root of their rarity, capped.
const BALANCE_POWER = 0.5
const BALANCE_CAP = 4

const classes = topicModel().names
const K = classes.length
const tier1Index = tier1IndexIn(topicModel().classIds)

interface Sample {
  text: string
  labels: number[]
  weight: number
}

const corpusSamples: Sample[] = []
for (const d of loadCorpora()) {
  const labels = [...new Set(d.uids.map(tier1Index).filter((l) => l !== undefined))]
  if (d.split === 'train' && labels.length) corpusSamples.push({ text: semanticInput(d.title, d.body), labels, weight: 1 })
}
const writtenSamples = writtenTraining().map(({ uid, text }) => ({
  text,
  labels: [tier1Index(uid)].filter((l) => l !== undefined),
  weight: WRITTEN_WEIGHT,
}))

// Pseudo-documents: a topic's vocabulary terms and taxonomy names, eight drawn at a time (seeded), read
// as one text: closer to a page's vector than a single term's.
const terms = Array.from({ length: K }, () => [] as string[])
for (const p of vocabularyPrior(tier1Index)) terms[p.label]?.push(p.text)
let seed = 7
const rand = (): number => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32
const pseudoSamples: Sample[] = []
for (const [label, list] of terms.entries()) {
  if (!list.length) throw new Error(`topic ${classes[label]} has no vocabulary term or taxonomy name`)
  for (let i = 0; i < PSEUDO_DOCS; i++) {
    const drawn = Array.from({ length: TERMS_PER_PSEUDO_DOC }, () => list[Math.floor(rand() * list.length)] as string)
    pseudoSamples.push({ text: [...new Set(drawn)].join(', '), labels: [label], weight: PRIOR_WEIGHT })
  }
}

const samples = [...corpusSamples, ...writtenSamples, ...pseudoSamples]
const taught = new Set([...corpusSamples, ...writtenSamples].flatMap((s) => s.labels))
const untaught = classes.filter((_, k) => !taught.has(k))
if (untaught.length) throw new Error(`no corpus or written item for ${untaught.join(', ')}: write some (fixtures/topics/written-topics.json)`)
console.log(`${corpusSamples.length} corpus items, ${writtenSamples.length} written items, ${pseudoSamples.length} pseudo-documents, ${K} classes`)
// One part at a time: each encodes on both cores.
const vectors: Float32Array[] = []
for (const part of [corpusSamples, writtenSamples, pseudoSamples]) for (const v of await cachedVectors(part.map((s) => s.text))) vectors.push(unit(v))

function unit(v: ArrayLike<number>): Float32Array {
  let norm = 0
  for (let d = 0; d < v.length; d++) norm += (v[d] as number) ** 2
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0
  return Float32Array.from(v, (x) => x * scale)
}

// Class balance over all samples, as the topic model's.
const perClass = new Float64Array(K)
for (const s of samples) for (const l of s.labels) perClass[l] = (perClass[l] as number) + 1 / s.labels.length
const meanCount = perClass.reduce((a, b) => a + b, 0) / K
const weights = samples.map((s) => {
  const count = s.labels.reduce((a, l) => a + (perClass[l] as number), 0) / s.labels.length
  return s.weight * Math.min(BALANCE_CAP, (meanCount / count) ** BALANCE_POWER)
})

// Softmax regression by Adam over seeded mini-batches; a class spanning several topics is a soft target.
const W = new Float64Array(D * K)
const bias = new Float64Array(K)
{
  const mW = new Float64Array(D * K)
  const vW = new Float64Array(D * K)
  const mB = new Float64Array(K)
  const vB = new Float64Array(K)
  const gW = new Float64Array(D * K)
  const gB = new Float64Array(K)
  const p = new Float64Array(K)
  const order = samples.map((_, i) => i)
  seed = 42
  let t = 0
  const adam = (w: Float64Array, g: Float64Array, m: Float64Array, v: Float64Array, l2: number): void => {
    const c1 = 1 - 0.9 ** t
    const c2 = 1 - 0.999 ** t
    for (let i = 0; i < w.length; i++) {
      const gi = (g[i] as number) / BATCH + l2 * (w[i] as number)
      m[i] = 0.9 * (m[i] as number) + 0.1 * gi
      v[i] = 0.999 * (v[i] as number) + 0.001 * gi * gi
      w[i] = (w[i] as number) - (LEARNING_RATE * (m[i] as number)) / c1 / (Math.sqrt((v[i] as number) / c2) + 1e-8)
    }
  }
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1))
      ;[order[i], order[j]] = [order[j] as number, order[i] as number]
    }
    let loss = 0
    for (let start = 0; start < order.length; start += BATCH) {
      gW.fill(0)
      gB.fill(0)
      for (const si of order.slice(start, start + BATCH)) {
        const s = samples[si] as Sample
        const x = vectors[si] as Float32Array
        logits(x, W, bias, p)
        let max = -Infinity
        for (const l of p) max = Math.max(max, l)
        let z = 0
        for (let k = 0; k < K; k++) z += p[k] = Math.exp((p[k] as number) - max)
        const w = weights[si] as number
        for (let k = 0; k < K; k++) {
          const target = s.labels.includes(k) ? 1 / s.labels.length : 0
          const q = (p[k] as number) / z
          if (target > 0) loss -= w * target * Math.log(q + 1e-12)
          const g = w * (q - target)
          gB[k] = (gB[k] as number) + g
          for (let d = 0; d < D; d++) gW[d * K + k] = (gW[d * K + k] as number) + g * (x[d] as number)
        }
      }
      t++
      adam(W, gW, mW, vW, L2)
      adam(bias, gB, mB, vB, 0)
    }
    console.log(`epoch ${epoch + 1}: loss ${(loss / samples.length).toFixed(4)}`)
  }
}

function logits(x: Float32Array, w: Float64Array, b: Float64Array, out: Float64Array): void {
  out.set(b)
  for (let d = 0; d < D; d++) {
    const xd = x[d] as number
    if (xd !== 0) for (let k = 0; k < K; k++) out[k] = (out[k] as number) + xd * (w[d * K + k] as number)
  }
}

const round = (x: number): number => Number(x.toPrecision(4))
const file = {
  trained_on: {
    command: 'npm run train:semantic-topics',
    date: new Date().toISOString().slice(0, 10),
    inputs: trainingInputsFingerprint(),
    written: writtenTrainingFingerprint(),
    corpus_items: corpusSamples.length,
    written_items: writtenSamples.length,
    pseudo_documents: pseudoSamples.length,
  },
  classes,
  bias: Array.from(bias, round),
  /** per class, the head's weight for each dimension */
  head: classes.map((_, k) => Array.from({ length: D }, (_, d) => round(W[d * K + k] as number))),
}
writeFileSync(outFile, `${JSON.stringify(file)}\n`)
console.log(`wrote ${outFile}`)
