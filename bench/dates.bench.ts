// Published-date benchmark on the htmldate dev half (fixtures/dates/htmldate-dev): Curata's extractPage
// beside a meta-tags-only baseline, in the same run, on the tuning and check parts (devPartOf), the check
// part's held-out slice (heldOutSlice) and the half of that slice set aside (asideSlice: its pages were
// never looked at), each with the page's real URL and with a neutral one (the URL often holds the date),
// and with the visible page alone (metadata and URL taken away); then the visible page alone on the
// extraction sets' pages against their own metadata's day (silverVisibleOnly). `--verbose` lists the tuning
// part's misses.
// Scored as upstream does: the exact day or nothing; a page whose gold is NaN counts any answer as wrong.
// Writes bench/results/dates.json and exits non-zero when an acceptance target is missed (all dev pages,
// real URL).
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { extractPage } from '../src/scraping/extract/extract-page.ts'
import { metaTagsOnlyDay } from './lib/date-baseline.ts'
import { visibleOnlyDay } from './lib/date-visible-only.ts'
import type { DatePage, DevPart } from './lib/extraction-data.ts'
import { asideSlice, heldOutSlice, loadHtmldateDev, loadReadabilityPages, loadScrapinghub, loadTrafilaturaDev } from './lib/extraction-data.ts'

const TARGETS = { exactShare: 0.92, wrongShare: 0.04 }
const NEUTRAL_URL = 'https://example.org/page'
const verbose = process.argv.includes('--verbose')

interface Score {
  pages: number
  gold: number
  exact: number
  wrong: number
  none: number
  exactShare: number
  wrongShare: number
  precision: number
  f1: number
}

function score(pages: DatePage[], answers: Array<string | null>): Score {
  let exact = 0
  let wrong = 0
  let none = 0
  pages.forEach((p, i) => {
    const a = answers[i] ?? null
    if (a === null) none++
    else if (a === p.gold) exact++
    else wrong++
  })
  const gold = pages.filter((p) => p.gold !== null).length
  return {
    pages: pages.length,
    gold,
    exact,
    wrong,
    none,
    exactShare: exact / gold,
    wrongShare: wrong / gold,
    precision: exact + wrong > 0 ? exact / (exact + wrong) : 0,
    f1: (2 * exact) / (2 * exact + wrong + none),
  }
}

/**
 * The visible-page rules on pages never used to write them: the extraction sets' pages (trafilatura dev
 * half, scrapinghub, Readability's) whose JSON-LD datePublished or article:published_time decides their
 * date, scored against that day (a silver answer: the publisher's own statement) with the metadata and
 * URL taken away. It tells how the text rules do on new pages, where the htmldate parts were looked at.
 */
function silverVisibleOnly(fetchedAt: Date): { pages: number; score: Score } {
  const sources = [...loadTrafilaturaDev(), ...loadScrapinghub(), ...loadReadabilityPages()]
  const pages: DatePage[] = []
  const answers: Array<string | null> = []
  for (const p of sources) {
    const r = extractPage(p.html, p.url, { fetchedAt })
    const evidence = r.metadata.date_evidence
    const e = evidence?.published
    const decisive =
      e && !evidence.notes.length && ((e.source === 'json-ld' && e.field === 'datePublished') || (e.source === 'meta' && e.field === 'article:published_time'))
    if (!decisive || !r.published_date) continue
    pages.push({ key: p.url, part: 'check', url: p.url, html: p.html, gold: r.published_date.slice(0, 10) })
    answers.push(visibleOnlyDay(p.html, fetchedAt))
  }
  return { pages: pages.length, score: score(pages, answers) }
}

