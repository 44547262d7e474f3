// Relevance benchmark (docs/curation.md "Evaluation"): ≥ 30 prompts (fixtures/topics/relevance-prompts.json)
// against one index built from the labelled dev pages (fixtures/classification, through the real
// extractor and classifier) and the check split of the topic corpora (fixtures/topics, as small
// article pages). Each prompt is built into a prompt-only segment by the real builder; its top 20
// URLs are judged (strict P@20: missing places count as misses; condensed P@20: the same with the
// pages left unjudged for the prompt dropped first: dev pages outside the pooled judgments, for the 34 corpus prompts).
// A pooled judgment (fixtures/topics/relevance-judgments.json) decides; without one, a corpus item's class
// and a dev page's label for the dev prompts stand for it. A BM25 ranking over the same
// extracted text is computed in the same run as the baseline. Prompts are split once into a tuning
// half and a check half: relevance coefficients are fitted on tuning only (`-- --fit` prints them).
// Also printed: tier-1 accuracy on each corpus's check split and on the British news probe.
// Run: npm run bench -- relevance   → bench/results/relevance.json
// RELEVANCE_DEBUG=<part of a prompt> prints that prompt's reading and its top URLs with their reasons
// (RELEVANCE_DEBUG_N of them, 12 by default), then the relevant pages it missed.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadCorpora } from '../scripts/lib/topic-corpora.ts'
import type { Embedding } from '../src/content/classify/embed.ts'
import { semanticCosine, vectorOf } from '../src/content/semantic/vectors.ts'
import { interpretPrompt } from '../src/content/topics/interpret-prompt.ts'
import { FIT_COEFFICIENTS, promptFit, SEMANTIC_BASELINE } from '../src/content/topics/relevance.ts'
import { closeServices, createServiceContext } from '../src/context.ts'
import { refreshAssociations } from '../src/curation/builder/associations.ts'
import { weighByRarity } from '../src/curation/builder/rank.ts'
import { systemClock } from '../src/platform/clock.ts'
import { loadConfig } from '../src/platform/config.ts'
import { migrate } from '../src/platform/db/migrate.ts'
import { openPglite } from '../src/platform/db/pglite.ts'
import { createKey } from '../src/platform/keys/keys.ts'
import { bm25 } from './lib/bm25.ts'
import { buildPromptSegment, devHtml, devPageUrls, fillSemanticVectors, indexPage, usableDevPages } from './lib/prompt-segments.ts'
import { corpusAccuracy, describeProbe, probeAccuracy } from './lib/topic-accuracy.ts'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const data = join(root, 'fixtures')
const fit = process.argv.includes('--fit') || process.env.RELEVANCE_FIT === '1'
// Corpus items per class in the index: enough for P@20 on a one-class prompt, small enough to build fast.
const PER_CLASS = 25

interface Prompt {
  prompt: string
  split: 'tuning' | 'check'
  dev_relevant_ids: string[]
  classes: string[]
}
interface IndexedPage {
  /** dev page id, or "corpus:class" */
  label: string
  /** what a judgment names: the dev page id, or "corpus:class#k" (the class's k-th item in the index) */
  id: string
  text: string
  embedding: Embedding | null
  /** the page's sentence vector, once read (fitCoefficients) */
  semantic?: Int8Array | null
}

