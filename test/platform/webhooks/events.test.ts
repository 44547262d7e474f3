// Every event type, produced by the real state changes (jobs run by a worker; the failure paths by
// the handlers' onFailed, as the worker calls it when a job fails for good), arrives once per state
// change per subscription, and only at the subscriptions of the record's client.
import { Webhook as Verifier } from 'standardwebhooks'
import { afterAll, beforeAll, expect, it } from 'vitest'

import { runLifecycle } from '../../../src/activation/lifecycle.ts'
import { jobHandlers } from '../../../src/features.ts'
import type { JobKind, JobPayloads } from '../../../src/platform/jobs/kinds.ts'
import type { Worker } from '../../../src/platform/jobs/worker.ts'
import { createWorker } from '../../../src/platform/jobs/worker.ts'
import { webhookEventTypes } from '../../../src/platform/webhooks/events.ts'
import { seedSegment } from '../../activation/seed.ts'
import type { TestApp } from '../../helpers/app.ts'
import { createTestApp, json, useScraper } from '../../helpers/app.ts'
import { ManualClock } from '../../helpers/clock.ts'
import { describeEachEngine } from '../../helpers/db.ts'
import { waitFor } from '../../helpers/wait.ts'
import type { Receiver } from './receiver.ts'
import { startReceiver } from './receiver.ts'

type Headers = Record<string, string>

