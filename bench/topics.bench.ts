// Tier-1 accuracy of the topic classifier on the check split of each labelled corpus (fixtures/topics),
// with the ablation: shipped (learned model + vocabulary), learned model only, vocabulary only, and
// shipped with each item's sentence vector (semantic-topics.ts; encoded once, cached in .cache/).
// Also: the team-written texts of the topics no corpus covers (written-topics.json, the half no model
// trains on), taxonomy names read as prompts, the British news probe, prompts in other languages and prompts
// with exclusions (fixtures/topics/prompts-*.json).
// Run: npm run bench -- topics   → bench/results/topics.json
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { model } from '../src/content/classify/model.ts'
import { themeModel } from '../src/content/topics/theme-model.ts'
import { topicModel } from '../src/content/topics/topic-model.ts'
import {
  corpusAccuracy,
  describeProbe,
  exclusionPrompts,
  namesAsPrompts,
  otherLanguagePrompts,
  probeAccuracy,
  writtenTopicsAccuracy,
} from './lib/topic-accuracy.ts'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
// What the learned models add to a process (the keyword model is loaded first, as in the service).
model()
const rssBefore = process.memoryUsage().rss
topicModel()
const topicRss = process.memoryUsage().rss
themeModel()
const modelRssMb = (process.memoryUsage().rss - rssBefore) / 1e6
console.log(
  `learned models: +${modelRssMb.toFixed(1)} MB RSS when loaded (limit 150 MB): topic model ${((topicRss - rssBefore) / 1e6).toFixed(1)} MB, theme model ${((process.memoryUsage().rss - topicRss) / 1e6).toFixed(1)} MB`,
)
// With sentence vectors too: the corpora's check splits are encoded once (~5 min on two cores) and cached.
const rows = await corpusAccuracy({ vectors: true })
// Last: the team-written texts of the 13 topics no corpus covers, the half no model trains on.
const written = await writtenTopicsAccuracy()
const pct = (x: number): string => `${(x * 100).toFixed(1)}%`
console.log('tier-1 top-1 on check splits   shipped   model only   vocabulary only   with sentence vectors   (classified: share classifyPage accepts)')
const printRow = (r: (typeof rows)[number]): void => {
  console.log(
    `  ${r.corpus.padEnd(10)} n=${String(r.items).padEnd(6)}  ${pct(r.top1.shipped).padEnd(8)}  ${pct(r.top1['model only']).padEnd(11)}  ${pct(r.top1['vocabulary only']).padEnd(16)}  ${(r.withVectors === null ? '–' : pct(r.withVectors)).padEnd(22)}  classified ${pct(r.classified)}`,
  )
  console.log(
    `      ${Object.entries(r.perClass)
      .map(([k, v]) => `${k} ${pct(v)}`)
      .join(', ')}`,
  )
}
for (const r of rows) printRow(r)
console.log('the 13 topics no corpus covers, team-written items (the half no model trains on)')
printRow(written)
// Full British-English news articles (synthetic, written blind to the classifier: the file's `about`).
const probe = await probeAccuracy()
console.log(`British news probe (n=${probe.items}): tier-1 top-1 ${pct(probe.top1)}: ${describeProbe(probe)}`)
const probeVectors = await probeAccuracy({ vectors: true })
console.log(`  with sentence vectors: ${pct(probeVectors.top1)}: ${describeProbe(probeVectors)}`)
const names = namesAsPrompts()
console.log(
  `taxonomy names read as prompts (n=${names.names}): first topic the name's tier-1 ${pct(names.tier1)}, the node itself among the categories ${pct(names.node)}, no topic ${names.unread.length} (${names.unread.join(', ')})`,
)
const languages = otherLanguagePrompts()
const compounds = otherLanguagePrompts('prompts-compounds.json')
for (const [what, r] of [
  ['prompts in other languages', languages],
  ['German and Dutch prompts with compounds', compounds],
] as const) {
  console.log(
    `${what} (n=${r.prompts}): read in their language ${pct(r.language)}, first topic the one meant ${pct(r.topic)}; ${Object.entries(r.byLanguage)
      .map(([l, [n, lang, topic]]) => `${l} ${lang}/${topic} of ${n}`)
      .join(', ')}`,
  )
  if (r.misread.length) console.log(`  misread: ${r.misread.join('; ')}`)
}
const exclusions = exclusionPrompts()
console.log(
  `prompts with exclusions (n=${exclusions.prompts}): read right ${pct(exclusions.right)} (first topic the one meant ${pct(exclusions.topic)}, exclusions blocked and the rest asked for ${pct(exclusions.exclusions)})`,
)
if (exclusions.misread.length) console.log(`  misread: ${exclusions.misread.join('; ')}`)
const out = join(root, 'bench/results/topics.json')
mkdirSync(dirname(out), { recursive: true })
writeFileSync(
  out,
  `${JSON.stringify({ generated_at: new Date().toISOString(), model_rss_mb: modelRssMb, corpora: rows, written_topics: written, british_news_probe: probe, british_news_probe_with_vectors: probeVectors, names_as_prompts: names, other_language_prompts: languages, compound_prompts: compounds, exclusion_prompts: exclusions }, null, 2)}\n`,
)
console.log(`wrote ${out}`)
