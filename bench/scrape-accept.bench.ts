// Accepting a 1,000,000-URL scrape job: POST /v1/scraping/jobs to `curata serve --role api` in its own
// process, timed from the first byte sent to the 201, with the server's peak RSS (VmHWM). Baseline in
// the same run: the same body POSTed to a bare node:http server that only JSON.parses it. Runs on the
// embedded engine and, when reachable, on PostgreSQL (where it also times reading a results page
// near the start and near the end of the job, to show paging cost does not grow with the offset).

import type { ChildProcess } from 'node:child_process'
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

import pg from 'pg'

import { benchKey, curataBin, freshPgSchema } from './lib/curata.ts'

const N = Number(process.env.BENCH_URLS ?? 1_000_000)
// Acceptance limits (issue 3): a 1,000,000-URL job accepted within 30 s with peak RSS at most 1.5 GB.
const LIMIT_SECONDS = 30
const LIMIT_RSS_MB = 1536

/** Realistic article URLs: ~20,000 sites, dated paths and slugs (about 70 characters each). */
function makeBody(): string {
  const words = ['market', 'season', 'recipe', 'travel', 'review', 'guide', 'update', 'local', 'green', 'city', 'night', 'school']
  const urls: string[] = []
  for (let i = 0; i < N; i++) {
    const slug = `${words[i % 12]}-${words[(i >> 3) % 12]}-${words[(i >> 7) % 12]}-${i}`
    urls.push(`https://www.site${i % 20_000}.example.com/2026/${1 + (i % 12)}/${slug}`)
  }
  return JSON.stringify({ urls })
}

function vmHwmMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return m ? Number(m[1]) / 1024 : NaN
}

function post(url: string, body: Buffer, headers: Record<string, string>): Promise<{ status: number; text: string; seconds: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(body.length), ...headers } }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (d: string) => (text += d))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, seconds: (performance.now() - started) / 1000 }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

async function get(url: string, headers: Record<string, string>): Promise<{ status: number; text: string; seconds: number }> {
  const started = performance.now()
  const res = await fetch(url, { headers })
  const text = await res.text()
  return { status: res.status, text, seconds: (performance.now() - started) / 1000 }
}

function waitListening(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let err = ''
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString()
      const m = pattern.exec(err)
      if (m) resolve(m[1]!)
    })
    child.stdout?.on('data', (d: Buffer) => {
      const m = pattern.exec(d.toString())
      if (m) resolve(m[1]!)
    })
    child.on('exit', (code) => reject(new Error(`server exited ${code}:\n${err}`)))
  })
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return
  child.kill('SIGTERM')
  await new Promise((r) => child.on('exit', r))
}

async function baseline(body: Buffer) {
  const script = `
    const http = require('node:http')
    http.createServer((req, res) => {
      let chunks = []
      req.on('data', (c) => chunks.push(c))
      req.on('end', () => {
        const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'))
        chunks = null
        res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ url_count: parsed.urls.length }))
      })
    }).listen(0, '127.0.0.1', function () { console.log('listening on http://127.0.0.1:' + this.address().port) })`
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] })
  const url = await waitListening(child, /listening on (http:\/\/\S+)/)
  const rssBefore = vmHwmMb(child.pid!)
  const res = await post(url, body, {})
  const peak = vmHwmMb(child.pid!)
  await stop(child)
  if (res.status !== 201) throw new Error(`baseline answered ${res.status}`)
  return { seconds: res.seconds, peakRssMb: peak, idleRssMb: rssBefore }
}

