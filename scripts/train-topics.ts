// Trains the tier-1 topic model shipped in src/content/topics/topic-model.json, and with --themes the
// theme model beside it (theme-model.json: the corpora's own classes, finer than tier 1).
// Run: npm run train:topics            (writes the model and prints the check-split accuracy)
//      npm run train:themes            (the theme model: same features and training, no prior)
//      npm run train:topics -- --no-prior --out /tmp/m.json   (ablation: corpora only)
//      npm run train:topics -- --no-prior --only huffpost --out /tmp/h.json   (one corpus's in-domain
//      figure: what these features reach on its check split when trained on its train split alone)
// Data: the train split of fixtures/topics (scripts/lib/topic-corpora.ts, classes mapped by
// src/content/topics/class-map.json) plus, as prior knowledge, one short pseudo-document per curated
// vocabulary term and per taxonomy node name (so topics no corpus covers, such as Pets or Real
// Estate, are still learned). Model: multinomial logistic regression over the features of
// src/content/topics/features.ts, trained by AdaGrad; deterministic (seeded order).
import { writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { allNodes } from '../src/content/taxonomy/taxonomy.ts'
import { CORPORA, TOPIC_ROOT_EXCLUDED } from '../src/content/topics/classes.ts'
import { featureCounts, featureVector, type TopicText, topicTokens } from '../src/content/topics/features.ts'
import { trainingInputsFingerprint } from '../src/content/topics/training-inputs.ts'
import { loadCorpora, tier1IndexIn, vocabularyPrior } from './lib/topic-corpora.ts'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
// Themes are the corpora's own classes (sci.electronics, TRAVEL, Album): no vocabulary or taxonomy
// name belongs to one, so they are learned from the corpora alone.
const themes = args.includes('--themes')
const withPrior = !args.includes('--no-prior') && !themes
const outIdx = args.indexOf('--out')
const onlyIdx = args.indexOf('--only')
const only = onlyIdx >= 0 ? (args[onlyIdx + 1] ?? '') : null
// A one-corpus model is a measurement, never the shipped file.
if (only !== null && outIdx < 0) throw new Error('--only needs --out: a one-corpus model must not replace src/content/topics/topic-model.json')
const outFile = outIdx >= 0 ? resolve(args[outIdx + 1] ?? '') : join(root, `src/content/topics/${themes ? 'theme' : 'topic'}-model.json`)

const env = (name: string, fallback: number): number => Number(process.env[name] ?? fallback)
const EPOCHS = env('TOPICS_EPOCHS', 8)
const LEARNING_RATE = env('TOPICS_LR', 0.4)
const L2 = env('TOPICS_L2', 5e-3)
const BALANCE_POWER = env('TOPICS_BALANCE', 0.5)
const BALANCE_CAP = env('TOPICS_BALANCE_CAP', 4)
const PRIOR_WEIGHT = env('TOPICS_PRIOR', 3)
const MIN_DF = 2
// Word pairs are many and mostly rare; one seen in fewer items than this is noise more than evidence.
const MIN_DF_PAIR = env('TOPICS_MIN_DF_PAIR', 4)
// Pruning: weights smaller than this carry almost no evidence and would only bloat the file.
const MIN_WEIGHT = env('TOPICS_MIN_WEIGHT', 0.2)
const MAX_CLASSES_PER_FEATURE = env('TOPICS_MAX_CLASSES', 3)
const WEIGHT_SCALE = 1000
// Complement naive Bayes folded into the regression's weights (0: regression alone) and its smoothing.
const CNB_WEIGHT = env('TOPICS_CNB', 1)
const CNB_ALPHA = env('TOPICS_CNB_ALPHA', 0.1)

const corpora = loadCorpora().filter((c) => only === null || c.corpus === only)
if (!corpora.length) throw new Error(`--only ${only}: no such corpus (${CORPORA.join(', ')})`)
const themeOf = (d: { corpus: string; cls: string }): string => `${d.corpus}:${d.cls}`
const tier1 = allNodes().filter((n) => n.tier === 1 && !TOPIC_ROOT_EXCLUDED.has(n.unique_id))
// What the model file names each class by: an IAB Unique ID, or a theme's corpus:class.
const classNames = themes ? [...new Set(corpora.map(themeOf))].sort() : tier1.map((c) => c.unique_id)
const themeIndex = new Map(classNames.map((name, i) => [name, i]))
const K = classNames.length
const tier1Index = tier1IndexIn(tier1.map((c) => c.id))

interface Sample {
  text: TopicText
  label: number
  weight: number
  /** the item's share in this sample (1 but for an item of a class spanning several topics) */
  share: number
}

const samples: Sample[] = []
// An item of a class that spans several topics is one sample per topic, sharing the item's weight:
// for the loss that is a soft target.
const labelsOf = (d: { corpus: string; cls: string; uids: readonly string[] }): number[] =>
  themes ? [themeIndex.get(themeOf(d)) as number] : [...new Set(d.uids.map(tier1Index).filter((l) => l !== undefined))]
for (const d of corpora.filter((x) => x.split === 'train')) {
  const labels = labelsOf(d)
  for (const label of labels) samples.push({ text: { title: d.title, body: d.body }, label, weight: 1 / labels.length, share: 1 / labels.length })
}
let priorCount = 0
if (withPrior) {
  for (const p of vocabularyPrior(tier1Index)) {
    samples.push({ text: { title: p.text }, label: p.label, weight: PRIOR_WEIGHT * p.strength, share: 1 })
    priorCount++
  }
}

// Classes are very unequal (Politics has thousands of items, Pets only its vocabulary): weigh each
// item by the square root of its class's rarity, capped, so small classes are heard but not inflated.
const perClass = new Array<number>(K).fill(0)
for (const s of samples) perClass[s.label] = (perClass[s.label] ?? 0) + s.share
const meanCount = perClass.reduce((a, b) => a + b, 0) / K
for (const s of samples) s.weight *= Math.min(BALANCE_CAP, (meanCount / (perClass[s.label] ?? 1)) ** BALANCE_POWER)

const counts = samples.map((s) => featureCounts(topicTokens(s.text)))
// Document frequencies count an item once, however many topics its class spans.
const df = new Map<string, number>()
for (const [i, c] of counts.entries()) for (const k of c.keys()) df.set(k, (df.get(k) ?? 0) + (samples[i] as Sample).share)
const items = samples.reduce((n, s) => n + s.share, 0)
const featureIndex = new Map<string, number>()
for (const [k, n] of df) if (n >= (k.includes(' ') ? MIN_DF_PAIR : MIN_DF)) featureIndex.set(k, featureIndex.size)
const F = featureIndex.size
// Inverse document frequency over the training items (smoothed), shipped with each feature.
const idfOf = new Map<string, number>()
for (const k of featureIndex.keys()) idfOf.set(k, Math.log((items + 1) / ((df.get(k) ?? 0) + 1)) + 1)
const vectors = counts.map((c) => {
  const v = featureVector(c, (k) => idfOf.get(k))
  return { idx: Int32Array.from(v.keys.map((k) => featureIndex.get(k) as number)), val: Float64Array.from(v.values) }
})
console.log(`${Math.round(items)} items (${priorCount} prior pseudo-documents), ${F} features, ${K} classes`)

// The regression is trained from several seeded orders and the weights averaged: one order's model
// moves items near a boundary with any edit of the training inputs ("gardeners growing vegetables"
// between Home & Garden and Food & Drink); the mean of a few is steadier, and no worse. Six, since
// three still moved the British probe's near ties by two articles between seed sets (BENCHMARKS.md).
// TOPICS_FIRST_SEED trains an independent model, to measure that churn.
// One run for themes: they feed a similarity, not a decision at a boundary.
const SEEDS = Array.from({ length: env('TOPICS_RUNS', themes ? 1 : 6) }, (_, run) => env('TOPICS_FIRST_SEED', 42) + run)
const W = new Float64Array(F * K)
const bias = new Float64Array(K)
const logits = new Float64Array(K)
for (const seed of SEEDS) {
  const { w, b } = trainOnce(seed)
  for (let i = 0; i < W.length; i++) W[i] = (W[i] as number) + (w[i] as number) / SEEDS.length
  for (let k = 0; k < K; k++) bias[k] = (bias[k] as number) + (b[k] as number) / SEEDS.length
}

/** Multinomial logistic regression by AdaGrad over the samples in an order shuffled from `start`. */
function trainOnce(start: number): { w: Float64Array; b: Float64Array } {
  const w = new Float64Array(F * K)
  const G = new Float64Array(F * K).fill(1e-8)
  const b = new Float64Array(K)
  const biasG = new Float64Array(K).fill(1e-8)
  let seed = start
  const rand = (): number => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32
  const order = samples.map((_, i) => i)
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1))
      ;[order[i], order[j]] = [order[j] as number, order[i] as number]
    }
    let loss = 0
    for (const si of order) {
      const s = samples[si] as Sample
      const { idx, val } = vectors[si] as { idx: Int32Array; val: Float64Array }
      for (let k = 0; k < K; k++) logits[k] = b[k] as number
      for (let j = 0; j < idx.length; j++) {
        const base = (idx[j] as number) * K
        const x = val[j] as number
        for (let k = 0; k < K; k++) logits[k] = (logits[k] as number) + x * (w[base + k] as number)
      }
      let max = -Infinity
      for (let k = 0; k < K; k++) max = Math.max(max, logits[k] as number)
      let z = 0
      for (let k = 0; k < K; k++) z += logits[k] = Math.exp((logits[k] as number) - max)
      loss -= s.weight * Math.log((logits[s.label] as number) / z + 1e-12)
      for (let k = 0; k < K; k++) {
        const g = s.weight * ((logits[k] as number) / z - (k === s.label ? 1 : 0))
        biasG[k] = (biasG[k] as number) + g * g
        b[k] = (b[k] as number) - (LEARNING_RATE * g) / Math.sqrt(biasG[k] as number)
        for (let j = 0; j < idx.length; j++) {
          const p = (idx[j] as number) * K + k
          const gw = g * (val[j] as number) + L2 * (w[p] as number)
          G[p] = (G[p] as number) + gw * gw
          w[p] = (w[p] as number) - (LEARNING_RATE * gw) / Math.sqrt(G[p] as number)
        }
      }
    }
    console.log(`seed ${start}, epoch ${epoch + 1}: loss ${(loss / samples.length).toFixed(4)}`)
  }
  return { w, b }
}