const prompts = (JSON.parse(readFileSync(join(data, 'topics/relevance-prompts.json'), 'utf8')) as { prompts: Prompt[] }).prompts
const labels = usableDevPages()
const escape = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
const articleHtml = (title: string, body: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head><body><article><h1>${escape(title)}</h1>` +
  body
    .split(/\n\s*\n/)
    .map((p) => `<p>${escape(p.trim())}</p>`)
    .join('') +
  '</article></body></html>'

const db = await openPglite()
await migrate(db)
const now = new Date()
const byUrl = new Map<string, IndexedPage>()
const pages: IndexedPage[] = []
async function index(rawUrl: string, html: string, label: string, id = label): Promise<void> {
  const { url, analyzed } = await indexPage(db, rawUrl, html, now, label)
  const page = { label, id, text: `${analyzed.title ?? ''}\n${analyzed.full_text ?? ''}`, embedding: analyzed.embedding }
  byUrl.set(url, page)
  pages.push(page)
}

for (const [i, url] of devPageUrls(labels).entries()) await index(url, devHtml(labels[i]!), labels[i]!.id)
let n = labels.length
// Neutral URLs: a class name in the path would give the label away to the classifier.
const perClass = new Map<string, number>()
for (const d of loadCorpora(true)) {
  if (d.split !== 'check') continue
  const key = `${d.corpus}:${d.cls}`
  const k = perClass.get(key) ?? 0
  if (k >= PER_CLASS) continue
  perClass.set(key, k + 1)
  n++
  await index(`https://site${n}.example/article/${n}`, articleHtml(d.title || d.body.slice(0, 80), d.body || d.title), key, `${key}#${k}`)
}
// The daily job's associations, learned from this index, as a deployed service would have them
// (they expand the prompt words the model does not know).
const associations = await refreshAssociations(db, (fn) => db.transaction(fn))
console.log(
  `indexed ${labels.length} dev pages and ${n - labels.length} corpus pages (${perClass.size} classes × ≤ ${PER_CLASS}); ${associations} term associations learned`,
)

// Corpus items are headlines and abstracts: the thin-content floor would drop most of them.
const ctx = await createServiceContext(db, systemClock, loadConfig({ CURATION_MIN_WORDS: '0' }))
const cfg = ctx.config.curation
const key = await createKey(db, { name: 'relevance', now })
await fillSemanticVectors(ctx)

// The dev pages were labelled for the 6 dev prompts. For the prompts written from the corpora's
// classes, the dev pages that reached the builder's or BM25's top 20 were judged afterwards
// (pooling, as TREC does: relevance-judgments.json); any other dev page is unjudged for them. The
// strict figure counts an unjudged page as a miss; the condensed figure drops unjudged pages from a
// ranking before taking its top 20 (Sakai's condensed lists).
interface Judgment {
  prompt: string
  page: string
  relevant: boolean
}
const judgments = (JSON.parse(readFileSync(join(data, 'topics/relevance-judgments.json'), 'utf8')) as { judgments: Judgment[] }).judgments
const judgedKey = (prompt: string, page: string): string => `${prompt}\u0000${page}`
const pooled = new Map(judgments.map((j) => [judgedKey(j.prompt, j.page), j.relevant]))
// A judgment decides; without one, a dev page's label for the dev prompts or a corpus item's class.
const isRelevant = (p: Prompt, page: IndexedPage | undefined): boolean =>
  !!page && (pooled.get(judgedKey(p.prompt, page.id)) ?? (p.dev_relevant_ids.includes(page.label) || p.classes.includes(page.label)))
const DEV_PROMPTS = new Set((JSON.parse(readFileSync(join(data, 'classification/prompts.json'), 'utf8')) as { prompt: string }[]).map((x) => x.prompt))
const isJudged = (p: Prompt, page: IndexedPage | undefined): boolean =>
  !!page && (DEV_PROMPTS.has(p.prompt) || page.label.includes(':') || pooled.has(judgedKey(p.prompt, page.id)))

// BM25 over the same extracted text.
const keywords = bm25(pages.map((page) => ({ item: page, text: page.text })))
const bm25Top = (prompt: string, k: number, keep?: (page: IndexedPage) => boolean): IndexedPage[] => keywords.top(prompt, k, keep)