async function curata(engine: string, body: Buffer, extraEnv: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'curata-bench-accept-'))
  const env = { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...extraEnv }
  const key = await benchKey(env)
  const server = spawn(process.execPath, [curataBin, 'serve', '--role', 'api'], { env, stdio: ['ignore', 'ignore', 'pipe'] })
  try {
    const base = await waitListening(server, /listening on (http:\/\/\S+)/)
    const headers = { 'x-api-key': key }
    const idle = vmHwmMb(server.pid!)
    const res = await post(`${base}/v1/scraping/jobs`, body, headers)
    const peak = vmHwmMb(server.pid!)
    if (res.status !== 201) throw new Error(`POST answered ${res.status}: ${res.text.slice(0, 300)}`)
    const job = JSON.parse(res.text) as { id: number; url_count: number; status: string }
    const check = JSON.parse((await get(`${base}/v1/scraping/jobs/${job.id}`, headers)).text) as { url_count: number; status: string }
    if (check.url_count !== N || check.status !== 'pending') throw new Error(`unexpected job ${JSON.stringify(check)}`)
    let paging: { first: number; last: number } | null = null
    if (extraEnv.DATABASE_URL) {
      // Pretend the job ran (URLs not in the index read as E001) to time a results page at both ends.
      const c = new pg.Client({ connectionString: extraEnv.DATABASE_URL })
      await c.connect()
      await c.query(`UPDATE scrape_jobs SET status = 'complete', processed_date = now() WHERE id = $1`, [job.id])
      await c.end()
      const first = await get(`${base}/v1/scraping/jobs/${job.id}?offset=0&limit=10000`, headers)
      const last = await get(`${base}/v1/scraping/jobs/${job.id}?offset=${N - 10_000}&limit=10000`, headers)
      const count = (t: string) => (JSON.parse(t) as { results: unknown[] }).results.length
      if (count(first.text) !== 10_000 || count(last.text) !== 10_000) throw new Error('paging returned the wrong number of results')
      paging = { first: first.seconds, last: last.seconds }
    }
    return { engine, seconds: res.seconds, peakRssMb: peak, idleRssMb: idle, paging }
  } finally {
    await stop(server)
  }
}

const bodyText = makeBody()
const body = Buffer.from(bodyText)
console.log(`body: ${N.toLocaleString()} URLs, ${(body.length / 1e6).toFixed(1)} MB of JSON`)
const base = await baseline(body)
console.log(`  baseline (bare node:http + JSON.parse): ${base.seconds.toFixed(2)} s, peak RSS ${base.peakRssMb.toFixed(0)} MB`)
const results = []
const runs: [string, Record<string, string>][] = [['embedded PGlite', {}]]
const pgSchema = await freshPgSchema('bench_scrape_accept')
if (pgSchema) runs.push(['PostgreSQL', { DATABASE_URL: pgSchema }])
else console.log('[PostgreSQL] not reachable: skipped')
for (const [engine, env] of runs) {
  const r = await curata(engine, body, env)
  results.push(r)
  const over = [r.seconds > LIMIT_SECONDS && `time over ${LIMIT_SECONDS} s`, r.peakRssMb > LIMIT_RSS_MB && `peak RSS over ${LIMIT_RSS_MB} MB`].filter(Boolean)
  console.log(
    `  [${engine}] curata serve --role api: accepted in ${r.seconds.toFixed(2)} s (limit ${LIMIT_SECONDS}), peak RSS ${r.peakRssMb.toFixed(0)} MB (limit ${LIMIT_RSS_MB}; ${r.idleRssMb.toFixed(0)} MB before the request)  ${over.length ? `FAIL: ${over.join(', ')}` : 'ok'}`,
  )
  if (over.length) process.exitCode = 1
  console.log(`      ratio to baseline: time ${(r.seconds / base.seconds).toFixed(1)}x, peak RSS ${(r.peakRssMb / base.peakRssMb).toFixed(1)}x`)
  if (r.paging)
    console.log(
      `      results page of 10,000 at offset 0: ${r.paging.first.toFixed(2)} s; at offset ${(N - 10_000).toLocaleString()}: ${r.paging.last.toFixed(2)} s`,
    )
}
const out = fileURLToPath(new URL('./results/', import.meta.url))
mkdirSync(out, { recursive: true })
writeFileSync(
  join(out, 'scrape-accept.json'),
  JSON.stringify({ date: new Date().toISOString(), urls: N, bodyBytes: body.length, baseline: base, results }, null, 2),
)