function main(): void {
  const all = loadHtmldateDev()
  const fetchedAt = new Date()
  const rows: Array<{ part: DevPart | 'held-out' | 'aside' | 'all'; url: 'real' | 'neutral' | 'visible only'; ours: Score; base: Score }> = []
  const misses: string[] = []
  const baseAnswers = all.map((p) => metaTagsOnlyDay(p.html))
  // "visible only": metadata and URL taken away (bench/lib/date-visible-only.ts).
  for (const url of ['real', 'neutral', 'visible only'] as const) {
    const ours = url === 'visible only' ? [] : all.map((p) => extractPage(p.html, url === 'real' ? p.url : NEUTRAL_URL, { fetchedAt }))
    const days = url === 'visible only' ? all.map((p) => visibleOnlyDay(p.html, fetchedAt)) : ours.map((r) => r.published_date?.slice(0, 10) ?? null)
    if (url === 'real') {
      all.forEach((p, i) => {
        if (p.part === 'tune' && days[i] !== p.gold)
          misses.push(`  ${p.key} gold ${p.gold} got ${days[i]} ${JSON.stringify(ours[i]?.metadata.date_evidence?.published ?? null)}`)
      })
    }
    for (const part of ['tune', 'check', 'held-out', 'aside', 'all'] as const) {
      const inPart = (p: DatePage): boolean =>
        part === 'all' || (part === 'held-out' ? heldOutSlice(p.key) : part === 'aside' ? asideSlice(p.key) : p.part === part)
      const idx = all.map((p, i) => (inPart(p) ? i : -1)).filter((i) => i >= 0)
      const pages = idx.map((i) => all[i] as DatePage)
      rows.push({
        part,
        url,
        ours: score(
          pages,
          idx.map((i) => days[i] ?? null),
        ),
        base: score(
          pages,
          idx.map((i) => baseAnswers[i] ?? null),
        ),
      })
    }
  }
  const pct = (n: number): string => `${(n * 100).toFixed(1)}%`
  console.log(
    `htmldate dev half: ${all.length} pages (${all.filter((p) => p.part === 'tune').length} tuning, ${all.filter((p) => p.part === 'check').length} check)`,
  )
  console.log('| part | URL | pipeline | exact day | wrong day | no answer | precision | F1 |')
  console.log('|---|---|---|---|---|---|---|---|')
  for (const r of rows) {
    for (const [name, s] of [
      ['curata extractPage', r.ours],
      ['meta tags only', r.base],
    ] as const) {
      console.log(
        `| ${r.part} (${s.gold} gold) | ${r.url} | ${name} | ${pct(s.exactShare)} | ${pct(s.wrongShare)} | ${s.none} | ${s.precision.toFixed(3)} | ${s.f1.toFixed(3)} |`,
      )
    }
  }
  const silver = silverVisibleOnly(fetchedAt)
  console.log(
    `\nVisible page alone on ${silver.pages} extraction-set pages whose JSON-LD or article:published_time dates them (that day as the answer): exact ${pct(silver.score.exactShare)}, wrong ${pct(silver.score.wrongShare)}, no answer ${silver.score.none}`,
  )
  const headline = rows.find((r) => r.part === 'all' && r.url === 'real') as (typeof rows)[number]
  const checks = { exact: headline.ours.exactShare >= TARGETS.exactShare, wrong: headline.ours.wrongShare <= TARGETS.wrongShare }
  const mark = (ok: boolean): string => (ok ? 'PASS' : 'FAIL')
  console.log('\nAcceptance (all dev pages, real URL)')
  console.log(`| published day exact | ${pct(headline.ours.exactShare)} | >= ${pct(TARGETS.exactShare)} | ${mark(checks.exact)} |`)
  console.log(`| wrong day given | ${pct(headline.ours.wrongShare)} | <= ${pct(TARGETS.wrongShare)} | ${mark(checks.wrong)} |`)
  if (verbose) console.log(`\nTuning-part misses (real URL):\n${misses.join('\n')}`)
  const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'dates.json')
  mkdirSync(dirname(out), { recursive: true })
  writeFileSync(
    out,
    JSON.stringify({ generated_at: new Date().toISOString(), rows, silver_visible_only: silver, targets: TARGETS, pass: checks }, null, 2) + '\n',
  )
  console.log(`\nwrote ${out}`)
  if (!Object.values(checks).every(Boolean)) process.exitCode = 1
}

main()
