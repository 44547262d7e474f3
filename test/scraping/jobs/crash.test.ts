import type { ChildProcess } from 'node:child_process'
import type { ServerResponse } from 'node:http'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { systemClock } from '../../../src/platform/clock.ts'
import type { TestApp } from '../../helpers/app.ts'
import { createTestApp, json } from '../../helpers/app.ts'
import type { TestDb } from '../../helpers/db.ts'
import { openTestDb, postgresAvailable } from '../../helpers/db.ts'
import { waitFor } from '../../helpers/wait.ts'
import { spawnScrapeWorker } from '../fixtures/spawn-scrape-worker.ts'
import { closedPort } from '../fixtures/web-server.ts'
import type { Web } from '../helpers.ts'
import { startWeb } from '../helpers.ts'

const HOSTS = 40
const URLS = 20_000

/** Workers as processes sharing one PostgreSQL schema; one is killed with SIGKILL mid-job. */
describe.skipIf(!postgresAvailable())('a scrape job survives a worker killed mid-job [postgres]', () => {
  let db: TestDb
  let t: TestApp
  let web: Web
  let closed = 0
  const children: ChildProcess[] = []
  beforeAll(async () => {
    db = await openTestDb('postgres')
    // The worker processes run on the system clock; job times must be on it too.
    t = await createTestApp(db.db, { clock: systemClock })
    // A small page keeps the test about crash safety rather than extraction speed.
    const page = '<!doctype html><html lang="en"><head><title>Short</title></head><body><p>A short page about cooking pasta.</p></body></html>'
    web = await startWeb({
      '/ads.txt': (_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('ssp.com, 1, DIRECT\n'),
    })
    // Every other path of every host is the same small article.
    const fallback = (_req: unknown, res: ServerResponse) => void res.writeHead(200, { 'content-type': 'text/html' }).end(page)
    for (let h = 0; h < HOSTS; h++) web.routes.set(`site${h}.test`, fallback)
    web.routes.set('/robots.txt', (_req, res) => void res.writeHead(404).end())
    closed = await closedPort()
  })
  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL')
    await t.ctx.scraper.close()
    await t.close()
    await web.close()
    await db.close()
  })

  function spawnWorker() {
    const w = spawnScrapeWorker({
      url: db.url!,
      schema: db.schema!,
      webPort: web.port,
      closedPort: closed,
      env: {
        JOB_LEASE_MS: '1500',
        JOB_POLL_MS: '50',
        JOB_CONCURRENCY: '4',
        // The killed worker's per-host leases lapse at this limit plus 10 s; keep that wait short.
        SCRAPE_TIMEOUT_MS: '10000',
      },
    })
    children.push(w.child)
    return w
  }
  const jobRow = async (id: number) =>
    (
      await db.db.query<{ status: string; chunks_done: number; chunk_count: number }>(
        'SELECT status, chunks_done, chunk_count FROM scrape_jobs WHERE id = $1',
        [id],
      )
    ).rows[0]!

  // About 30 s on a quiet 2-core machine; the timeout leaves room for a busy one.
  it('completes after a restart with exactly one result per URL', { timeout: 240_000 }, async () => {
    const { headers } = await t.client()
    const urls = Array.from({ length: URLS }, (_, i) => web.at(`site${i % HOSTS}.test`, `/article/${i}`))
    const created = await t.app.inject({ method: 'POST', url: '/v1/scraping/jobs', headers, payload: { urls } })
    expect(created.statusCode).toBe(201)
    const id = json<{ id: number }>(created).id

    const first = spawnWorker()
    await waitFor(async () => (await jobRow(id)).chunks_done >= 1, 90_000, 'the first worker to finish a chunk')
    first.child.kill('SIGKILL')
    await first.exited
    const atKill = await jobRow(id)
    expect(atKill.status).toBe('processing')
    expect(atKill.chunks_done).toBeLessThan(atKill.chunk_count)

    const second = spawnWorker()
    await waitFor(async () => (await jobRow(id)).status === 'complete', 120_000, 'the restarted worker to complete the job')
    second.child.kill('SIGTERM')
    expect(await second.exited).toBe(0)

    const done = await jobRow(id)
    expect(done).toEqual({ status: 'complete', chunks_done: URLS / 1000, chunk_count: URLS / 1000 })
    // Page through the results the spec's way: every URL exactly once, in submission order, fetched.
    const got: { url: string; errors: string[]; ads_txt: { status: string } | null }[] = []
    for (let offset = 0; ; ) {
      const page = json<{ results: typeof got }>(
        await t.app.inject({ method: 'GET', url: `/v1/scraping/jobs/${id}?limit=10000&offset=${offset}`, headers }),
      ).results
      got.push(...page)
      offset += page.length
      if (page.length < 10_000) break
    }
    expect(got.map((r) => r.url)).toEqual(urls)
    // Every URL fetched and read (the page is short: E004), none left as E001 or lost as E002.
    expect(got.filter((r) => r.errors.join() !== 'E004')).toEqual([])
    expect(got.every((r) => r.ads_txt?.status === 'found')).toBe(true)
    const { rows } = await db.db.query<{ n: number; fetched: number }>(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE state = 'done')::int AS fetched FROM pages WHERE url LIKE 'http://site%'`,
    )
    expect(rows[0]).toEqual({ n: URLS, fetched: URLS })
  })
})
