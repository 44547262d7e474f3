// Page-extraction benchmark: quality on scrapinghub (shingle F1), on Readability's test pages (text
// of expected.html) and on the trafilatura dev half (upstream's snippet metric, tuning and check parts), speed against Readability-on-linkedom measured in the same run, published-date
// accuracy and language agreement. Prints a table, writes bench/results/extraction.json, and exits
// non-zero when an acceptance target is missed.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ExtractedPage } from '../src/scraping/extract/extract-page.ts'
import { extractPage } from '../src/scraping/extract/extract-page.ts'
import type { BaselineResult } from './lib/extraction-baseline.ts'
import { readabilityOnLinkedom } from './lib/extraction-baseline.ts'
import type { BenchPage } from './lib/extraction-data.ts'
import { checkLookedAt, loadLanguageLabels, loadReadabilityPages, loadScrapinghub, trafilaturaBenchPages } from './lib/extraction-data.ts'
import type { Quality } from './lib/extraction-metric.ts'
import { aggregate, pageF1, scorePage } from './lib/extraction-metric.ts'
import type { SnippetQuality } from './lib/snippet-metric.ts'
import { scoreSnippets, snippetQuality } from './lib/snippet-metric.ts'

const TIMING_ROUNDS = 3
const verbose = process.argv.includes('--verbose')

const TARGETS = {
  scrapinghubF1: 0.945,
  readabilityPagesF1: 0.97,
  trafilaturaDevF1: 0.93,
  medianTimeRatio: 0.5,
  publishedDayShare: 0.9,
  languageShare: 0.95,
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  if (sorted.length === 0) return 0
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0
}

function time<T>(fn: () => T): [T, number] {
  const start = process.hrtime.bigint()
  const result = fn()
  return [result, Number(process.hrtime.bigint() - start) / 1e6]
}

interface PageRun {
  page: BenchPage
  ours: ExtractedPage
  base: BaselineResult
  oursMs: number
  baseMs: number
}

function runAll(pages: BenchPage[]): PageRun[] {
  // Warm both pipelines (JIT, eld tables) so the first pages do not carry start-up cost.
  for (const page of pages.slice(0, 40)) {
    extractPage(page.html, page.url)
    readabilityOnLinkedom(page.html)
  }
  const oursTimes: number[][] = pages.map(() => [])
  const baseTimes: number[][] = pages.map(() => [])
  const ours: ExtractedPage[] = []
  const base: BaselineResult[] = []
  for (let round = 0; round < TIMING_ROUNDS; round++) {
    pages.forEach((page, i) => {
      // Alternate which runs first so neither systematically inherits the other's garbage.
      const runOurs = (): void => {
        const [result, ms] = time(() => extractPage(page.html, page.url))
        ;(oursTimes[i] as number[]).push(ms)
        if (round === 0) ours[i] = result
      }
      const runBase = (): void => {
        const [result, ms] = time(() => readabilityOnLinkedom(page.html))
        ;(baseTimes[i] as number[]).push(ms)
        if (round === 0) base[i] = result
      }
      if ((i + round) % 2 === 0) {
        runOurs()
        runBase()
      } else {
        runBase()
        runOurs()
      }
    })
  }
  return pages.map((page, i) => ({
    page,
    ours: ours[i] as ExtractedPage,
    base: base[i] as BaselineResult,
    oursMs: median(oursTimes[i] as number[]),
    baseMs: median(baseTimes[i] as number[]),
  }))
}

function quality(runs: PageRun[], pick: (r: PageRun) => string): Quality {
  return aggregate(runs.map((r) => scorePage(r.page.expectedText, pick(r))))
}

function snippets(runs: PageRun[], pick: (r: PageRun) => string): SnippetQuality {
  return snippetQuality(runs.map((r) => scoreSnippets(pick(r), r.page.snippets?.with ?? [], r.page.snippets?.without ?? [])))
}

const oursText = (r: PageRun): string => r.ours.content?.full_text ?? ''
const baseText = (r: PageRun): string => r.base.text

function fmt(n: number, digits = 3): string {
  return n.toFixed(digits)
}

function pct(n: number): string {
  return `${(n * 100).toFixed(1)}%`
}

