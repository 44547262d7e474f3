import { mkdtempSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { openPglite } from '../../src/platform/db/pglite.ts'
import { createKey } from '../../src/platform/keys/keys.ts'
import type { Served } from '../helpers/cli.ts'
import { runCli, serve } from '../helpers/cli.ts'
import type { TestDb } from '../helpers/db.ts'
import { openTestDb, postgresAvailable } from '../helpers/db.ts'

/**
 * The collector's loss bounds, shown on `curata serve` as a child process under a steady stream of
 * hits: after SIGTERM every acknowledged hit (a 200 with the GIF) is stored; after SIGKILL at most
 * the hits of one flush interval (plus the one write in flight) are missing.
 */
const FLUSH_MS = 100

interface Load {
  /** Acknowledged hits so far, with the time each was acknowledged. */
  acks: number[]
  /** Resolves when every connection has given up (the server is gone). */
  done: Promise<void>
}

/** `connections` keep-alive loops hitting `url` until the server stops answering. */
function hammer(url: string, connections: number): Load {
  const agent = new Agent({ keepAlive: true, maxSockets: connections })
  const acks: number[] = []
  const once = () =>
    new Promise<boolean>((resolve) => {
      const req = request(
        url,
        { agent, headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0', 'accept-language': 'en' } },
        (res) => {
          const ok = res.statusCode === 200
          res.resume()
          res.on('end', () => {
            if (ok) acks.push(performance.now())
            resolve(true)
          })
          res.on('error', () => resolve(false))
        },
      )
      req.on('error', () => resolve(false))
      req.end()
    })
  const loop = async () => {
    while (await once());
  }
  const done = Promise.all(Array.from({ length: connections }, loop)).then(() => agent.destroy())
  return { acks, done }
}

async function createCampaign(s: Served, env: Record<string, string>): Promise<number> {
  const created = await runCli(['keys', 'create', '--name', 'durability', '--json'], env)
  const key = (JSON.parse(created.stdout) as { api_key: string }).api_key
  const res = await fetch(`${s.url}/v1/pixel/campaigns`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'durability', use_case: 'publisher_bot_detection' }),
  })
  expect(res.status).toBe(201)
  return ((await res.json()) as { id: number }).id
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** pixel_batch_write_seconds: cumulative count per bucket bound (seconds). */
function writeBuckets(metrics: string): [number, number][] {
  return [...metrics.matchAll(/pixel_batch_write_seconds_bucket\{le="([\d.]+|\+Inf)"\} (\d+)/g)].map((m) => [Number(m[1]), Number(m[2])])
}

/** nodejs_eventloop_lag_max_seconds in ms: the longest event-loop stall since the previous scrape. */
function maxLagMs(metrics: string): number {
  const m = /^nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(metrics)
  return m ? Number(m[1]) * 1000 : 0
}

/** The smallest bucket bound (ms) holding every write made between two snapshots. */
function slowestWrite(before: [number, number][], after: [number, number][]): number {
  const total = after.at(-1)![1] - before.at(-1)![1]
  for (const [i, [le, n]] of after.entries()) if (n - before[i]![1] === total) return le * 1000
  return Infinity
}

/** Hits acknowledged per second over the last `windowMs` before `at`. */
function rateBefore(acks: number[], at: number, windowMs = 500): number {
  return (acks.filter((t) => t <= at && t > at - windowMs).length * 1000) / windowMs
}

/**
 * Serves `roles`, hammers one campaign's pixel, then sends `signal`. The campaign comes from
 * `campaign` (given the server, when the API role runs) or already exists.
 */