// Complement naive Bayes (Rennie et al. 2003) over the same features, folded into the weights: both
// are linear in the features, so their sum is one linear model (no second table at run time). Per
// feature, a class's weight is how much rarer the feature is outside the class than on average
// (centred log complement probabilities), which scales to the regression's logits by CNB_WEIGHT.
if (CNB_WEIGHT > 0) {
  const total = new Float64Array(F)
  const inClass = new Float64Array(F * K)
  for (const [si, s] of samples.entries()) {
    const { idx, val } = vectors[si] as { idx: Int32Array; val: Float64Array }
    for (let j = 0; j < idx.length; j++) {
      const f = idx[j] as number
      const x = s.weight * (val[j] as number)
      total[f] = (total[f] as number) + x
      inClass[f * K + s.label] = (inClass[f * K + s.label] as number) + x
    }
  }
  const sumAll = total.reduce((a, b) => a + b, 0)
  const classSum = new Float64Array(K)
  for (let f = 0; f < F; f++) for (let c = 0; c < K; c++) classSum[c] = (classSum[c] as number) + (inClass[f * K + c] as number)
  const logTheta = new Float64Array(K)
  for (let f = 0; f < F; f++) {
    let mean = 0
    for (let c = 0; c < K; c++) {
      const comp = (total[f] as number) - (inClass[f * K + c] as number)
      logTheta[c] = Math.log((comp + CNB_ALPHA) / (sumAll - (classSum[c] as number) + CNB_ALPHA * F))
      mean += (logTheta[c] as number) / K
    }
    for (let c = 0; c < K; c++) W[f * K + c] = (W[f * K + c] as number) + CNB_WEIGHT * (mean - (logTheta[c] as number))
  }
}