// RELEVANCE_POOL=file: writes the unjudged pages of every corpus prompt's top 20 (the builder's and
// BM25's alike) for judging (pooling, as TREC does); the judgments go to relevance-judgments.json.
const poolFile = process.env.RELEVANCE_POOL
const pool: { prompt: string; page: string; text: string }[] = []
interface Row {
  prompt: string
  split: string
  relevant: number
  segment_urls: number
  p_at_20_strict: number
  bm25_p_at_20: number
  max_p_at_20: number
  p_at_20_condensed: number
  bm25_p_at_20_condensed: number
  warnings: string[]
}
const rows: Row[] = []
// (score, relevant) of every judged URL a segment returned, per half: is a score the share of such
// URLs that fit (docs/curation.md, "Scores")?
const scored: Record<string, { score: number; relevant: boolean }[]> = { tuning: [], check: [] }
for (const p of prompts) {
  const { out, urls: all } = await buildPromptSegment(ctx, cfg, key.client_id, p.prompt, now, 10_000)
  for (const u of all) {
    const page = byUrl.get(u.url)
    if (page && isJudged(p, page)) scored[p.split]?.push({ score: u.score, relevant: isRelevant(p, page) })
  }
  const urls = all.slice(0, 20)
  const relevant = pages.filter((x) => isRelevant(p, x)).length
  const hits = urls.filter((u) => isRelevant(p, byUrl.get(u.url))).length
  const bm = bm25Top(p.prompt, 20).filter((x) => isRelevant(p, x)).length
  if (poolFile) {
    // Every page of either top 20 that no judgment names, corpus items included (their class is only a
    // presumption); the dev pages are labelled for the dev prompts already.
    const unjudged = new Set<IndexedPage>()
    const needsJudging = (page: IndexedPage): boolean => !pooled.has(judgedKey(p.prompt, page.id)) && !(DEV_PROMPTS.has(p.prompt) && !page.label.includes(':'))
    for (const u of urls) {
      const page = byUrl.get(u.url)
      if (page && needsJudging(page)) unjudged.add(page)
    }
    for (const page of bm25Top(p.prompt, 20)) if (needsJudging(page)) unjudged.add(page)
    for (const page of unjudged) pool.push({ prompt: p.prompt, page: page.id, text: page.text.slice(0, 1200) })
  }
  const judged = (page: IndexedPage | undefined): boolean => isJudged(p, page)
  const condensed = all.filter((u) => judged(byUrl.get(u.url))).slice(0, 20)
  const hitsCondensed = condensed.filter((u) => isRelevant(p, byUrl.get(u.url))).length
  const bmCondensed = bm25Top(p.prompt, 20, judged).filter((x) => isRelevant(p, x)).length
  const r: Row = {
    prompt: p.prompt,
    split: p.split,
    relevant,
    segment_urls: out.kept.length,
    p_at_20_strict: hits / 20,
    bm25_p_at_20: bm / 20,
    max_p_at_20: Math.min(20, relevant) / 20,
    p_at_20_condensed: hitsCondensed / 20,
    bm25_p_at_20_condensed: bmCondensed / 20,
    warnings: out.warnings.map((w) => w.code),
  }
  rows.push(r)
  if (process.env.RELEVANCE_DEBUG && p.prompt.includes(process.env.RELEVANCE_DEBUG)) {
    console.log(JSON.stringify(interpretPrompt(p.prompt).interpretation))
    for (const u of urls.slice(0, Number(process.env.RELEVANCE_DEBUG_N ?? 12)))
      console.log(
        `   ${isRelevant(p, byUrl.get(u.url)) ? '+' : '-'} ${u.score.toFixed(3)} ${byUrl.get(u.url)?.label.slice(0, 30)} ${JSON.stringify(u.reasons)}`,
      )
    // The relevant pages the top N missed: their rank and score in the segment, or absent.
    const n = Number(process.env.RELEVANCE_DEBUG_N ?? 12)
    for (const page of pages.filter((x) => isRelevant(p, x))) {
      const at = all.findIndex((u) => byUrl.get(u.url) === page)
      if (at >= 0 && at < n) continue
      const u = all[at]
      console.log(
        `   missed ${at < 0 ? 'absent' : `#${at + 1} ${u!.score.toFixed(3)}`} ${page.label.slice(0, 30)} ${u ? JSON.stringify(u.reasons) : page.text.slice(0, 100).replace(/\s+/g, ' ')}`,
      )
    }
  }
  console.log(
    `${p.split.padEnd(6)} P@20 ${r.p_at_20_strict.toFixed(2)}  BM25 ${r.bm25_p_at_20.toFixed(2)}  condensed ${r.p_at_20_condensed.toFixed(2)} / BM25 ${r.bm25_p_at_20_condensed.toFixed(2)}  max ${r.max_p_at_20.toFixed(2)}  n=${String(relevant).padEnd(3)} urls=${String(r.segment_urls).padEnd(5)} ${p.prompt}` +
      (r.warnings.length ? `  [${r.warnings.join(', ')}]` : ''),
  )
}
const mean = (split: string, k: 'p_at_20_strict' | 'bm25_p_at_20' | 'max_p_at_20' | 'p_at_20_condensed' | 'bm25_p_at_20_condensed'): number => {
  const xs = rows.filter((r) => r.split === split)
  return xs.reduce((s, r) => s + r[k], 0) / xs.length
}
const summary = Object.fromEntries(
  ['tuning', 'check'].map((s) => [
    s,
    {
      prompts: rows.filter((r) => r.split === s).length,
      p_at_20_strict: mean(s, 'p_at_20_strict'),
      bm25_p_at_20: mean(s, 'bm25_p_at_20'),
      max_p_at_20: mean(s, 'max_p_at_20'),
      p_at_20_condensed: mean(s, 'p_at_20_condensed'),
      bm25_p_at_20_condensed: mean(s, 'bm25_p_at_20_condensed'),
    },
  ]),
)
for (const [s, v] of Object.entries(summary)) {
  console.log(
    `${s} half (${v.prompts} prompts): mean strict P@20 ${v.p_at_20_strict.toFixed(3)}  BM25 ${v.bm25_p_at_20.toFixed(3)}  (+${(v.p_at_20_strict - v.bm25_p_at_20).toFixed(3)})  ceiling ${v.max_p_at_20.toFixed(3)};  condensed (unjudged dev pages dropped) ${v.p_at_20_condensed.toFixed(3)}  BM25 ${v.bm25_p_at_20_condensed.toFixed(3)}  (+${(v.p_at_20_condensed - v.bm25_p_at_20_condensed).toFixed(3)})`,
  )
}

