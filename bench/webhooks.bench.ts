// Webhook delivery under a steady 200 events/s: `curata serve` (api + worker roles) in its own
// process, one subscription to a loopback receiver in this process, and events emitted through the
// outbox by POST /v1/webhooks/{id}/test (one transaction each, like a state change) at a fixed rate
// for 20 s. Measured: enqueue (the POST answered) to delivery (the receiver got it), p50/p95/max,
// and whether delivery keeps up (all delivered, the backlog drains). Issue 18: p95 ≤ 2 s. Baseline
// in the same run: the same receiver POSTed directly from here at the same rate.
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

import { loadConfig } from '../src/platform/config.ts'
import { migrate } from '../src/platform/db/migrate.ts'
import { openDatabase } from '../src/platform/db/open.ts'
import { createKey } from '../src/platform/keys/keys.ts'
import { curataBin, freshPgSchema } from './lib/curata.ts'

const RATE = Number(process.env.BENCH_EVENTS_PER_SECOND ?? 200)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20)
const LIMIT_P95_MS = 2000

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN
}

async function receiver() {
  const arrivals = new Map<string, number>()
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (d: Buffer) => (body += d.toString()))
    req.on('end', () => {
      const id = (req.headers['webhook-id'] as string | undefined) ?? (req.headers['x-probe'] as string)
      if (!arrivals.has(id)) arrivals.set(id, performance.now())
      res.end('ok')
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, arrivals, close: () => server.close() }
}

/** Calls fn(i) RATE times a second for SECONDS, without waiting for one call to start the next. */
async function paced(fn: (i: number) => Promise<void>): Promise<void> {
  const total = RATE * SECONDS
  const started = performance.now()
  const pending: Promise<void>[] = []
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / RATE
    const wait = due - performance.now()
    if (wait > 0) await new Promise((r) => setTimeout(r, wait))
    pending.push(fn(i))
  }
  await Promise.all(pending)
}

async function run(engine: string, extraEnv: Record<string, string>) {
  const rx = await receiver()
  const dataDir = mkdtempSync(join(tmpdir(), 'curata-bench-webhooks-'))
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    SCRAPE_ALLOW_PRIVATE: 'true',
    RATE_LIMIT_PER_MINUTE: '1000000',
    JOB_CONCURRENCY: process.env.JOB_CONCURRENCY ?? '16',
    JOB_POLL_MS: '100',
    ...extraEnv,
  } as Record<string, string>
  const { db, close } = await openDatabase(loadConfig(env))
  await migrate(db)
  const key = (await createKey(db, { name: 'bench', now: new Date() })).api_key
  await close()
  const server = spawn(process.execPath, [curataBin, 'serve', '--role', 'api,worker'], { env, stdio: ['ignore', 'pipe', 'pipe'] })
  try {
    const base = await new Promise<string>((resolve, reject) => {
      let err = ''
      const look = (d: Buffer) => {
        err += d.toString()
        const m = /listening on (http:\/\/\S+)/.exec(err)
        if (m) resolve(m[1]!)
      }
      server.stderr!.on('data', look)
      server.stdout!.on('data', look)
      server.on('exit', (code) => reject(new Error(`server exited ${code}:\n${err}`)))
    })
    const headers = { 'x-api-key': key, 'content-type': 'application/json' }
    const sub = (await (
      await fetch(`${base}/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: `${rx.url}/hook`, event_types: ['deal.stopped'] }) })
    ).json()) as { id: number }
    const enqueued = new Map<string, number>()
    let errors = 0
    await paced(async () => {
      const res = await fetch(`${base}/v1/webhooks/${sub.id}/test`, { method: 'POST', headers: { 'x-api-key': key } })
      if (res.status !== 202) {
        errors++
        return
      }
      const d = (await res.json()) as { webhook_id: string }
      enqueued.set(d.webhook_id, performance.now())
    })
    const deadline = performance.now() + 60_000
    while (performance.now() < deadline && [...enqueued.keys()].some((id) => !rx.arrivals.has(id))) await new Promise((r) => setTimeout(r, 100))
    const latencies = [...enqueued].filter(([id]) => rx.arrivals.has(id)).map(([id, at]) => Math.max(0, rx.arrivals.get(id)! - at))
    // Baseline: the receiver straight from here, same rate.
    const sent = new Map<string, number>()
    await paced(async (i) => {
      const id = `probe-${i}`
      sent.set(id, performance.now())
      await fetch(`${rx.url}/probe`, { method: 'POST', headers: { 'x-probe': id }, body: '{}' })
    })
    const direct = [...sent].map(([id, at]) => rx.arrivals.get(id)! - at)
    return {
      engine,
      events: RATE * SECONDS,
      enqueueErrors: errors,
      delivered: latencies.length,
      p50: pct(latencies, 50),
      p95: pct(latencies, 95),
      max: Math.max(...latencies),
      directP95: pct(direct, 95),
    }
  } finally {
    server.kill('SIGTERM')
    await new Promise((r) => server.on('exit', r))
    rx.close()
  }
}

console.log(`webhook delivery: ${RATE} events/s for ${SECONDS} s to a loopback receiver`)
const results = []
// BENCH_ENGINE=pglite or postgres runs one engine only.
const only = process.env.BENCH_ENGINE
const runs: [string, Record<string, string>][] = only === 'postgres' ? [] : [['embedded PGlite', {}]]
const pg = only === 'pglite' ? null : await freshPgSchema('bench_webhooks')
if (pg) runs.push(['PostgreSQL', { DATABASE_URL: pg }])
else if (only !== 'pglite') console.log('[PostgreSQL] not reachable: skipped')
for (const [engine, env] of runs) {
  const r = await run(engine, env)
  results.push(r)
  const ok = r.delivered === r.events && r.enqueueErrors === 0 && r.p95 <= LIMIT_P95_MS
  console.log(
    `  [${engine}] delivered ${r.delivered}/${r.events} (enqueue errors ${r.enqueueErrors}); enqueue → delivery p50 ${r.p50.toFixed(0)} ms, p95 ${r.p95.toFixed(0)} ms, max ${r.max.toFixed(0)} ms  ${ok ? 'ok' : `FAIL (limit p95 ${LIMIT_P95_MS} ms, all delivered)`}`,
  )
  console.log(`      baseline (direct POST to the receiver, same rate): p95 ${r.directP95.toFixed(1)} ms; ratio ${(r.p95 / r.directP95).toFixed(0)}x`)
  if (!ok) process.exitCode = 1
}
const out = fileURLToPath(new URL('./results/', import.meta.url))
mkdirSync(out, { recursive: true })
writeFileSync(join(out, 'webhooks.json'), JSON.stringify({ date: new Date().toISOString(), rate: RATE, seconds: SECONDS, runs: results }, null, 2))