// Sparse, pruned, integer-scaled weights: feature → [class, weight × 1000, class, weight × 1000, …].
const features: Record<string, number[]> = {}
let kept = 0
for (const [k, f] of featureIndex) {
  const strongest: [number, number][] = []
  for (let c = 0; c < K; c++) {
    const w = W[f * K + c] as number
    if (Math.abs(w) >= MIN_WEIGHT) strongest.push([c, w])
  }
  strongest.sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))
  const row = strongest.slice(0, MAX_CLASSES_PER_FEATURE).flatMap(([c, w]) => [c, Math.round(w * WEIGHT_SCALE)])
  if (row.length) {
    features[k] = [Math.round((idfOf.get(k) ?? 1) * WEIGHT_SCALE), ...row]
    kept += row.length / 2
  }
}
// Check-split accuracy of the full and the pruned weights (model alone, no vocabulary, no bias):
// what pruning costs; and of the full weights with the learned class bias, which the shipped model
// drops (below) but an in-domain figure (--only) keeps. The benchmark (npm run bench -- topics)
// measures the shipped classifier.
{
  const check = corpora.filter((x) => x.split === 'check')
  const full = new Map<string, [number, number]>()
  const pruned = new Map<string, [number, number]>()
  const biased = new Map<string, [number, number]>()
  for (const d of check) {
    const labels = labelsOf(d)
    if (!labels.length) continue
    const v = featureVector(featureCounts(topicTokens({ title: d.title, body: d.body })), (k) => (featureIndex.has(k) ? idfOf.get(k) : undefined))
    const a = new Float64Array(K)
    const b = new Float64Array(K)
    for (let j = 0; j < v.keys.length; j++) {
      const k = v.keys[j] as string
      const f = featureIndex.get(k) as number
      const x = v.values[j] as number
      for (let c = 0; c < K; c++) a[c] = (a[c] as number) + x * (W[f * K + c] as number)
      const row = features[k]
      if (row) for (let i = 1; i < row.length; i += 2) b[row[i] as number] = (b[row[i] as number] as number) + (x * (row[i + 1] as number)) / WEIGHT_SCALE
    }
    const argmax = (z: Float64Array): number => z.indexOf(Math.max(...z))
    const withBias = a.map((x, c) => x + (bias[c] as number))
    for (const [m, z] of [[full, a] as const, [pruned, b] as const, [biased, withBias] as const]) {
      const e = m.get(d.corpus) ?? [0, 0]
      m.set(d.corpus, [e[0] + (labels.includes(argmax(z)) ? 1 : 0), e[1] + 1])
    }
  }
  for (const [corpus, [ok, n]] of full)
    console.log(
      `check ${corpus}: full weights ${((100 * ok) / n).toFixed(1)}%, pruned ${((100 * (pruned.get(corpus)?.[0] ?? 0)) / n).toFixed(1)}%, full with the learned bias ${((100 * (biased.get(corpus)?.[0] ?? 0)) / n).toFixed(1)}% (n=${n})`,
    )
}