const calibration = Object.fromEntries(Object.entries(scored).map(([half, pairs]) => [half, calibrationOf(pairs)]))
for (const [half, c] of Object.entries(calibration)) {
  console.log(`calibration, ${half} half (${c.urls} judged segment URLs): expected calibration error ${c.ece.toFixed(3)}, Brier ${c.brier.toFixed(3)}`)
  console.log(`  ${c.bins.map((b) => `${b.range}: n=${b.n} score ${b.score.toFixed(2)} fit ${b.fit.toFixed(2)}`).join(' | ')}`)
}

if (fit) await fitCoefficients()

const accuracy = await corpusAccuracy({ vectors: false })
console.log('tier-1 top-1 on check splits (shipped / model only / vocabulary only):')
for (const a of accuracy)
  console.log(
    `  ${a.corpus.padEnd(9)} n=${a.items}  ${a.top1.shipped.toFixed(3)} / ${a.top1['model only'].toFixed(3)} / ${a.top1['vocabulary only'].toFixed(3)}  classified ${a.classified.toFixed(3)}`,
  )
const probe = await probeAccuracy()
console.log(`British news probe (synthetic, n=${probe.items}): tier-1 top-1 ${probe.top1.toFixed(3)}: ${describeProbe(probe)}`)

if (poolFile) {
  writeFileSync(poolFile, `${JSON.stringify(pool, null, 1)}\n`)
  console.log(`wrote ${pool.length} unjudged (prompt, page) pairs to ${poolFile}`)
}
await closeServices(ctx)
await db.close()
const outFile = join(root, 'bench/results/relevance.json')
mkdirSync(dirname(outFile), { recursive: true })
writeFileSync(
  outFile,
  `${JSON.stringify({ generated_at: new Date().toISOString(), pages: pages.length, coefficients: FIT_COEFFICIENTS, summary, calibration, prompts: rows, tier1: accuracy }, null, 2)}\n`,
)
console.log(`wrote ${outFile}`)

