// Agent classification cost on a realistic mixed corpus (85% human browser UAs, 15% bots), against two
// same-run baselines over the same tokens: a naive `includes` loop and one big case-insensitive RegExp.
// Run: node --import tsx bench/run.ts agents   → bench/results/agents.json (fails if the median > 1 µs)
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { agents, classifyUserAgent } from '../src/pixel/agents/classify.ts'
import { HEADLESS_UAS, HUMAN_UAS, LIBRARY_UAS, LLM_RETRIEVAL_UAS, LLM_TRAINING_UAS, SCRAPER_UAS, SEARCH_UAS } from '../test/pixel/agents/fixtures.ts'

const BUDGET_NS = 1000
const CORPUS = 20_000
const HUMAN_SHARE = 0.85
const REPS = 2_000 // calls per distinct UA per round
const ROUNDS = 5

// Deterministic corpus (mulberry32) so runs are comparable.
let seed = 0x5eed
function rand(): number {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
const bots = [SEARCH_UAS, LLM_TRAINING_UAS, LLM_RETRIEVAL_UAS, SCRAPER_UAS, LIBRARY_UAS, HEADLESS_UAS].flat().map(([ua]) => ua)
const pick = (xs: string[]): string => xs[Math.floor(rand() * xs.length)]!
const corpus = Array.from({ length: CORPUS }, () => (rand() < HUMAN_SHARE ? pick(HUMAN_UAS) : pick(bots)))
const distinct = [...new Set(corpus)]

// Baselines: same token set (plain word tokens, robots-only excluded), no tiers or heuristics.
const named = agents.flatMap((a) => (a.robots_only ? [] : a.tokens.filter((t) => /^[A-Za-z0-9]/.test(t)).map((t) => [t.toLowerCase(), a.name] as const)))
const tokens = named.map(([t]) => t)
const agentOfToken = new Map(named)
function naive(ua: string): number {
  const lower = ua.toLowerCase()
  let best = -1
  let len = 0
  for (let i = 0; i < tokens.length; i++)
    if (tokens[i]!.length > len && lower.includes(tokens[i]!)) {
      best = i
      len = tokens[i]!.length
    }
  return best
}
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
const bigRe = new RegExp(
  `\\b(?:${[...tokens]
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join('|')})`,
  'i',
)
const regex = (ua: string): number => bigRe.exec(ua)?.index ?? -1

// How often each baseline names the same agent as classifyUserAgent (null = human), corpus-weighted.
const naiveAgent = (ua: string): string | null => {
  const i = naive(ua)
  return i < 0 ? null : agentOfToken.get(tokens[i]!)!
}
const regexAgent = (ua: string): string | null => {
  const m = bigRe.exec(ua)
  return m ? agentOfToken.get(m[0].toLowerCase())! : null
}
const agreement = (f: (ua: string) => string | null): number =>
  Math.round((corpus.filter((ua) => f(ua) === classifyUserAgent(ua).agent).length / corpus.length) * 1000) / 10

let sink = 0
const subject = (ua: string): number => {
  const c = classifyUserAgent(ua)
  return c.agent === null ? 0 : c.agent.length
}

/** ns per call for one UA: best of ROUNDS (least disturbed by GC / scheduling). */
function perUa(fn: (ua: string) => number, ua: string): number {
  let best = Infinity
  for (let r = 0; r < ROUNDS; r++) {
    const t0 = process.hrtime.bigint()
    for (let i = 0; i < REPS; i++) sink += fn(ua)
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / REPS)
  }
  return best
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
}