describeEachEngine('webhook events from every state change', (getDb) => {
  const clock = new ManualClock('2026-11-22T10:00:00Z')
  let t: TestApp
  let worker: Worker | null = null
  let rx: Receiver
  let a: { clientId: number; headers: Headers }
  const secrets = new Map<string, string>()
  const ids: Record<string, number> = {}
  const allTypes = [...webhookEventTypes]

  beforeAll(async () => {
    t = await createTestApp(getDb().db, {
      clock,
      config: { rateLimitPerMinute: 1_000_000, activation: { connector: 'sandbox', sandboxKnownConnectionSeconds: 5, sandboxNewConnectionSeconds: 30 } },
    })
    await useScraper(t.ctx, {
      fetcher: {
        retries: 0,
        resolver: async (host) => {
          throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' })
        },
      },
      adsTxtPorts: { https: 9, http: 9 },
    })
    rx = await startReceiver()
    a = await t.client('a')
    const b = await t.client('b')
    for (const [who, path] of [
      [a, '/a1'],
      [a, '/a2'],
      [b, '/b'],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: who.headers, payload: { url: `${rx.url}${path}`, event_types: allTypes } })
      expect(res.statusCode, res.body).toBe(201)
      secrets.set(path, json<{ secret: string }>(res).secret)
    }
  })
  afterAll(async () => {
    await worker?.stop()
    await rx?.close()
    await t?.close()
  })

  const post = async (url: string, payload: object): Promise<number> => {
    const res = await t.app.inject({ method: 'POST', url, headers: a.headers, payload })
    expect(res.statusCode, `${url} ${res.body}`).toBe(201)
    return json<{ id: number }>(res).id
  }
  const get = async (url: string) => json<Record<string, unknown>>(await t.app.inject({ method: 'GET', url, headers: a.headers }))

  /** Fails a record's job for good, as the worker does after the last attempt: its queue rows go, onFailed runs. */
  async function failForGood<K extends JobKind>(kind: K, payload: JobPayloads[K], match: object = payload as object): Promise<void> {
    const handler = jobHandlers(t.ctx as never).find((h) => h.kind === kind)!
    await getDb().db.transaction(async (tx) => {
      await tx.query(`DELETE FROM jobs WHERE kind LIKE $1 AND payload @> $2::jsonb`, [`${kind.split('.')[0]}.%`, JSON.stringify(match)])
      await handler.onFailed!(payload as never, 'failed on purpose', tx)
    })
  }

  it('creates the records, fails half of them for good and completes the rest', async () => {
    const db = getDb().db
    ids.jobOk = await post('/v1/scraping/jobs', { urls: ['not a url at all'] })
    ids.jobFailed = await post('/v1/scraping/jobs', { urls: ['neither is this'] })
    await failForGood('scrape.chunk', { job_id: ids.jobFailed, chunk_no: 0 }, { job_id: ids.jobFailed })

    ids.segOk = await post('/v1/curation/segment-requests', { name: 'Cooking', prompt: 'home cooking recipes and kitchen tips' })
    ids.segFailed = await post('/v1/curation/segment-requests', { name: 'Cars', prompt: 'electric cars and charging' })
    await failForGood('curation.build', { clientId: a.clientId, segmentId: ids.segFailed })

    const seeded = await seedSegment(db, a.clientId)
    ids.optOk = await post('/v1/curation/optimizations', { segment_id: seeded, block: { domains: ['news.example.com'] } })
    ids.optFailed = await post('/v1/curation/optimizations', { segment_id: seeded, block: { keywords: ['never'] } })
    await failForGood('curation.optimize', { clientId: a.clientId, optimizationId: ids.optFailed })

    const activation = { segment_ids: [seeded], dsp: 'the-trade-desk', buyer_seat: 'seat-1' }
    ids.actOk = await post('/v1/curation/activations', activation)
    ids.actFailed = await post('/v1/curation/activations', { ...activation, buyer_seat: 'seat-2' })
    await failForGood('activation.issue', { id: ids.actFailed })

    const campaign = await post('/v1/pixel/campaigns', { name: 'Property', use_case: 'publisher_bot_detection' })
    const range = { start_date: '2026-11-20', end_date: '2026-11-21' }
    ids.pubOk = await post('/v1/pixel/reports/publisher', { campaign_id: campaign, ...range })
    ids.pubFailed = await post('/v1/pixel/reports/publisher', { campaign_id: campaign, ...range })
    await failForGood('pixel.publisher_report', { clientId: a.clientId, reportId: ids.pubFailed })

    ids.perfOk = await post('/v1/curation/reports', { segment_ids: [seeded], ...range })
    ids.perfFailed = await post('/v1/curation/reports', { segment_ids: [seeded], ...range })
    await failForGood('curation.segment_report', { clientId: a.clientId, reportId: ids.perfFailed })

    worker = createWorker({ db, clock, handlers: jobHandlers(t.ctx as never).filter((h) => !h.everyMs), pollMs: 20, graceMs: 500 })
    await worker.start()
    await waitFor(async () => (await get(`/v1/scraping/jobs/${ids.jobOk}`)).status === 'complete', 20_000, 'the scrape job')
    await waitFor(async () => (await get(`/v1/curation/segment-requests/${ids.segOk}`)).status === 'complete', 30_000, 'the segment build')
    await waitFor(async () => (await get(`/v1/curation/optimizations/${ids.optOk}`)).outcome === 'applied', 20_000, 'the optimization')
    await waitFor(async () => (await get(`/v1/pixel/reports/publisher/${ids.pubOk}`)).status === 'complete', 20_000, 'the publisher report')
    await waitFor(async () => (await get(`/v1/curation/reports/${ids.perfOk}`)).status === 'complete', 20_000, 'the performance report')
    await waitFor(async () => (await get(`/v1/curation/activations/${ids.actOk}`)).estimated_ready_date != null, 20_000, 'the deal to be issued')
    clock.advance(30_000)
    await waitFor(async () => (await get(`/v1/curation/activations/${ids.actOk}`)).status === 'complete', 20_000, 'the activation')
    // Deliveries settle before the clock jumps: a jump past running jobs' leases would hand them to
    // another claim (at-least-once, but this test counts exact deliveries).
    const pending = async () => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending'`)).rows[0]!.n
    await waitFor(async () => (await pending()) === 0, 20_000, 'deliveries to settle')
    // Unused for more than 14 days: the lifecycle shuts the deal down.
    clock.advance(15 * 24 * 3_600_000)
    expect(await runLifecycle(t.ctx)).toEqual({ ended: 0, shutDown: 1 })
    expect(await runLifecycle(t.ctx)).toEqual({ ended: 0, shutDown: 0 })
  })

  it('delivers each event type once to each of the client’s subscriptions, signed, and none to another client', async () => {
    await waitFor(() => rx.received.length >= allTypes.length * 2, 30_000, `${allTypes.length * 2} deliveries (got ${rx.received.length})`)
    await new Promise((r) => setTimeout(r, 500))
    expect(rx.received.filter((r) => r.path === '/b')).toEqual([])
    for (const path of ['/a1', '/a2']) {
      const mine = rx.received.filter((r) => r.path === path)
      const types = mine.map((r) => new Verifier(secrets.get(path)!).verify(r.body, r.headers) as { type: string }).map((e) => e.type)
      expect(types.sort(), path).toEqual([...allTypes].sort())
    }
    expect(new Set(rx.received.map((r) => r.headers['webhook-id'])).size).toBe(rx.received.length)
  })

  it('carries each resource as its GET returns it (a job’s results linked, not inlined)', async () => {
    const events = new Map(
      rx.received
        .filter((r) => r.path === '/a1')
        .map((r) => JSON.parse(r.body) as { type: string; timestamp: string; data: Record<string, unknown> })
        .map((e) => [e.type, e]),
    )
    const data = (type: string) => events.get(type)!.data
    expect(data('scrape_job.completed')).toMatchObject({
      id: ids.jobOk,
      status: 'complete',
      results: null,
      results_url: `/v1/scraping/jobs/${ids.jobOk}/export`,
    })
    expect(data('scrape_job.failed')).toMatchObject({ id: ids.jobFailed, status: 'failed' })
    expect(data('segment.completed')).toEqual(await get(`/v1/curation/segment-requests/${ids.segOk}`))
    expect(data('segment.failed')).toEqual(await get(`/v1/curation/segment-requests/${ids.segFailed}`))
    expect(data('optimization.applied')).toEqual(await get(`/v1/curation/optimizations/${ids.optOk}`))
    expect(data('optimization.failed')).toEqual(await get(`/v1/curation/optimizations/${ids.optFailed}`))
    expect(data('activation.completed')).toMatchObject({ id: ids.actOk, status: 'complete' })
    expect(data('activation.failed')).toEqual(await get(`/v1/curation/activations/${ids.actFailed}`))
    expect(data('deal.stopped')).toEqual(await get(`/v1/curation/activations/${ids.actOk}`))
    expect(data('publisher_report.completed')).toEqual(await get(`/v1/pixel/reports/publisher/${ids.pubOk}`))
    expect(data('publisher_report.failed')).toEqual(await get(`/v1/pixel/reports/publisher/${ids.pubFailed}`))
    expect(data('performance_report.completed')).toEqual(await get(`/v1/curation/reports/${ids.perfOk}`))
    expect(data('performance_report.failed')).toEqual(await get(`/v1/curation/reports/${ids.perfFailed}`))
    expect(events.get('deal.stopped')!.timestamp).toBe(clock.now().toISOString())
  })
})
