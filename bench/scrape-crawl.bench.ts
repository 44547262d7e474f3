// Crawl throughput end to end on PostgreSQL: a scrape job POSTed to `curata serve --role api`, crawled by
// 1 and then 2 worker processes (test/scraping/fixtures/scrape-worker.ts: the production job handlers,
// with every host name resolved to this process's loopback fixture web), timed from submission to
// `complete`. The web: BENCH_HOSTS host names serving the 311 real pages of fixtures/extraction
// (scrapinghub + Readability test pages) and real ads.txt files; robots.txt is absent (404). The
// politeness delay is SCRAPE_HOST_DELAY_MS (default here 0, to measure the crawler, not the delay).
// Bounded memory: each worker's peak RSS (VmHWM) is checked against BENCH_WORKER_RSS_LIMIT_MB (default
// 1024), and the run fails (exit code 1) above it or when the job does not complete. For a large job,
// e.g. BENCH_PAGES=100000 BENCH_WORKERS=2: a worker's memory must not grow with the job's size.
// BENCH_WORKERS picks the worker counts to run (default "1,2").

import type { ChildProcess } from 'node:child_process'
import { spawn } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gunzipSync } from 'node:zlib'

import pg from 'pg'

import { benchKey, curataBin, freshPgSchema, pgUrl } from './lib/curata.ts'

const workerScript = fileURLToPath(new URL('../test/scraping/fixtures/scrape-worker.ts', import.meta.url))
const fixtures = resolve(fileURLToPath(new URL('../fixtures', import.meta.url)))
const PAGES = Number(process.env.BENCH_PAGES ?? 4000)
// Chunks (1,000 URLs) one worker runs at once: 4,000 URLs keep two workers of two chunks each busy.
const JOB_CONCURRENCY = process.env.JOB_CONCURRENCY ?? '2'
const HOSTS = Number(process.env.BENCH_HOSTS ?? 200)
const HOST_DELAY_MS = process.env.SCRAPE_HOST_DELAY_MS ?? '0'
const WORKER_RSS_LIMIT_MB = Number(process.env.BENCH_WORKER_RSS_LIMIT_MB ?? 1024)
const WORKER_COUNTS = (process.env.BENCH_WORKERS ?? '1,2').split(',').map(Number)

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => (statSync(join(dir, e)).isDirectory() ? walk(join(dir, e)) : [join(dir, e)]))
}

const pages = [...walk(join(fixtures, 'extraction', 'scrapinghub')), ...walk(join(fixtures, 'extraction', 'readability-test-pages'))]
  .filter((f) => /(\/html\/[^/]+\.html\.gz|source\.html\.gz)$/.test(f))
  .sort()
  .map((f) => gunzipSync(readFileSync(f)))
const adsFiles = walk(join(fixtures, 'ads-txt', 'real'))
  .filter((f) => f.endsWith('/ads.txt'))
  .sort()
  .map((f) => readFileSync(f))
const bytes = pages.reduce((s, p) => s + p.length, 0)
console.log(
  `fixture web: ${HOSTS} hosts, ${pages.length} distinct pages (${(bytes / pages.length / 1024).toFixed(0)} KB average), ${adsFiles.length} ads.txt files`,
)

const web = createServer((req, res) => {
  const host = (req.headers.host ?? '').replace(/:\d+$/, '')
  const h = Number(/^site(\d+)\./.exec(host)?.[1] ?? 0)
  const path = req.url ?? '/'
  if (path === '/ads.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(adsFiles[h % adsFiles.length])
  const m = /^\/p\/(\d+)$/.exec(path)
  if (!m) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pages[Number(m[1]) % pages.length])
})
await new Promise<void>((r) => web.listen(0, '127.0.0.1', r))
const webPort = (web.address() as AddressInfo).port
const closedPort = await new Promise<number>((r) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const p = (s.address() as AddressInfo).port
    s.close(() => r(p))
  })
})

function waitFor(child: ChildProcess, stream: 'stdout' | 'stderr', pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = ''
    child[stream]!.on('data', (d: Buffer) => {
      text += d.toString()
      const m = pattern.exec(text)
      if (m) resolve(m[1] ?? m[0])
    })
    child.on('exit', (code) => reject(new Error(`process exited ${code} before ${pattern}`)))
  })
}

