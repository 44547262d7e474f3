// get_signals latency on the embedded engine over a catalog of 5,000 signals and a 100k-page index:
// the AdCP tool as the MCP server runs it (getSignals with the caller's context), for 40 buyer
// briefs (broad, topical, with audience traits) x 5 rounds, plus wholesale pages. Baseline in the
// same run: the same briefs against a 60-signal catalog on the same index, so the ratio shows what
// the 5,000 signals cost. Target: p95 <= 150 ms.
// Run: npm run bench -- adcp-signals   → bench/results/adcp-signals.json
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

import pino from 'pino'
import type { AgentDeps } from '../src/adcp/agent.ts'
import { getSignals } from '../src/adcp/tools/get-signals.ts'
import { allNodes } from '../src/content/taxonomy/taxonomy.ts'
import { createServiceContext } from '../src/context.ts'
import { systemClock } from '../src/platform/clock.ts'
import { loadConfig } from '../src/platform/config.ts'
import { migrate } from '../src/platform/db/migrate.ts'
import { openPglite } from '../src/platform/db/pglite.ts'
import { createKey } from '../src/platform/keys/keys.ts'
import { insertPages, syntheticIndex } from './lib/synthetic-pages.ts'

const PAGES = Number(process.env.BENCH_PAGES ?? 100_000)
const SIGNALS = 5_000
const ROUNDS = 5

const db = await openPglite()
await migrate(db)
const now = new Date()
const gen = syntheticIndex({ pages: PAGES, seed: 42 })
const t0 = performance.now()
for (const batch of gen.batches(2_000)) await db.transaction((tx) => insertPages(tx, batch, now))
await db.exec('ANALYZE')
console.log(`indexed ${PAGES} pages in ${((performance.now() - t0) / 1000).toFixed(1)} s`)

const ctx = await createServiceContext(db, systemClock, loadConfig({ LOG_LEVEL: 'silent' }))
const key = await createKey(db, { name: 'bench', now })
const deps: AgentDeps = {
  ctx,
  principal: async () => ({ keyId: key.key_id, clientId: key.client_id }),
  baseUrl: 'http://localhost:8080',
  requestHost: 'localhost',
  log: pino({ level: 'silent' }),
}

/** n catalog rows: every IAB tier-1/2 node, then seasonal-style variants of them up to n. */
async function seedCatalog(n: number): Promise<void> {
  await db.query('DELETE FROM catalog_segments')
  const nodes = allNodes().filter((x) => x.tier <= 2 && x.level1_name !== 'Sensitive Topics')
  const rows = Array.from({ length: n }, (_, i) => {
    const node = nodes[i % nodes.length]!
    const name = [node.level1_name, node.level2_name].filter(Boolean).join(' > ')
    const round = Math.floor(i / nodes.length)
    return round === 0
      ? { id: `iab:${node.id}`, type: 'public', name, tid: node.id }
      : { id: `seasonal:${node.id}-v${round}:2026`, type: 'seasonal', name: `${name}, variant ${round}`, tid: node.id }
  })
  await db.query(
    `INSERT INTO catalog_segments (id, type, name, description, taxonomy_id, page_count, share_of_index, by_language, built_at)
     SELECT u.id, u.type, u.name, 'Pages about ' || u.name, u.tid, 100 + u.n % 400, (100 + u.n % 400) / $5::float, '{}'::jsonb, $6
       FROM unnest($1::text[], $2::text[], $3::text[], $4::int[]) WITH ORDINALITY AS u(id, type, name, tid, n)`,
    [rows.map((r) => r.id), rows.map((r) => r.type), rows.map((r) => r.name), rows.map((r) => r.tid), PAGES, now],
  )
}

const briefs = [
  'audience',
  'Show all available signals',
  'outdoor enthusiasts, age 25-54, US',
  'Adults interested in electric vehicles',
  'In-market EV buyers near dealerships with high purchase intent',
  'sports fans following games, results and transfer news',
  'business decision-makers following company news, markets and the economy',
  'home cooks looking for weeknight dinner recipes',
  'travellers planning a family beach holiday',
  'personal finance: saving, budgeting and retirement',
  'parents of young children',
  'fans of indie video games',
  'people shopping for running shoes',
  'readers of celebrity gossip',
  'gardening and houseplants',
  'home renovation and interior design',
  'pet owners, dogs and cats',
  'cyber security professionals',
  'fitness and strength training, women 18+',
  'streaming TV series and movie reviews',
]
const requests = [
  ...briefs.map((signal_spec) => ({ signal_spec, max_results: 10 })),
  ...briefs.map((signal_spec) => ({ signal_spec, destinations: [{ type: 'platform' as const, platform: 'ttd', account: 'seat-1' }], max_results: 5 })),
]

async function measure(label: string): Promise<{ p50_ms: number; p95_ms: number; max_ms: number; calls: number }> {
  const times: number[] = []
  for (const r of requests.slice(0, 5)) await getSignals(deps, r) // warm the caches
  for (let round = 0; round < ROUNDS; round++) {
    for (const r of requests) {
      const t = performance.now()
      await getSignals(deps, r)
      times.push(performance.now() - t)
    }
    const t = performance.now()
    await getSignals(deps, { discovery_mode: 'wholesale', pagination: { max_results: 100 } })
    times.push(performance.now() - t)
  }
  times.sort((a, b) => a - b)
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!
  const out = { p50_ms: round1(q(0.5)), p95_ms: round1(q(0.95)), max_ms: round1(times.at(-1)!), calls: times.length }
  console.log(`${label.padEnd(28)} p50 ${out.p50_ms} ms   p95 ${out.p95_ms} ms   max ${out.max_ms} ms   (${out.calls} calls)`)
  return out
}
const round1 = (x: number) => Math.round(x * 10) / 10

await seedCatalog(60)
const baseline = await measure('baseline: 60 signals')
await seedCatalog(SIGNALS)
const full = await measure(`${SIGNALS} signals`)
const ratio = round1(full.p95_ms / baseline.p95_ms)
console.log(`p95 ratio (5,000 / 60 signals): ${ratio}   target p95 <= 150 ms: ${full.p95_ms <= 150 ? 'met' : 'NOT met'}`)

const dir = join(dirname(fileURLToPath(import.meta.url)), 'results')
mkdirSync(dir, { recursive: true })
writeFileSync(
  join(dir, 'adcp-signals.json'),
  `${JSON.stringify({ pages: PAGES, signals: SIGNALS, engine: 'pglite', baseline, full, p95_ratio: ratio, target_p95_ms: 150, date: now.toISOString() }, null, 2)}\n`,
)
await ctx.scraper.close()
await db.close()
process.exit(0)
