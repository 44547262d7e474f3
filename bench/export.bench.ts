// Streaming a 1,000,000-result scrape job as JSON Lines (GET /v1/scraping/jobs/{id}/export) from
// `curata serve --role api` in its own process: results per second to the last byte, and the
// server's RSS growth during the stream (sampled every 50 ms; issue 18: ≥ 50,000 results/s, growth
// ≤ 100 MB, on both engines). The job and its 1,000,000 indexed pages are seeded with SQL. Baseline
// in the same run: reading the same pages straight from the database (keyset SELECT of the
// result's columns, 10,000 rows a query), rows per second.
import type { ChildProcess } from 'node:child_process'
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

import { loadConfig } from '../src/platform/config.ts'
import { migrate } from '../src/platform/db/migrate.ts'
import { openDatabase } from '../src/platform/db/open.ts'
import { createKey } from '../src/platform/keys/keys.ts'
import { curataBin, freshPgSchema } from './lib/curata.ts'

const N = Number(process.env.BENCH_RESULTS ?? 1_000_000)
const CHUNK = 1000
const LIMIT_RATE = 50_000
const LIMIT_GROWTH_MB = 100

const vmRssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024

/** The job (complete), its chunks and its pages (fetched, ~600 bytes of text each), written with SQL. */
async function seed(env: Record<string, string>): Promise<{ jobId: number; apiKey: string; baselineRate: number }> {
  const { db, close } = await openDatabase(loadConfig(env))
  try {
    await migrate(db)
    const key = await createKey(db, { name: 'bench', now: new Date() })
    const clientId = key.client_id
    const started = performance.now()
    const text = 'Curata benchmark text about markets, recipes, travel and local news. '.repeat(9)
    for (let from = 0; from < N; from += 100_000) {
      await db.query(
        `INSERT INTO pages (url, tld, host, state, requested_at, fetched_at, http_status, content_type, title, full_text, language, word_count, metadata)
         SELECT 'https://www.site' || (i % 20000) || '.example.com/2026/a/' || i, 'com', 'www.site' || (i % 20000) || '.example.com', 'done',
                now(), now(), 200, 'text/html', 'Article ' || i, $3, 'en', 90, '{"http_status": 200}'::jsonb
           FROM generate_series($1::int, $2::int) AS i`,
        [from, Math.min(N, from + 100_000) - 1, text],
      )
    }
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO scrape_jobs (client_id, status, loading, submitted_count, url_count, invalid_count, chunk_count, chunks_done, created_date, processed_date)
       VALUES ($1, 'complete', false, $2, $2, 0, $3, $3, now(), now()) RETURNING id`,
      [clientId, N, Math.ceil(N / CHUNK)],
    )
    const jobId = rows[0]!.id
    for (let c = 0; c < N / CHUNK; c += 100) {
      await db.query(
        `INSERT INTO scrape_job_chunks (job_id, chunk_no, client_id, urls, done_count, done_at)
         SELECT $1, c, $2, ARRAY(SELECT 'https://www.site' || (i % 20000) || '.example.com/2026/a/' || i
                                   FROM generate_series(c * ${CHUNK}, c * ${CHUNK} + ${CHUNK - 1}) AS i ORDER BY i), ${CHUNK}, now()
           FROM generate_series($3::int, $4::int) AS c`,
        [jobId, clientId, c, Math.min(N / CHUNK, c + 100) - 1],
      )
    }
    await db.query('ANALYZE pages')
    console.log(`    seeded ${N.toLocaleString()} pages and the job in ${((performance.now() - started) / 1000).toFixed(1)} s`)
    // Baseline: the same rows read straight from the database.
    const t0 = performance.now()
    let n = 0
    for (let after = 0; ; ) {
      const r = await db.query<{ id: number }>(
        `SELECT id, url, tld, host, state, errors, fetched_at, final_url, http_status, content_type, title, full_text, language, word_count, metadata
           FROM pages WHERE id > $1 ORDER BY id LIMIT 10000`,
        [after],
      )
      if (!r.rows.length) break
      n += r.rows.length
      after = r.rows[r.rows.length - 1]!.id
    }
    return { jobId, apiKey: key.api_key, baselineRate: n / ((performance.now() - t0) / 1000) }
  } finally {
    await close()
  }
}

/** One whole export: results/s to the last byte, every line counted, RSS sampled every 50 ms. */
async function exportOnce(base: string, headers: Record<string, string>, jobId: number, pid: number) {
  const before = vmRssMb(pid)
  let peak = before
  const sampler = setInterval(() => (peak = Math.max(peak, vmRssMb(pid))), 50)
  const t0 = performance.now()
  const res = await fetch(`${base}/v1/scraping/jobs/${jobId}/export`, { headers })
  if (res.status !== 200) throw new Error(`export answered ${res.status}: ${await res.text()}`)
  let lines = 0
  let bytes = 0
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length
    // Every line counted (a native indexOf: the client's count should not eat the server's CPU).
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++
  }
  const seconds = (performance.now() - t0) / 1000
  clearInterval(sampler)
  if (lines !== N) throw new Error(`export returned ${lines} lines, expected ${N}`)
  return { seconds, rate: N / seconds, bytes, rssBeforeMb: before, rssPeakMb: peak, growthMb: peak - before }
}

function listening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let err = ''
    const look = (d: Buffer) => {
      err += d.toString()
      const m = /listening on (http:\/\/\S+)/.exec(err)
      if (m) resolve(m[1]!)
    }
    child.stderr!.on('data', look)
    child.stdout!.on('data', look)
    child.on('exit', (code) => reject(new Error(`server exited ${code}:\n${err}`)))
  })
}

async function run(engine: string, extraEnv: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'curata-bench-export-'))
  const env = { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...extraEnv } as Record<string, string>
  console.log(`  [${engine}]`)
  const { jobId, apiKey, baselineRate } = await seed(env)
  const server = spawn(process.execPath, [curataBin, 'serve', '--role', 'api'], { env, stdio: ['ignore', 'pipe', 'pipe'] })
  try {
    const base = await listening(server)
    const headers = { 'x-api-key': apiKey }
    // Warm up (route, statement plans), then measure from an idle server.
    await (await fetch(`${base}/v1/scraping/jobs/${jobId}/export?offset=${N - 2000}`, { headers })).text()
    await new Promise((r) => setTimeout(r, 500))
    // Two full exports: the first is the figure; the second shows whether memory keeps climbing.
    // (The embedded engine's buffer pool is not in the growth: its WebAssembly memory is already
    // resident when the server starts, and the export adds nothing to it.)
    const first = await exportOnce(base, headers, jobId, server.pid!)
    const second = await exportOnce(base, headers, jobId, server.pid!)
    return { engine, ...first, second, baselineRate }
  } finally {
    server.kill('SIGTERM')
    await new Promise((r) => server.on('exit', r))
  }
}

console.log(`JSON Lines export of a ${N.toLocaleString()}-result scrape job`)
const results = []
// BENCH_ENGINE=pglite or postgres runs one engine only (seeding 1,000,000 pages on PGlite takes minutes).
const only = process.env.BENCH_ENGINE
const runs: [string, Record<string, string>][] = only === 'postgres' ? [] : [['embedded PGlite', {}]]
const pg = only === 'pglite' ? null : await freshPgSchema('bench_export')
if (pg) runs.push(['PostgreSQL', { DATABASE_URL: pg }])
else if (only !== 'pglite') console.log('[PostgreSQL] not reachable: skipped')
for (const [engine, env] of runs) {
  const r = await run(engine, env)
  results.push(r)
  const fails = [r.rate < LIMIT_RATE && `rate under ${LIMIT_RATE}/s`, r.growthMb > LIMIT_GROWTH_MB && `RSS growth over ${LIMIT_GROWTH_MB} MB`].filter(Boolean)
  console.log(
    `    export: ${Math.round(r.rate).toLocaleString()} results/s (${r.seconds.toFixed(1)} s, ${(r.bytes / 1e6).toFixed(0)} MB), server RSS ${r.rssBeforeMb.toFixed(0)} → peak ${r.rssPeakMb.toFixed(0)} MB (growth ${r.growthMb.toFixed(0)} MB)  ${fails.length ? `FAIL: ${fails.join(', ')}` : 'ok'}`,
  )
  console.log(
    `    again: ${Math.round(r.second.rate).toLocaleString()} results/s, server RSS ${r.second.rssBeforeMb.toFixed(0)} → peak ${r.second.rssPeakMb.toFixed(0)} MB (growth ${r.second.growthMb.toFixed(0)} MB)`,
  )
  console.log(
    `    baseline (keyset SELECT of the pages, in-process): ${Math.round(r.baselineRate).toLocaleString()} rows/s; ratio ${(r.rate / r.baselineRate).toFixed(2)}`,
  )
  if (fails.length) process.exitCode = 1
}
const out = fileURLToPath(new URL('./results/', import.meta.url))
mkdirSync(out, { recursive: true })
writeFileSync(join(out, 'export.json'), JSON.stringify({ date: new Date().toISOString(), results: N, runs: results }, null, 2))