/** User + system CPU seconds a process has used (/proc/<pid>/stat, clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

function vmHwmMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return m ? Number(m[1]) / 1024 : NaN
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return
  child.kill('SIGTERM')
  await new Promise((r) => child.on('exit', r))
}

async function crawl(workers: number) {
  const schema = `bench_scrape_crawl_${workers}`
  const databaseUrl = await freshPgSchema(schema)
  if (!databaseUrl) throw new Error(`PostgreSQL at ${pgUrl} is unreachable`)
  const env = { ...process.env, DATABASE_URL: databaseUrl, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', SCRAPE_HOST_DELAY_MS: HOST_DELAY_MS }
  const key = await benchKey(env)
  const api = spawn(process.execPath, [curataBin, 'serve', '--role', 'api'], { env, stdio: ['ignore', 'ignore', 'pipe'] })
  const children: ChildProcess[] = [api]
  try {
    const base = await waitFor(api, 'stderr', /listening on (http:\/\/\S+)/)
    const workerEnv = {
      ...env,
      PG_URL: pgUrl,
      PG_SCHEMA: schema,
      WEB_PORT: String(webPort),
      CLOSED_PORT: String(closedPort),
      JOB_POLL_MS: '100',
      JOB_CONCURRENCY,
    }
    const ready = []
    const workerPids: number[] = []
    for (let i = 0; i < workers; i++) {
      const w = spawn(process.execPath, ['--import', 'tsx', workerScript], { env: workerEnv, stdio: ['ignore', 'pipe', 'inherit'] })
      children.push(w)
      workerPids.push(w.pid!)
      ready.push(waitFor(w, 'stdout', /ready/))
    }
    await Promise.all(ready)
    const headers = { 'x-api-key': key, 'content-type': 'application/json' }
    const urls = Array.from({ length: PAGES }, (_, i) => `http://site${i % HOSTS}.test:${webPort}/p/${i}`)
    const started = performance.now()
    const created = await fetch(`${base}/v1/scraping/jobs`, { method: 'POST', headers, body: JSON.stringify({ urls }) })
    const { id } = (await created.json()) as { id: number }
    for (;;) {
      await new Promise((r) => setTimeout(r, 250))
      const job = (await (await fetch(`${base}/v1/scraping/jobs/${id}?limit=1`, { headers })).json()) as { status: string }
      if (job.status === 'complete' || job.status === 'failed') break
    }
    const seconds = (performance.now() - started) / 1000
    // Read before the results are paged: that is the API's work, not the workers'.
    const workerCpuSeconds = workerPids.reduce((sum, pid) => sum + cpuSeconds(pid), 0)
    const workerPeakRssMb = Math.max(...workerPids.map(vmHwmMb))
    const errors = new Map<string, number>()
    for (let offset = 0; offset < PAGES; offset += 10_000) {
      const page = (await (await fetch(`${base}/v1/scraping/jobs/${id}?limit=10000&offset=${offset}`, { headers })).json()) as {
        status: string
        results: { errors: string[] }[]
      }
      if (page.status !== 'complete') throw new Error(`job ended ${page.status}`)
      for (const r of page.results) errors.set(r.errors.join('+') || 'none', (errors.get(r.errors.join('+') || 'none') ?? 0) + 1)
    }
    return {
      workers,
      seconds,
      pagesPerSecond: PAGES / seconds,
      workerCpuMsPerPage: (workerCpuSeconds * 1000) / PAGES,
      workerPeakRssMb,
      errors: Object.fromEntries([...errors].sort((a, b) => b[1] - a[1])),
    }
  } finally {
    for (const c of children) await stop(c)
  }
}

try {
  const probe = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 2000 })
  await probe.connect()
  await probe.end()
} catch {
  console.log('[PostgreSQL] not reachable: skipped (this benchmark needs it for several worker processes)')
  web.close()
  process.exit(0)
}

const results = []
for (const workers of WORKER_COUNTS) {
  const r = await crawl(workers)
  results.push(r)
  const rssOk = r.workerPeakRssMb <= WORKER_RSS_LIMIT_MB
  if (!rssOk) process.exitCode = 1
  console.log(
    `  ${workers} worker process${workers > 1 ? 'es' : ''}: ${PAGES} pages in ${r.seconds.toFixed(1)} s = ${r.pagesPerSecond.toFixed(1)} pages/s, worker CPU ${r.workerCpuMsPerPage.toFixed(1)} ms/page, worker peak RSS ${r.workerPeakRssMb.toFixed(0)} MB (limit ${WORKER_RSS_LIMIT_MB}: ${rssOk ? 'ok' : 'FAIL'})   (result codes: ${JSON.stringify(r.errors)})`,
  )
}
const one = results.find((r) => r.workers === 1)
const two = results.find((r) => r.workers === 2)
const ratio = one && two ? two.pagesPerSecond / one.pagesPerSecond : null
if (ratio !== null) console.log(`  ratio 2 workers / 1 worker: ${ratio.toFixed(2)} (2 cores shared by the workers, PostgreSQL, the API and the fixture web)`)
web.close()
const out = fileURLToPath(new URL('./results/', import.meta.url))
mkdirSync(out, { recursive: true })
writeFileSync(
  join(out, 'scrape-crawl.json'),
  JSON.stringify(
    { date: new Date().toISOString(), pages: PAGES, hosts: HOSTS, hostDelayMs: Number(HOST_DELAY_MS), workerRssLimitMb: WORKER_RSS_LIMIT_MB, results, ratio },
    null,
    2,
  ),
)
