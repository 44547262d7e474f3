// Segment build time over a large index, on PGlite and on PostgreSQL.
// Run: node --import tsx bench/run.ts segment-build   → bench/results/segment-build.json
// BENCH_PAGES (default 100000) pages are generated (bench/lib/synthetic-pages.ts) and inserted with
// SQL/unnest; then several builds run through the real builder (buildSegment + storeBuild, as the
// curation.build job does), each timed from start to committed URL list. The same-run baseline is
// a plain `SELECT count(*) FROM pages` on the same database; the ratio is build time / baseline.
// PostgreSQL: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test
// (a temporary schema, dropped afterwards); skipped when unreachable. BENCH_ENGINES=pglite or
// =postgres runs one engine; BENCH_PGLITE_DIR keeps the loaded PGlite data dir there and reuses it
// on the next run (loading 100k pages takes minutes).
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

import pg from 'pg'
import { getNode } from '../src/content/taxonomy/taxonomy.ts'
import { createServiceContext } from '../src/context.ts'
import { buildSegment, storeBuild } from '../src/curation/builder/build-segment.ts'
import { createSegmentRequest, getSegment } from '../src/curation/segments/repository.ts'
import type { SegmentInput } from '../src/curation/segments/validate.ts'
import { systemClock } from '../src/platform/clock.ts'
import { loadConfig } from '../src/platform/config.ts'
import type { Db } from '../src/platform/db/db.ts'
import { migrate } from '../src/platform/db/migrate.ts'
import { openPglite } from '../src/platform/db/pglite.ts'
import { openPostgres } from '../src/platform/db/postgres.ts'
import { createKey } from '../src/platform/keys/keys.ts'
import { insertPages, insertTraffic, syntheticIndex } from './lib/synthetic-pages.ts'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const PAGES = Number(process.env.BENCH_PAGES ?? 100_000)
const BATCH = 1000
const LIMIT_MS = 10_000

interface Engine {
  name: 'pglite' | 'postgres'
  db: Db
  close(): Promise<void>
}

const wanted = (process.env.BENCH_ENGINES ?? 'pglite,postgres').split(',')
const keptDir = process.env.BENCH_PGLITE_DIR ? resolve(process.env.BENCH_PGLITE_DIR) : null

async function openEngines(): Promise<Engine[]> {
  const engines: Engine[] = []
  if (wanted.includes('pglite')) {
    const dir = keptDir ?? mkdtempSync(join(tmpdir(), 'curata-bench-'))
    const lite = await openPglite({ dataDir: join(dir, 'pgdata') })
    engines.push({ name: 'pglite', db: lite, close: async () => (await lite.close(), keptDir ? undefined : rmSync(dir, { recursive: true, force: true })) })
  }
  if (!wanted.includes('postgres')) {
    for (const e of engines) await migrate(e.db)
    return engines
  }
  const url = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test'
  const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 })
  try {
    await admin.connect()
    const schema = `bench_${randomBytes(5).toString('hex')}`
    await admin.query(`CREATE SCHEMA ${schema}`)
    await admin.end()
    const db = await openPostgres({ connectionString: url, schema, max: 4 })
    engines.push({
      name: 'postgres',
      db,
      async close() {
        await db.close()
        const c = new pg.Client({ connectionString: url })
        await c.connect()
        await c.query(`DROP SCHEMA ${schema} CASCADE`)
        await c.end()
      },
    })
  } catch (err) {
    console.log(`PostgreSQL at ${url} unreachable (${(err as Error).message}): PostgreSQL half skipped`)
    await admin.end().catch(() => {})
  }
  for (const e of engines) await migrate(e.db)
  return engines
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now()
  const v = await fn()
  return [v, performance.now() - t0]
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}

const input = (over: Partial<SegmentInput>): SegmentInput => ({
  name: null,
  prompt: null,
  exampleUrls: [],
  taxonomy: null,
  extraHops: null,
  blockTlds: null,
  blockKeywords: null,
  ...over,
})

const now = new Date()
console.log(`generating ${PAGES} pages…`)
const gen = syntheticIndex({ pages: PAGES, seed: 42 })
console.log(`  classified ${Math.round(PAGES / 5)} base articles with the real classifier in ${gen.classifySeconds.toFixed(1)} s`)
const engines = await openEngines()
const loadSeconds: Record<string, number> = {}
const exampleUrls: string[] = []
const toLoad: Engine[] = []
for (const e of engines) {
  loadSeconds[e.name] = 0
  const { rows } = await e.db.query<{ n: number }>('SELECT count(*)::int AS n FROM pages')
  if (rows[0]!.n === PAGES) console.log(`${e.name}: reusing the ${PAGES} pages of ${keptDir}`)
  else toLoad.push(e)
}
for (const batch of gen.batches(BATCH)) {
  if (exampleUrls.length < 3)
    exampleUrls.push(
      ...batch
        .filter((p) => p.url.includes('/210/') && p.word_count > 200)
        .slice(0, 3 - exampleUrls.length)
        .map((p) => p.url),
    )
  for (const e of toLoad) {
    const [, ms] = await timed(() => e.db.transaction((tx) => insertPages(tx, batch, now)))
    loadSeconds[e.name]! += ms / 1000
  }
}
for (const e of toLoad) {
  await insertTraffic(e.db, gen.domains, now)
  await e.db.exec('ANALYZE')
  console.log(`${e.name}: loaded ${PAGES} pages in ${loadSeconds[e.name]!.toFixed(1)} s`)
}
// Pages count as fresh (no fetch of the example URLs) whenever the run happens.
for (const e of engines) await e.db.query('UPDATE pages SET fetched_at = $1 WHERE url = ANY($2::text[])', [now, exampleUrls])