async function runUntil(
  signal: 'SIGTERM' | 'SIGKILL',
  roles: string,
  env: Record<string, string>,
  campaign: (s: Served) => Promise<number>,
  count: (id: number) => Promise<number>,
) {
  const s = await serve(['--role', roles], { ...env, PIXEL_FLUSH_MS: String(FLUSH_MS), PIXEL_IP_RATE: '0' })
  try {
    const id = await campaign(s)
    const load = hammer(`${s.url}/px/${id}.gif`, 8)
    const metrics = async () => (await fetch(`${s.url}/metrics`)).text()
    await sleep(500) // warm-up: its writes (first compilations) do not count towards the bound
    const warm = writeBuckets(await metrics()) // the scrape also restarts the event-loop lag's window
    await sleep(1000)
    const measured = await metrics()
    const slowestWriteMs = slowestWrite(warm, writeBuckets(measured))
    // A busy loop fires the flush timer late by up to its longest stall: the interval stretches by it.
    const lagMs = maxLagMs(measured)
    const killedAt = performance.now()
    s.child.kill(signal)
    const code = await s.exited
    await load.done
    const acked = load.acks.length
    return { code, acked, stored: await count(id), acks: load.acks, killedAt, rate: rateBefore(load.acks, killedAt), slowestWriteMs, lagMs }
  } finally {
    s.child.kill('SIGKILL')
  }
}

describe('collector loss bounds, curata serve as a process [pglite]', () => {
  it('SIGTERM: every acknowledged hit is stored', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'curata-px-'))
    const env = { DATA_DIR: dataDir }
    const r = await runUntil(
      'SIGTERM',
      'api,collector',
      env,
      (s) => createCampaign(s, env),
      async (id) => {
        const db = await openPglite({ dataDir: join(dataDir, 'pgdata') })
        try {
          return (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM pixel_events WHERE campaign_id = $1', [id])).rows[0]!.n
        } finally {
          await db.close()
        }
      },
    )
    expect(r.code).toBe(0)
    expect(r.acked).toBeGreaterThan(100)
    expect(r.stored).toBe(r.acked)
  })
})

describe.skipIf(!postgresAvailable())('collector loss bounds, curata serve as a process [postgres]', () => {
  let t: TestDb
  beforeAll(async () => {
    t = await openTestDb('postgres')
  })
  afterAll(() => t?.close())
  const env = () => ({ DATABASE_URL: `${t.url}?options=${encodeURIComponent(`-c search_path=${t.schema}`)}` })
  const count = async (id: number) => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM pixel_events WHERE campaign_id = $1', [id])).rows[0]!.n
  // The collector role alone: the campaign is created beforehand, and picked up at start.
  const campaign = async () => {
    const k = await createKey(t.db, { name: 'durability', now: new Date() })
    const { rows } = await t.db.query<{ id: number }>(
      `INSERT INTO pixel_campaigns (client_id, name, use_case, created_date, last_updated_date)
       VALUES ($1, 'durability', 'publisher_bot_detection', now(), now()) RETURNING id`,
      [k.client_id],
    )
    return rows[0]!.id
  }

  it('SIGTERM: every acknowledged hit is stored (collector role alone)', async () => {
    const r = await runUntil('SIGTERM', 'collector', env(), campaign, count)
    expect(r.code).toBe(0)
    expect(r.acked).toBeGreaterThan(100)
    expect(r.stored).toBe(r.acked)
  })

  it('SIGKILL: at most one flush interval of hits (plus the write in flight) is lost', async () => {
    const r = await runUntil('SIGKILL', 'collector', env(), campaign, count)
    const lost = r.acked - r.stored
    // The hits acknowledged in the last flush interval before the kill, counted (a burst counts in
    // full), and those acknowledged after it (answers on their way when the process died); the
    // interval is the timer's plus the longest event-loop stall seen, by which a loaded process fires
    // it late, plus the write in flight: as long as the slowest write seen (a few ms when idle).
    const windowMs = FLUSH_MS + r.lagMs + r.slowestWriteMs
    const bound = r.acks.filter((t) => t > r.killedAt - windowMs).length
    console.log(
      `SIGKILL: acknowledged ${r.acked}, stored ${r.stored}, lost ${lost}, rate ${r.rate}/s, slowest write ≤ ${r.slowestWriteMs} ms, longest stall ${r.lagMs.toFixed(1)} ms, bound ${bound}`,
    )
    expect(r.acked).toBeGreaterThan(100)
    expect(lost).toBeGreaterThanOrEqual(0)
    expect(lost).toBeLessThanOrEqual(bound)
  })
})