/**
 * Reliability of the scores: per score bin, the mean score against the share of URLs that fit; the
 * expected calibration error (those gaps weighted by the bins' sizes) and the Brier score.
 */
function calibrationOf(pairs: readonly { score: number; relevant: boolean }[]) {
  const edges = [0, 0.05, 0.1, 0.2, 0.35, 0.5, 0.7, 1.0001]
  const bins = edges.slice(0, -1).map((lo, i) => {
    const hi = edges[i + 1] as number
    const inBin = pairs.filter((x) => x.score >= lo && x.score < hi)
    const n = inBin.length
    return {
      range: `${lo.toFixed(2)}–${Math.min(1, hi).toFixed(2)}`,
      n,
      score: n ? inBin.reduce((a, x) => a + x.score, 0) / n : 0,
      fit: n ? inBin.filter((x) => x.relevant).length / n : 0,
    }
  })
  const total = pairs.length || 1
  return {
    urls: pairs.length,
    ece: bins.reduce((a, b) => a + (b.n / total) * Math.abs(b.score - b.fit), 0),
    brier: pairs.reduce((a, x) => a + (x.score - (x.relevant ? 1 : 0)) ** 2, 0) / total,
    bins,
  }
}

/** Logistic regression by gradient descent: weights [intercept, ...one per feature]. */
function logistic(xs: readonly number[][], ys: readonly number[]): number[] {
  const w = new Array<number>((xs[0]?.length ?? 0) + 1).fill(0)
  for (let it = 0; it < 20000; it++) {
    const g = new Array<number>(w.length).fill(0)
    for (let i = 0; i < xs.length; i++) {
      const x = xs[i]!
      let z = w[0]!
      for (let j = 0; j < x.length; j++) z += w[j + 1]! * x[j]!
      const e = 1 / (1 + Math.exp(-z)) - ys[i]!
      g[0]! += e
      for (let j = 0; j < x.length; j++) g[j + 1]! += e * x[j]!
    }
    for (let j = 0; j < w.length; j++) w[j] = w[j]! - (8 * g[j]!) / xs.length
  }
  return w
}

/**
 * Fits the prompt-fit coefficients on the tuning half, two ways: (1) a logistic regression of
 * relevance on the six measurements over every page × tuning prompt (the sentence vectors' cosine less
 * its baseline, 0 without a vector, as promptFit counts it);
 * (2) the mix that ranks best in memory (mean P@20 over every page, a grid), then calibrated by a
 * logistic regression on that mix. With the similarity measurement (2) also ranks better through
 * the builder on the tuning half (strict P@20 0.535 against 0.528), so (2) ships; both are printed.
 * The themes coefficient was then swept through the builder with the other four kept (docs/curation.md).
 */
