import { afterAll, beforeAll, expect, it } from 'vitest'

import { enqueue, queueDepth } from '../../../src/platform/jobs/queue.ts'
import { createWorker } from '../../../src/platform/jobs/worker.ts'
import { revokeKey } from '../../../src/platform/keys/keys.ts'
import type { TestApp } from '../../helpers/app.ts'
import { createTestApp, json } from '../../helpers/app.ts'
import { describeEachEngine } from '../../helpers/db.ts'
import { waitFor } from '../../helpers/wait.ts'

describeEachEngine('API keys and auth', (getDb) => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp(getDb().db)
  })
  afterAll(() => t.close())

  const get = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/v1/snowball/campaigns', headers })

  it.each([
    ['no key', {}],
    ['an unknown key', { 'x-api-key': `cur_${'A'.repeat(43)}` }],
    ['a malformed key', { 'x-api-key': 'hello' }],
    ['an empty key', { 'x-api-key': '' }],
    ['a non-bearer Authorization', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['a huge key', { 'x-api-key': 'k'.repeat(10_000) }],
  ])('answers 401 unauthorized to %s', async (_name, headers) => {
    const res = await get(headers as Record<string, string>)
    expect(res.statusCode).toBe(401)
    expect(json(res)).toMatchObject({ error: 'unauthorized' })
  })

  it('answers 401 for unknown /v1 routes without a key and 404 with one', async () => {
    const a = await t.client()
    expect((await t.app.inject({ method: 'GET', url: '/v1/nothing-here' })).statusCode).toBe(401)
    const res = await t.app.inject({ method: 'GET', url: '/v1/nothing-here', headers: a.headers })
    expect(res.statusCode).toBe(404)
    expect(json(res).error).toBe('not_found')
  })

  it('refuses a revoked key at once', async () => {
    const a = await t.client()
    expect((await get(a.headers)).statusCode).toBe(200)
    const { rows } = await getDb().db.query<{ id: number }>('SELECT id FROM api_keys WHERE client_id = $1', [a.clientId])
    await revokeKey(getDb().db, rows[0]!.id, new Date())
    expect((await get(a.headers)).statusCode).toBe(401)
  })

  it('stores keys only as hashes', async () => {
    const a = await t.client()
    const { rows } = await getDb().db.query<Record<string, unknown>>('SELECT * FROM api_keys WHERE client_id = $1', [a.clientId])
    expect(JSON.stringify(rows)).not.toContain(a.key)
    expect(JSON.stringify(rows)).toContain(a.key.slice(0, 12))
  })

  it('serves the OpenAPI document, health and readiness without a key', async () => {
    const doc = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })
    expect(doc.statusCode).toBe(200)
    expect(json(doc).openapi).toBe('3.1.0')
    expect(Object.keys(json<{ paths: object }>(doc).paths)).toContain('/v1/snowball/campaigns')
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200)
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' })
    expect(json(ready)).toEqual({ status: 'ready', database: true, pending_migrations: [] })
    expect((await t.app.inject({ method: 'GET', url: '/docs' })).statusCode).toBeLessThan(400)
  })

  it('answers 405 with Allow for a known path and a wrong method', async () => {
    const a = await t.client()
    const res = await t.app.inject({ method: 'DELETE', url: '/v1/snowball/campaigns', headers: a.headers })
    expect(res.statusCode).toBe(405)
    expect(res.headers.allow).toBe('GET, POST')
    expect(json(res).error).toBe('method_not_allowed')
  })

  it('exposes Prometheus metrics: requests by route and status, queue depth by kind, job durations', async () => {
    const a = await t.client()
    await get(a.headers)
    const now = t.ctx.clock.now()
    await enqueue(getDb().db, 'test.metrics', {}, { now })
    await enqueue(getDb().db, 'test.metrics', {}, { now })
    const scrape = async () => (await t.app.inject({ method: 'GET', url: '/metrics' })).body
    const before = await scrape()
    expect(before).toMatch(/http_requests_total\{route="\/v1\/snowball\/campaigns",method="GET",status="200"\} [1-9]/)
    expect(before).toMatch(/http_request_duration_seconds_count\{route="\/v1\/snowball\/campaigns",method="GET"\} [1-9]/)
    expect(before).toContain('job_queue_depth{kind="test.metrics",status="queued"} 2')
    expect(before).not.toContain('job_duration_seconds_count{kind="test.metrics"')

    // A worker reporting into the same metrics, as `curata serve` wires it.
    const worker = createWorker({
      db: getDb().db,
      clock: t.ctx.clock,
      handlers: [{ kind: 'test.metrics', run: async () => {} }],
      pollMs: 20,
      onJobDone: t.ctx.metrics.observeJob,
    })
    void worker.start()
    try {
      await waitFor(async () => (await queueDepth(getDb().db)).every((r) => r.kind !== 'test.metrics'), 20_000, 'test jobs to run')
      await waitFor(async () => (await scrape()).includes('job_duration_seconds_count{kind="test.metrics",outcome="done"} 2'), 5_000, 'job durations')
    } finally {
      await worker.stop()
    }
    const after = await scrape()
    expect(after).not.toContain('job_queue_depth{kind="test.metrics"')
    expect(after).toMatch(/job_duration_seconds_bucket\{le="\+Inf",kind="test.metrics",outcome="done"\} 2/)
  })
})
