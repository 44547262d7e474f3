// Segment relevance on the labelled dev pages (fixtures/classification), through the real
// pipeline: each page's HTML goes through analyzePage (extraction + classifier) into the index, a
// segment is built per prompt of prompts.json with the real builder (ranking, quality filters), and
// its top 20 URLs are judged against the prompt's dev_relevant_ids.
// Run: node --import tsx bench/run.ts segment-relevance   → bench/results/segment-relevance.json
// Target: mean precision of the top 20 ≥ 0.7, gated on the strict figure (a segment shorter than 20
// URLs counts the missing places as misses), so a segment cannot pass by returning few URLs. Also
// reported: the lenient figure (precision over what was returned), recall (top 20, whole segment)
// and the relevant pages the quality filters left out.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createServiceContext } from '../src/context.ts'
import { systemClock } from '../src/platform/clock.ts'
import { loadConfig } from '../src/platform/config.ts'
import { migrate } from '../src/platform/db/migrate.ts'
import { openPglite } from '../src/platform/db/pglite.ts'
import { createKey } from '../src/platform/keys/keys.ts'
import { buildPromptSegment, devHtml, devPageUrls, indexPage, usableDevPages } from './lib/prompt-segments.ts'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const data = join(root, 'fixtures')

interface Prompt {
  prompt: string
  dev_relevant_ids: string[]
}

const labels = usableDevPages()
const prompts = JSON.parse(readFileSync(join(data, 'classification/prompts.json'), 'utf8')) as Prompt[]

const db = await openPglite()
await migrate(db)
const now = new Date()
const idOfUrl = new Map<string, string>()
for (const [i, raw] of devPageUrls(labels).entries()) {
  const { url } = await indexPage(db, raw, devHtml(labels[i]!), now, labels[i]!.id)
  idOfUrl.set(url, labels[i]!.id)
}
console.log(`indexed ${labels.length} usable dev pages`)

const ctx = await createServiceContext(db, systemClock, loadConfig({}))
const cfg = ctx.config.curation
const key = await createKey(db, { name: 'relevance', now })
interface Row {
  prompt: string
  relevant: number
  segment_urls: number
  p_at_20: number
  p_at_20_strict: number
  max_p_at_20_strict: number
  recall_at_20: number
  segment_recall: number
  segment_precision: number
  relevant_excluded_by_filters: Record<string, number>
}
const rows: Row[] = []
for (const p of prompts) {
  const { out, urls } = await buildPromptSegment(ctx, cfg, key.client_id, p.prompt, now, 10_000)
  const relevant = new Set(p.dev_relevant_ids)
  const isRelevant = (url: string) => relevant.has(idOfUrl.get(url) ?? '')
  const top = urls.slice(0, 20)
  const hits = top.filter((u) => isRelevant(u.url)).length
  const allHits = urls.filter((u) => isRelevant(u.url)).length
  const excludedRelevant: Record<string, number> = {}
  for (const e of out.excluded) if (isRelevant(e.candidate.url)) excludedRelevant[e.reason] = (excludedRelevant[e.reason] ?? 0) + 1
  const r: Row = {
    prompt: p.prompt,
    relevant: relevant.size,
    segment_urls: urls.length,
    p_at_20: hits / Math.min(20, Math.max(1, top.length)),
    p_at_20_strict: hits / 20,
    max_p_at_20_strict: Math.min(20, relevant.size) / 20,
    recall_at_20: hits / relevant.size,
    segment_recall: allHits / relevant.size,
    segment_precision: urls.length ? allHits / urls.length : 0,
    relevant_excluded_by_filters: excludedRelevant,
  }
  rows.push(r)
  console.log(
    `P@20 ${r.p_at_20.toFixed(2)} (strict ${r.p_at_20_strict.toFixed(2)}, max ${r.max_p_at_20_strict.toFixed(2)})  R@20 ${r.recall_at_20.toFixed(2)}  ` +
      `segment: ${urls.length} URLs, recall ${r.segment_recall.toFixed(2)}, precision ${r.segment_precision.toFixed(2)}  n=${relevant.size}  ${p.prompt}` +
      (Object.keys(excludedRelevant).length ? `  relevant excluded: ${JSON.stringify(excludedRelevant)}` : ''),
  )
}
const mean = (k: 'p_at_20' | 'p_at_20_strict' | 'recall_at_20' | 'segment_recall' | 'segment_precision') => rows.reduce((s, r) => s + r[k], 0) / rows.length
const summary = {
  mean_p_at_20: mean('p_at_20'),
  mean_p_at_20_strict: mean('p_at_20_strict'),
  mean_recall_at_20: mean('recall_at_20'),
  mean_segment_recall: mean('segment_recall'),
  mean_segment_precision: mean('segment_precision'),
}
console.log(
  `mean P@20 strict ${summary.mean_p_at_20_strict.toFixed(3)} (target ≥ 0.7, counting missing URLs as misses; over what was returned: ${summary.mean_p_at_20.toFixed(3)})  ` +
    `mean R@20 ${summary.mean_recall_at_20.toFixed(3)}  mean segment recall ${summary.mean_segment_recall.toFixed(3)}, precision ${summary.mean_segment_precision.toFixed(3)}`,
)
await db.close()
const out = join(root, 'bench/results/segment-relevance.json')
mkdirSync(dirname(out), { recursive: true })
writeFileSync(
  out,
  `${JSON.stringify({ generated_at: new Date().toISOString(), pages: labels.length, config: { minScore: cfg.minScore, minWords: cfg.minWords }, summary, prompts: rows }, null, 2)}\n`,
)
console.log(`wrote ${out}`)
if (summary.mean_p_at_20_strict < 0.7) {
  console.error(`FAIL mean P@20 (strict) ${summary.mean_p_at_20_strict.toFixed(3)} < 0.7`)
  process.exitCode = 1
}