const model = {
  about: themes
    ? "Theme model: the labelled corpora's own classes (corpus:class), finer than tier 1, for the theme similarity of prompt and page (src/content/topics/theme-model.ts); same features, training and row format as topic-model.json. Built by `npm run train:themes` (scripts/train-topics.ts); provenance and licences in src/content/topics/PROVENANCE.md."
    : 'Tier-1 IAB 3.1 topic model: multinomial logistic regression over tf-idf weighted stemmed words and word pairs (src/content/topics/features.ts); each feature row is [idf, class, weight, class, weight…] × weight_scale. Built by `npm run train:topics` (scripts/train-topics.ts); provenance and licences in src/content/topics/PROVENANCE.md.',
  trained_on: {
    corpora: [...new Set(corpora.map((c) => c.corpus))],
    items: Math.round(items) - priorCount,
    prior_pseudo_documents: priorCount,
    // vocabulary, taxonomy names, class map and stemmer (training-inputs.ts): a test checks the tree
    // still has them (the theme model reads the class map and the stemmer, and is held to the same)
    inputs: (withPrior || themes) && only === null ? trainingInputsFingerprint() : null,
    epochs: EPOCHS,
    seeds: SEEDS,
    min_weight: MIN_WEIGHT,
  },
  classes: classNames,
  weight_scale: WEIGHT_SCALE,
  // The corpora's class frequencies are not the web's (HuffPost is a third politics; nothing is about
  // Pets): the learned biases are dropped, so every topic starts equal and only the words decide.
  bias: [...bias].map(() => 0),
  features,
}
writeFileSync(outFile, JSON.stringify(model))
console.log(`wrote ${outFile}: ${Object.keys(features).length} features, ${kept} weights`)