async function fitCoefficients(): Promise<void> {
  // The pages as the builder reads them: classified again with their vectors by fillSemanticVectors.
  const { rows } = await db.query<{ url: string; embedding: Embedding | null; semantic: Uint8Array | null }>(`SELECT url, embedding, semantic FROM pages`)
  for (const r of rows) {
    const page = byUrl.get(r.url)
    if (page) Object.assign(page, { embedding: r.embedding, semantic: vectorOf(r.semantic) })
  }
  const tuning = prompts.filter((x) => x.split === 'tuning')
  const promptVectors = ctx.encoder ? await ctx.encoder.encode(tuning.map((p) => p.prompt)) : []
  type X = [number, number, number, number, number, number]
  const perPrompt: { xs: X[]; ys: number[] }[] = []
  for (const [pi, p] of tuning.entries()) {
    const base = interpretPrompt(p.prompt)
    const intent = weighByRarity(base, keywords.termStats([...base.termWeights.keys()]))
    const promptVector = promptVectors[pi]
    const xs: X[] = []
    const ys: number[] = []
    for (const page of pages) {
      if (!page.embedding) continue
      const f = promptFit(intent, page.embedding, { semantic: promptVector && page.semantic ? semanticCosine(promptVector, page.semantic) : null })
      xs.push([f.topic, f.detail, f.terms, f.similarity, f.themes, f.semantic === null ? 0 : f.semantic - SEMANTIC_BASELINE])
      ys.push(isRelevant(p, page) ? 1 : 0)
    }
    perPrompt.push({ xs, ys })
  }
  const allX = perPrompt.flatMap((p) => p.xs)
  const allY = perPrompt.flatMap((p) => p.ys)
  const r = (x: number): string => x.toFixed(2)
  const [i0, t0, d0, w0, s0, h0, m0] = logistic(allX, allY) as [number, number, number, number, number, number, number]
  console.log(
    `(1) logistic fit on ${allX.length} (page, tuning prompt) pairs: { intercept: ${r(i0)}, topic: ${r(t0)}, detail: ${r(d0)}, terms: ${r(w0)}, similarity: ${r(s0)}, themes: ${r(h0)}, semantic: ${r(m0)} }`,
  )
  const inMemory = (k: readonly number[]): number =>
    perPrompt.reduce((sum, { xs, ys }) => {
      const order = xs.map((x, i) => ({ z: x.reduce((z, v, j) => z + k[j]! * v, 0), y: ys[i]! })).sort((p, q) => q.z - p.z)
      return sum + order.slice(0, 20).filter((o) => o.y).length / 20
    }, 0) / perPrompt.length
  let best = { k: [1, 0, 0, 0, 0, 0], p20: -1 }
  for (const detail of [0, 0.25, 0.5, 1, 1.5, 2, 3]) {
    for (const terms of [0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4]) {
      for (const similarity of [0, 0.5, 1, 2, 3, 4]) {
        for (const themes of [0, 1, 2, 4]) {
          for (const semantic of ctx.encoder ? [0, 1.5, 3] : [0]) {
            const k = [1, detail, terms, similarity, themes, semantic]
            const p20 = inMemory(k)
            if (p20 > best.p20) best = { k, p20 }
          }
        }
      }
    }
  }
  // Gradient descent needs the mix on a unit scale (a mix in the tens diverges); the slope is scaled back.
  const mixOf = (x: readonly number[]): number => x.reduce((z, v, j) => z + best.k[j]! * v, 0)
  const mixScale = Math.max(...allX.map((x) => Math.abs(mixOf(x)))) || 1
  const [a, b0] = logistic(
    allX.map((x) => [mixOf(x) / mixScale]),
    allY,
  ) as [number, number]
  const b = b0 / mixScale
  const [, detail, terms, similarity, themes, semantic] = best.k.map((k) => r(b * k))
  console.log(
    `(2) best-ranking mix (in-memory P@20 ${best.p20.toFixed(3)}), calibrated: { intercept: ${r(a)}, topic: ${r(b)}, detail: ${detail}, terms: ${terms}, similarity: ${similarity}, themes: ${themes}, semantic: ${semantic} }`,
  )
  console.log(`(1) in-memory P@20 on the tuning half: ${inMemory([t0, d0, w0, s0, h0, m0]).toFixed(3)}`)
  const k = FIT_COEFFICIENTS
  console.log(
    `shipped coefficients, in-memory P@20 on the tuning half: ${inMemory([k.topic, k.detail, k.terms, k.similarity, k.themes, k.semantic]).toFixed(3)}`,
  )
}
