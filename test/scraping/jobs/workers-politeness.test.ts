import type { ChildProcess } from 'node:child_process'

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

// Two chunks (1,000 + 400 entries), so both workers crawl the one host at the same time.
const URLS = 1_400

/** Two worker processes sharing one PostgreSQL schema crawl one host: its limit holds for both together. */
describe.skipIf(!postgresAvailable())('per-host politeness across worker processes [postgres]', () => {
  let db: TestDb
  let t: TestApp
  let web: Web
  const children: ChildProcess[] = []
  beforeAll(async () => {
    db = await openTestDb('postgres')
    t = await createTestApp(db.db, { clock: systemClock })
    const page = '<!doctype html><html lang="en"><head><title>Short</title></head><body><p>A short page about cooking pasta.</p></body></html>'
    web = await startWeb({
      '/ads.txt': (_req, res) => void res.writeHead(200, { 'content-type': 'text/plain' }).end('ssp.com, 1, DIRECT\n'),
      '/robots.txt': (_req, res) => void res.writeHead(404).end(),
      // Slow enough that requests of the two workers overlap unless something keeps them apart.
      'one-host.test': (req, res) => void setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(page), 15),
    })
  })
  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL')
    await t.ctx.scraper.close()
    await t.close()
    await web.close()
    await db.close()
  })

  it('never has more than 2 requests in flight on the host, though each worker alone could have 2', { timeout: 240_000 }, async () => {
    const closed = await closedPort()
    const workers = [0, 1].map(() => {
      const w = spawnScrapeWorker({
        url: db.url!,
        schema: db.schema!,
        webPort: web.port,
        closedPort: closed,
        env: { JOB_POLL_MS: '50', JOB_CONCURRENCY: '2' },
      })
      children.push(w.child)
      return w
    })
    await waitFor(async () => workers.every((w) => w.output().includes('ready')), 60_000, 'both workers to start')

    const { headers } = await t.client()
    const urls = Array.from({ length: URLS }, (_, i) => web.at('one-host.test', `/article/${i}`))
    const created = await t.app.inject({ method: 'POST', url: '/v1/scraping/jobs', headers, payload: { urls } })
    expect(created.statusCode).toBe(201)
    const id = json<{ id: number }>(created).id
    // Both chunks must be running at once for the test to mean anything: each worker takes one.
    let bothBusy = false
    await waitFor(
      async () => {
        const { rows } = await db.db.query<{ running: number; status: string }>(
          `SELECT (SELECT count(*)::int FROM scrape_job_chunks WHERE job_id = $1 AND done_at IS NULL AND done_count > 0) AS running, status FROM scrape_jobs WHERE id = $1`,
          [id],
        )
        if (rows[0]!.running === 2) bothBusy = true
        return rows[0]!.status === 'complete'
      },
      180_000,
      'the job to complete',
    )
    for (const w of workers) w.child.kill('SIGTERM')

    expect(web.count('one-host.test', '/article/0') + web.count('one-host.test', `/article/${URLS - 1}`)).toBe(2)
    expect(web.hits.filter((h) => h.path.startsWith('/article/')).length).toBe(URLS)
    expect(bothBusy).toBe(true)
    expect(web.inFlight.max).toBeLessThanOrEqual(2)
  })
})