function measure(name: string, fn: (ua: string) => number) {
  for (let i = 0; i < 3; i++) for (const ua of corpus) sink += fn(ua) // warm up
  const cost = new Map(distinct.map((ua) => [ua, perUa(fn, ua)]))
  const weighted = corpus.map((ua) => cost.get(ua)!).sort((a, b) => a - b)
  const t0 = process.hrtime.bigint()
  for (const ua of corpus) sink += fn(ua)
  const meanStream = Number(process.hrtime.bigint() - t0) / corpus.length
  const r = {
    name,
    median_ns: Math.round(quantile(weighted, 0.5)),
    p95_ns: Math.round(quantile(weighted, 0.95)),
    max_ns: Math.round(weighted[weighted.length - 1]!),
    mean_stream_ns: Math.round(meanStream),
  }
  console.log(
    `${name.padEnd(34)} median ${String(r.median_ns).padStart(6)} ns/UA   p95 ${String(r.p95_ns).padStart(6)}   max ${String(r.max_ns).padStart(6)}   stream mean ${String(r.mean_stream_ns).padStart(6)}`,
  )
  return r
}

console.log(
  `corpus: ${CORPUS} UAs (${distinct.length} distinct, ${Math.round(HUMAN_SHARE * 100)}% human); ${tokens.length} tokens; node ${process.version}; ${cpus()[0]?.model ?? '?'}`,
)
const ours = measure('classifyUserAgent', subject)
const naiveR = measure('baseline: includes() loop', naive)
const regexR = measure('baseline: one big RegExp /i', regex)
const ratio = (b: { median_ns: number }): number => Math.round((b.median_ns / ours.median_ns) * 10) / 10
const agree = { includes: agreement(naiveAgent), regex: agreement(regexAgent) }
console.log(`median cost ratio baseline/ours: includes() loop ${ratio(naiveR)}x, big RegExp ${ratio(regexR)}x`)
console.log(
  `baselines agree with classifyUserAgent on ${agree.includes}% (includes) and ${agree.regex}% (RegExp) of the corpus (no tiers, no heuristics, no empty-UA rule)`,
)
// Hostile 10 KB user agents (the collector caps nothing before classifying): cost per call, ours and the RegExp baseline.
const LONG_UAS: [string, string][] = [
  ['10 KB of word starts', 'Go-http '.repeat(1_300)],
  ['10 KB of letters', 'a'.repeat(10_240)],
  ['10 KB then a bot', `${'x '.repeat(5_000)}Googlebot/2.1`],
]
const long = LONG_UAS.map(([label, ua]) => ({ label, ours_ns: Math.round(perUa(subject, ua)), regex_ns: Math.round(perUa(regex, ua)) }))
for (const l of long)
  console.log(`${l.label.padEnd(34)} ours ${l.ours_ns} ns, big RegExp ${l.regex_ns} ns (ratio ${Math.round((l.regex_ns / l.ours_ns) * 10) / 10}x)`)
const LONG_BUDGET_NS = 1_000_000
const pass = ours.median_ns <= BUDGET_NS && long.every((l) => l.ours_ns <= LONG_BUDGET_NS)
console.log(`${pass ? 'PASS' : 'FAIL'}: median ${ours.median_ns} ns/UA (budget ${BUDGET_NS} ns)`)

const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'agents.json')
mkdirSync(dirname(out), { recursive: true })
writeFileSync(
  out,
  `${JSON.stringify(
    {
      bench: 'agents',
      date: new Date().toISOString(),
      node: process.version,
      cpu: cpus()[0]?.model ?? null,
      corpus: { size: CORPUS, distinct: distinct.length, human_share: HUMAN_SHARE, tokens: tokens.length },
      method: `per distinct UA: best of ${ROUNDS} rounds x ${REPS} calls; median/p95 weighted by corpus frequency`,
      budget_ns: BUDGET_NS,
      pass,
      results: [ours, naiveR, regexR],
      long_uas: long,
      long_budget_ns: LONG_BUDGET_NS,
      ratio_includes_over_ours: ratio(naiveR),
      ratio_regex_over_ours: ratio(regexR),
      baseline_agreement_pct: agree,
      sink,
    },
    null,
    2,
  )}\n`,
)
process.exitCode = pass ? 0 : 1
