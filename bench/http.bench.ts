// Authenticated GET /v1/snowball/campaigns against GET /healthz on the same server in the same run.
// The server is its own process (curata serve on a fresh embedded data dir); autocannon drives the
// load from this process, so load generation and serving do not share an event loop.
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

import autocannon from 'autocannon'

import { benchKey, curataBin, freshPgSchema } from './lib/curata.ts'

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)

async function load(url: string, headers: Record<string, string>) {
  const r = await autocannon({ url, connections, duration: seconds, headers })
  if (r.non2xx) throw new Error(`${r.non2xx} non-2xx answers from ${url}`)
  return { rps: r.requests.average, p99: r.latency.p99, p50: r.latency.p50 }
}

async function measure(engine: string, extraEnv: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'curata-bench-'))
  const env = { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '100000000', ...extraEnv }
  const key = await benchKey(env)
  const server = spawn(process.execPath, [curataBin, 'serve', '--role', 'api'], { env, stdio: ['ignore', 'ignore', 'pipe'] })
  let err = ''
  const base = await new Promise<string>((resolve, reject) => {
    server.stderr.on('data', (d: Buffer) => {
      err += d.toString()
      const m = /listening on (http:\/\/\S+)/.exec(err)
      if (m) resolve(m[1]!)
    })
    server.on('exit', () => reject(new Error(`server exited:\n${err}`)))
  })
  try {
    const headers = { 'x-api-key': key }
    for (let i = 0; i < 10; i++) {
      await fetch(`${base}/v1/snowball/campaigns`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ description: `campaign ${i}` }),
      })
    }
    await load(`${base}/healthz`, {}) // warm-up
    const health = await load(`${base}/healthz`, {})
    const campaigns = await load(`${base}/v1/snowball/campaigns`, headers)
    const ratio = campaigns.rps / health.rps
    console.log(`[${engine}] ${connections} connections, ${seconds} s each, curata serve --role api`)
    console.log(`  GET /healthz                      ${health.rps.toFixed(0).padStart(7)} req/s   p50 ${health.p50} ms   p99 ${health.p99} ms`)
    console.log(`  GET /v1/snowball/campaigns (auth) ${campaigns.rps.toFixed(0).padStart(7)} req/s   p50 ${campaigns.p50} ms   p99 ${campaigns.p99} ms`)
    console.log(`  ratio campaigns/healthz: ${ratio.toFixed(2)}`)
    return { engine, health, campaigns, ratio }
  } finally {
    server.kill('SIGTERM')
    await new Promise((r) => server.on('exit', r))
  }
}

const results = [await measure('embedded PGlite', {})]
const pgSchema = await freshPgSchema('bench_http')
if (pgSchema) results.push(await measure('PostgreSQL', { DATABASE_URL: pgSchema }))
else console.log('[PostgreSQL] not reachable: skipped')
const out = fileURLToPath(new URL('./results/', import.meta.url))
mkdirSync(out, { recursive: true })
writeFileSync(join(out, 'http.json'), JSON.stringify({ date: new Date().toISOString(), connections, seconds, results }, null, 2))