function main(): void {
  const loadStart = performance.now()
  const scrapinghub = loadScrapinghub()
  const readability = loadReadabilityPages()
  const trafilatura = trafilaturaBenchPages()
  console.log(
    `loaded ${scrapinghub.length} scrapinghub + ${readability.length} readability + ${trafilatura.length} trafilatura-dev pages in ${fmt((performance.now() - loadStart) / 1000, 1)} s`,
  )

  const runs = runAll([...scrapinghub, ...readability, ...trafilatura])
  const shRuns = runs.filter((r) => r.page.set === 'scrapinghub')
  const rdRuns = runs.filter((r) => r.page.set === 'readability')
  const tfRuns = runs.filter((r) => r.page.set === 'trafilatura')
  const inPart = (part: 'tune' | 'check' | 'check, looked at' | 'check, never looked at' | 'all', r: (typeof tfRuns)[number]): boolean => {
    const p = r.page.snippets?.part
    if (part === 'all') return true
    if (part === 'check, looked at' || part === 'check, never looked at') return p === 'check' && checkLookedAt(r.page.id) === (part === 'check, looked at')
    return p === part
  }
  const tfParts = (['tune', 'check', 'check, looked at', 'check, never looked at', 'all'] as const).map((part) => {
    const set = tfRuns.filter((r) => inPart(part, r))
    return { part, ours: snippets(set, oursText), base: snippets(set, baseText) }
  })
  const tfAll = tfParts.find((t) => t.part === 'all') as (typeof tfParts)[number]

  const shOurs = quality(shRuns, oursText)
  const shBase = quality(shRuns, baseText)
  const rdOurs = quality(rdRuns, oursText)
  const rdBase = quality(rdRuns, baseText)

  const timing = (set: PageRun[]): { ours: number; base: number; ratio: number; oursP95: number; baseP95: number; oursMean: number; baseMean: number } => {
    const o = set.map((r) => r.oursMs)
    const b = set.map((r) => r.baseMs)
    const mean = (xs: number[]): number => xs.reduce((a, c) => a + c, 0) / xs.length
    return {
      ours: median(o),
      base: median(b),
      ratio: median(o) / median(b),
      oursP95: percentile(o, 0.95),
      baseP95: percentile(b, 0.95),
      oursMean: mean(o),
      baseMean: mean(b),
    }
  }
  const tAll = timing(runs)
  const tSh = timing(shRuns)
  const tRd = timing(rdRuns)
  const tTf = timing(tfRuns)
  const slowest = Math.max(...runs.map((r) => r.oursMs))

  // Published date: exact day on pages whose expected metadata has publishedTime.
  const dated = rdRuns.filter((r) => r.page.expectedPublished)
  const dayOf = (s: string | null | undefined): string => (s ?? '').slice(0, 10)
  const datesOk = dated.filter((r) => dayOf(r.ours.published_date) === dayOf(r.page.expectedPublished))
  const datesBase = dated.filter((r) => dayOf(r.base.publishedTime) === dayOf(r.page.expectedPublished))

  // Language agreement with the dev labels on usable pages.
  const byKey = new Map(runs.map((r) => [`${r.page.set}/${r.page.id}`, r]))
  const labels = loadLanguageLabels().filter((l) => !l.unusable)
  const langMisses: string[] = []
  let langOk = 0
  let langTotal = 0
  for (const label of labels) {
    const run = byKey.get(`${label.set}/${label.id}`)
    if (run === undefined) continue
    langTotal++
    const got = run.ours.content?.language ?? null
    if (got === label.lang) langOk++
    else langMisses.push(`${label.set}/${label.id.slice(0, 12)} want ${label.lang} got ${got} (reliable=${run.ours.language_reliable})`)
  }

  const titled = rdRuns.filter((r) => r.page.expectedTitle)
  const titlesOk = titled.filter((r) => (r.ours.content?.title ?? '') === r.page.expectedTitle?.trim())

  const checks = {
    scrapinghubF1: shOurs.f1 >= TARGETS.scrapinghubF1,
    readabilityPagesF1: rdOurs.f1 >= TARGETS.readabilityPagesF1,
    trafilaturaDevF1: tfAll.ours.f1 >= TARGETS.trafilaturaDevF1,
    medianTimeRatio: tAll.ratio <= TARGETS.medianTimeRatio && tSh.ratio <= TARGETS.medianTimeRatio,
    publishedDay: datesOk.length / dated.length >= TARGETS.publishedDayShare,
    language: langOk / langTotal >= TARGETS.languageShare,
  }
  const mark = (ok: boolean): string => (ok ? 'PASS' : 'FAIL')

  console.log('\nMain-text quality (scrapinghub 4-gram shingle metric)')
  console.log('| set | pipeline | F1 | precision | recall | pages |')
  console.log('|---|---|---|---|---|---|')
  for (const [set, o, b] of [
    ['scrapinghub', shOurs, shBase],
    ['readability test pages', rdOurs, rdBase],
  ] as const) {
    console.log(`| ${set} | curata extractPage | ${fmt(o.f1)} | ${fmt(o.precision)} | ${fmt(o.recall)} | ${o.pages} |`)
    console.log(`| ${set} | Readability 0.6 on linkedom | ${fmt(b.f1)} | ${fmt(b.precision)} | ${fmt(b.recall)} | ${b.pages} |`)
  }

  console.log('\nMain-text quality (trafilatura dev half, upstream snippet metric: counts summed over pages)')
  console.log('| part | pipeline | F1 | precision | recall | accuracy | pages |')
  console.log('|---|---|---|---|---|---|---|')
  for (const t of tfParts) {
    console.log(
      `| ${t.part} | curata extractPage | ${fmt(t.ours.f1)} | ${fmt(t.ours.precision)} | ${fmt(t.ours.recall)} | ${fmt(t.ours.accuracy)} | ${t.ours.pages} |`,
    )
    console.log(
      `| ${t.part} | Readability 0.6 on linkedom | ${fmt(t.base.f1)} | ${fmt(t.base.precision)} | ${fmt(t.base.recall)} | ${fmt(t.base.accuracy)} | ${t.base.pages} |`,
    )
  }

  console.log('\nTime per page, ms (median of 3 runs per page; full extractPage vs parseHTML + Readability.parse)')
  console.log('| set | ours P50 | baseline P50 | ratio | ours P95 | baseline P95 | ours mean | baseline mean |')
  console.log('|---|---|---|---|---|---|---|---|')
  for (const [set, t] of [
    [`all ${runs.length}`, tAll],
    ['scrapinghub', tSh],
    ['readability', tRd],
    ['trafilatura dev', tTf],
  ] as const) {
    console.log(
      `| ${set} | ${fmt(t.ours, 2)} | ${fmt(t.base, 2)} | ${fmt(t.ratio)} | ${fmt(t.oursP95, 2)} | ${fmt(t.baseP95, 2)} | ${fmt(t.oursMean, 2)} | ${fmt(t.baseMean, 2)} |`,
    )
  }

  console.log(`slowest page (ours): ${fmt(slowest, 1)} ms`)

  console.log('\nMetadata')
  console.log(`published day exact: ${datesOk.length}/${dated.length} (${pct(datesOk.length / dated.length)}); Readability ${datesBase.length}/${dated.length}`)
  console.log(`language agrees with dev labels: ${langOk}/${langTotal} usable pages (${pct(langOk / langTotal)})`)
  console.log(`title exact (readability pages, informational): ${titlesOk.length}/${titled.length}`)

  console.log('\nAcceptance')
  console.log('| target | value | goal | result |')
  console.log('|---|---|---|---|')
  console.log(`| scrapinghub F1 | ${fmt(shOurs.f1)} | >= ${TARGETS.scrapinghubF1} | ${mark(checks.scrapinghubF1)} |`)
  console.log(`| readability pages F1 | ${fmt(rdOurs.f1)} | >= ${TARGETS.readabilityPagesF1} | ${mark(checks.readabilityPagesF1)} |`)
  console.log(`| trafilatura dev F1 (all) | ${fmt(tfAll.ours.f1)} | >= ${TARGETS.trafilaturaDevF1} | ${mark(checks.trafilaturaDevF1)} |`)
  console.log(
    `| median time ratio (all / scrapinghub) | ${fmt(tAll.ratio)} / ${fmt(tSh.ratio)} | <= ${TARGETS.medianTimeRatio} | ${mark(checks.medianTimeRatio)} |`,
  )
  console.log(`| published day exact | ${pct(datesOk.length / dated.length)} | >= 90% | ${mark(checks.publishedDay)} |`)
  console.log(`| language agreement | ${pct(langOk / langTotal)} | >= 95% | ${mark(checks.language)} |`)

  if (verbose) {
    console.log('\nWorst pages (ours F1 vs baseline F1):')
    const worst = runs
      .map((r) => ({ r, ours: pageF1(scorePage(r.page.expectedText, oursText(r))), base: pageF1(scorePage(r.page.expectedText, baseText(r))) }))
      .sort((a, b) => a.ours - a.base - (b.ours - b.base))
      .slice(0, 25)
    for (const w of worst) console.log(`  ${w.r.page.set}/${w.r.page.id.slice(0, 16)} ours ${fmt(w.ours)} base ${fmt(w.base)}`)
    for (const r of dated.filter((d) => !datesOk.includes(d)))
      console.log(`  date miss ${r.page.id}: want ${r.page.expectedPublished} got ${r.ours.published_date}`)
    for (const m of langMisses) console.log(`  language miss ${m}`)
  }

  const results = {
    generated_at: new Date().toISOString(),
    node: process.version,
    pages: { scrapinghub: shRuns.length, readability: rdRuns.length, trafilatura_dev: tfRuns.length },
    quality: {
      scrapinghub: { ours: shOurs, readability_linkedom: shBase },
      readability_test_pages: { ours: rdOurs, readability_linkedom: rdBase },
      trafilatura_dev: Object.fromEntries(tfParts.map((t) => [t.part, { ours: t.ours, readability_linkedom: t.base }])),
    },
    timing_ms: { all: tAll, scrapinghub: tSh, readability: tRd, trafilatura_dev: tTf, slowest_ours: slowest, rounds: TIMING_ROUNDS },
    published_date: { exact_day: datesOk.length, pages: dated.length, share: datesOk.length / dated.length, readability_exact_day: datesBase.length },
    language: { agree: langOk, pages: langTotal, share: langOk / langTotal, misses: langMisses },
    title_exact: { ok: titlesOk.length, pages: titled.length },
    targets: TARGETS,
    pass: checks,
  }
  const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'extraction.json')
  mkdirSync(dirname(out), { recursive: true })
  writeFileSync(out, JSON.stringify(results, null, 2) + '\n')
  console.log(`\nwrote ${out}`)
  if (!Object.values(checks).every(Boolean)) process.exitCode = 1
}

main()
