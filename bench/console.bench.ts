// The console's budgets (issue 20): the segment screen of a 10,000-URL segment interactive in ≤ 1.5 s
// on localhost, JavaScript shipped ≤ 300 KB gzipped, the build adding ≤ 30 s to `npm install`.
// Baseline in the same run: the same screen for a 100-URL segment.
// Run: npm run bench -- console   → bench/results/console.json (needs /usr/bin/chromium)
import { spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { isNormalizeError, normalizeUrl } from '../src/content/urls/normalize-url.ts'
import { createServiceContext } from '../src/context.ts'
import { apiFeatures } from '../src/features.ts'
import { systemClock } from '../src/platform/clock.ts'
import { loadConfig } from '../src/platform/config.ts'
import type { Db } from '../src/platform/db/db.ts'
import { migrate } from '../src/platform/db/migrate.ts'
import { openPglite } from '../src/platform/db/pglite.ts'
import { buildApp } from '../src/platform/http/app.ts'
import { createKey } from '../src/platform/keys/keys.ts'
import { queuePages } from '../src/scraping/index/pages-repository.ts'
import { launchChromium } from '../test/console/browser/chromium.ts'

// Globals of the page, as the functions given to page.evaluate see them (this typecheck has no DOM lib).
declare const document: { querySelector(s: string): { textContent: string | null } | null }
declare const performance: { now(): number }

const root = fileURLToPath(new URL('..', import.meta.url))
const runs = Number(process.env.CONSOLE_BENCH_RUNS ?? 5)
const categories = ['Food & Drink', 'Sports', 'Business and Finance', 'Travel', 'Technology & Computing']

// 1. The build, exactly as `npm install` runs it (prepare → build:console).
const t0 = performance.now()
const build = spawnSync('npm', ['run', '--silent', 'build:console'], { cwd: root, stdio: 'inherit' })
const buildSeconds = (performance.now() - t0) / 1000
if (build.status !== 0) throw new Error('the console build failed')

// 2. What the browser downloads.
const assetsDir = join(root, 'console/dist/assets')
let jsRaw = 0
let jsGzip = 0
let cssGzip = 0
for (const f of readdirSync(assetsDir)) {
  const body = readFileSync(join(assetsDir, f))
  if (f.endsWith('.js')) {
    jsRaw += body.length
    jsGzip += gzipSync(body, { level: 9 }).length
  } else if (f.endsWith('.css')) cssGzip += gzipSync(body, { level: 9 }).length
}

/** A complete segment of n URLs on 100 domains, stored the way a build stores it. */
async function seedSegment(db: Db, clientId: number, n: number, tag: string): Promise<number> {
  const urls = Array.from({ length: n }, (_, i) => {
    const u = normalizeUrl(`https://www.site${i % 100}-${tag}.com/articles/${i}/a-long-enough-slug-for-a-realistic-url`)
    if (isNormalizeError(u)) throw new Error(u.error)
    return u
  })
  const now = new Date()
  const ids = await queuePages(db, urls, now)
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO segment_requests (client_id, name, prompt, status, url_count, created_date, processed_date, last_updated_date)
     VALUES ($1, $2, 'bench', 'complete', $3, $4, $4, $4) RETURNING id`,
    [clientId, `Bench ${n}`, n, now],
  )
  const seg = rows[0]!.id
  await db.query(
    `INSERT INTO segment_urls (segment_id, client_id, page_id, rank, score, url, host, tld, taxonomy_id, source)
     SELECT $1, $2, p, r, s, u, h, t, x, 'prompt' FROM unnest($3::bigint[], $4::int[], $5::real[], $6::text[], $7::text[], $8::text[], $9::int[]) AS v(p, r, s, u, h, t, x)`,
    [
      seg,
      clientId,
      urls.map((u) => ids.get(u.url)!),
      urls.map((_, i) => i + 1),
      urls.map((_, i) => 1 - i / (n * 1.1)),
      urls.map((u) => u.url),
      urls.map((u) => u.host),
      urls.map((u) => u.tld),
      urls.map((_, i) => [210, 483, 52, 653, 596][i % categories.length]!),
    ],
  )
  return seg
}

const db = await openPglite()
await migrate(db)
const ctx = await createServiceContext(db, systemClock, { ...loadConfig({}), rateLimitPerMinute: 1_000_000 })
const app = await buildApp(ctx, { features: apiFeatures() })
const url = await app.listen({ port: 0, host: '127.0.0.1' })
const key = await createKey(db, { name: 'bench', now: new Date() })
const big = await seedSegment(db, key.client_id, 10_000, 'big')
const small = await seedSegment(db, key.client_id, 100, 'small')
const signIn = await app.inject({ method: 'POST', url: '/console/session', payload: { api_key: key.api_key } })
const token = /curata_session=([^;]+)/.exec(String(signIn.headers['set-cookie']))![1]!

const browser = await launchChromium()

interface Timing {
  /** the first rows rendered, with filter, sort and paging usable */
  interactiveMs: number
  /** every URL fetched and counted */
  completeMs: number
  /** one filter keystroke over the whole list */
  filterMs: number
}

/**
 * A cold load (new browser context: nothing cached) of the segment screen: time from navigation
 * start until the URL table is usable (its first rows rendered), until every URL is loaded, then the
 * time one filter keystroke over the whole list takes to update it.
 */
async function measure(id: number, n: number): Promise<Timing> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } })
  await context.addCookies([{ name: 'curata_session', value: token, url }])
  const page = await context.newPage()
  await page.goto(`${url}/console/segments/${id}`)
  await page.waitForFunction(() => document.querySelector('[data-testid=url-count]') !== null && document.querySelector('tbody tr') !== null, null, {
    timeout: 30_000,
  })
  const interactiveMs = await page.evaluate(() => performance.now())
  const all = `${n.toLocaleString('en-US')} of ${n.toLocaleString('en-US')} URLs`
  await page.waitForFunction((want) => document.querySelector('[data-testid=url-count]')?.textContent === want, all, { timeout: 30_000 })
  const completeMs = await page.evaluate(() => performance.now())
  const t = performance.now()
  await page.getByLabel('Filter by domain').fill('site7-')
  await page.waitForFunction((want) => document.querySelector('[data-testid=url-count]')?.textContent !== want, all)
  const filterMs = performance.now() - t
  await context.close()
  return { interactiveMs, completeMs, filterMs }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const bigRuns: Timing[] = []
const smallRuns: Timing[] = []
await measure(big, 10_000) // warm the server's caches once; browsers start cold every run
for (let i = 0; i < runs; i++) {
  smallRuns.push(await measure(small, 100))
  bigRuns.push(await measure(big, 10_000))
}
await browser.close()
await app.close()
await ctx.scraper.close()
await db.close()

const summary = (rs: Timing[]) => ({
  interactive_ms_median: Math.round(median(rs.map((r) => r.interactiveMs))),
  complete_ms_median: Math.round(median(rs.map((r) => r.completeMs))),
  filter_ms_median: Math.round(median(rs.map((r) => r.filterMs))),
  runs: rs,
})
const result = {
  date: new Date().toISOString().slice(0, 10),
  build_seconds: Number(buildSeconds.toFixed(1)),
  js_bytes: jsRaw,
  js_gzip_bytes: jsGzip,
  css_gzip_bytes: cssGzip,
  segment_10000: summary(bigRuns),
  segment_100: summary(smallRuns),
}
const big10k = result.segment_10000
const small100 = result.segment_100
const ratio = big10k.interactive_ms_median / small100.interactive_ms_median
console.log(`console build (npm run build:console): ${result.build_seconds} s (budget 30 s)`)
console.log(
  `JavaScript: ${(jsRaw / 1024).toFixed(1)} KB, ${(jsGzip / 1024).toFixed(1)} KB gzipped (budget 300 KB); CSS ${(cssGzip / 1024).toFixed(1)} KB gzipped`,
)
console.log(
  `segment screen, 10,000 URLs (median of ${runs}): interactive in ${big10k.interactive_ms_median} ms (budget 1,500 ms), all URLs loaded in ${big10k.complete_ms_median} ms; filter keystroke ${big10k.filter_ms_median} ms`,
)
console.log(
  `baseline, 100 URLs: interactive in ${small100.interactive_ms_median} ms, loaded in ${small100.complete_ms_median} ms; filter ${small100.filter_ms_median} ms; ratio ${ratio.toFixed(2)}`,
)
mkdirSync(join(root, 'bench/results'), { recursive: true })
writeFileSync(join(root, 'bench/results/console.json'), `${JSON.stringify({ ...result, ratio }, null, 2)}\n`)
const ok = result.build_seconds <= 30 && jsGzip <= 300 * 1024 && big10k.interactive_ms_median <= 1500
process.exit(ok ? 0 : 1)