const builds: { label: string; over: Partial<SegmentInput> }[] = [
  { label: 'prompt: sports', over: { prompt: 'sports fans following games, results and transfer news' } },
  { label: 'prompt: technology', over: { prompt: 'tech-savvy readers interested in software, programming, computers and the internet' } },
  { label: 'prompt: business', over: { prompt: 'business decision-makers following company news, markets and the economy' } },
  { label: 'prompt: travel + taxonomy 653', over: { prompt: 'travelers planning trips and looking for places to visit', taxonomy: getNode(653)! } },
  {
    label: 'prompt + keyword + tld blocks',
    over: { prompt: 'healthy living, fitness, diet and wellness', blockKeywords: ['sugar', 'weight loss'], blockTlds: ['com'] },
  },
  // Its words name no topic with even odds, so all of them are searched as text (rank.ts, searchesAllWords).
  { label: 'prompt unsure of its topic', over: { prompt: 'trains, ships and aircraft' } },
  { label: '3 example URLs (indexed)', over: { exampleUrls } },
]

interface Result {
  engine: string
  pages: number
  load_seconds: number
  baseline_count_ms: number
  builds: { label: string; ms: number; urls: number; ratio_to_baseline: number; excluded: Record<string, number>; candidates_scored: number }[]
  max_build_ms: number
  median_build_ms: number
  within_limit: boolean
}
const results: Result[] = []
for (const e of engines) {
  const ctx = await createServiceContext(e.db, systemClock, loadConfig({}))
  const cfg = ctx.config.curation
  const key = await createKey(e.db, { name: 'bench', now })
  const baselines: number[] = []
  for (let i = 0; i < 3; i++) baselines.push((await timed(() => e.db.query('SELECT count(*) FROM pages')))[1])
  const baseline = median(baselines)
  const rows: Result['builds'] = []
  for (const b of builds) {
    const seg = await e.db.transaction((tx) => createSegmentRequest(tx, key.client_id, input(b.over), now))
    const row = (await getSegment(e.db, key.client_id, seg.id))!
    const [out, ms] = await timed(async () => {
      const o = await buildSegment(ctx, row, cfg)
      await e.db.transaction((tx) => storeBuild(tx, row, o, new Date()))
      return o
    })
    const excluded: Record<string, number> = {}
    for (const x of out.excluded) excluded[x.reason] = (excluded[x.reason] ?? 0) + 1
    rows.push({
      label: b.label,
      ms: Math.round(ms),
      urls: out.kept.length,
      ratio_to_baseline: Math.round((ms / baseline) * 10) / 10,
      excluded,
      candidates_scored: out.stats.candidates_scored,
    })
    console.log(
      `${e.name}  ${b.label.padEnd(32)} ${(ms / 1000).toFixed(2)} s  ${String(out.kept.length).padStart(5)} URLs  scored ${out.stats.candidates_scored}  excluded ${JSON.stringify(excluded)}  (${(ms / baseline).toFixed(1)}× count(*))`,
    )
  }
  const times = rows.map((r) => r.ms)
  const res: Result = {
    engine: e.name,
    pages: PAGES,
    load_seconds: Math.round(loadSeconds[e.name]!),
    baseline_count_ms: Math.round(baseline * 10) / 10,
    builds: rows,
    max_build_ms: Math.max(...times),
    median_build_ms: median(times),
    within_limit: Math.max(...times) <= LIMIT_MS,
  }
  results.push(res)
  console.log(
    `${e.name}: baseline SELECT count(*) ${baseline.toFixed(1)} ms; builds median ${(res.median_build_ms / 1000).toFixed(2)} s, max ${(res.max_build_ms / 1000).toFixed(2)} s (limit ${LIMIT_MS / 1000} s) → ${res.within_limit ? 'OK' : 'TOO SLOW'}`,
  )
  await ctx.scraper.close()
}
for (const e of engines) await e.close()

const out = join(root, 'bench/results/segment-build.json')
mkdirSync(dirname(out), { recursive: true })
writeFileSync(out, `${JSON.stringify({ generated_at: new Date().toISOString(), pages: PAGES, results }, null, 2)}\n`)
console.log(`wrote ${out}`)
if (results.some((r) => !r.within_limit)) process.exitCode = 1
