import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { enqueue } from '../../src/platform/jobs/queue.ts'
import type { Service } from '../../src/service.ts'
import { startService } from '../../src/service.ts'
import { testConfig } from '../helpers/app.ts'
import type { TestDb } from '../helpers/db.ts'
import { openTestDb, postgresAvailable } from '../helpers/db.ts'
import { waitFor } from '../helpers/wait.ts'

/**
 * A worker-only process (`curata serve --role worker`) serves no API but still answers the
 * operations endpoints, so it can be probed and scraped in a scale-out.
 */
for (const engine of ['pglite', 'postgres'] as const) {
  describe.skipIf(engine === 'postgres' && !postgresAvailable())(`worker-only process [${engine}]`, () => {
    let pg: TestDb | null = null
    let service: Service
    beforeAll(async () => {
      let where: { databaseUrl: string | null; dataDir: string }
      if (engine === 'postgres') {
        pg = await openTestDb('postgres')
        const url = `${pg.url}?options=${encodeURIComponent(`-c search_path=${pg.schema}`)}`
        where = { databaseUrl: url, dataDir: './unused' }
      } else {
        where = { databaseUrl: null, dataDir: mkdtempSync(join(tmpdir(), 'curata-worker-')) }
      }
      service = await startService({
        config: testConfig({ ...where, host: '127.0.0.1', port: 1, metricsPort: 0, jobs: { pollMs: 50, leaseMs: 60_000, concurrency: 2 } }),
        roles: ['worker'],
        logger: pino({ level: 'silent' }),
      })
    })
    afterAll(async () => {
      await service?.stop()
      await pg?.close()
    })

    it('listens on METRICS_PORT (not PORT) with /healthz and /readyz, and no API', async () => {
      expect(service.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(service.url).not.toMatch(/:1$/)
      expect(await (await fetch(`${service.url}/healthz`)).json()).toEqual({ status: 'ok' })
      const ready = await fetch(`${service.url}/readyz`)
      expect(ready.status).toBe(200)
      expect(await ready.json()).toEqual({ status: 'ready', database: true, pending_migrations: [] })
      const doc = (await (await fetch(`${service.url}/v1/openapi.json`)).json()) as { paths: Record<string, unknown> }
      expect(Object.keys(doc.paths).filter((p) => p.startsWith('/v1/') || p.startsWith('/px'))).toEqual([])
      expect((await fetch(`${service.url}/px/1.gif`)).status).toBe(404)
    })

    it('exposes its queue depth and the durations of the jobs it ran', async () => {
      await enqueue(service.ctx.db, 'test.nobody-handles-this', {}, { now: new Date() })
      const metrics = async () => (await fetch(`${service.url}/metrics`)).text()
      expect(await metrics()).toContain('job_queue_depth{kind="test.nobody-handles-this",status="queued"} 1')
      // The periodic maintenance job runs as soon as a worker starts.
      await waitFor(
        async () => /job_duration_seconds_count\{kind="platform.maintenance",outcome="done"\} 1/.test(await metrics()),
        30_000,
        'the maintenance job to be measured',
      )
    })
  })
}
