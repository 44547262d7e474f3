// The whole service on a listening server (API, collector with clicks) and a worker running
// activations and segment reports, on a manual clock: what attribution tests need end to end.
import type { LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'

import { activationJobs } from '../../src/activation/jobs.ts'
import type { ServiceContext } from '../../src/context.ts'
import { segmentReportJob } from '../../src/curation/reports/job.ts'
import { apiFeatures } from '../../src/features.ts'
import { collectorFeature } from '../../src/pixel/collector/feature.ts'
import type { Db } from '../../src/platform/db/db.ts'
import type { App } from '../../src/platform/http/app.ts'
import { buildApp } from '../../src/platform/http/app.ts'
import type { Worker } from '../../src/platform/jobs/worker.ts'
import { createWorker } from '../../src/platform/jobs/worker.ts'
import { createKey } from '../../src/platform/keys/keys.ts'
import { testContext } from '../helpers/app.ts'
import type { ManualClock } from '../helpers/clock.ts'
import { waitFor } from '../helpers/wait.ts'
import type { RawResponse } from './helpers.ts'
import { send } from './helpers.ts'
import { UA } from './log-lines.ts'

type Headers = Record<string, string>
export type Act = Record<string, unknown> & { id: number; status: string; deal_id: string | null; deal_state: string | null }

export interface AttributionApp {
  app: App
  ctx: ServiceContext
  url: string
  worker: Worker
  client(): Promise<{ clientId: number; headers: Headers }>
  post(headers: Headers, url: string, payload: unknown, extra?: Headers): Promise<LightMyRequestResponse>
  get(headers: Headers, url: string): Promise<LightMyRequestResponse>
  /** A pixel campaign of this client (campaign_reporting). */
  campaign(headers: Headers): Promise<number>
  /** Activates segments through the sandbox SSP and waits until the deal is live. */
  activate(headers: Headers, segmentIds: number[]): Promise<Act>
  activation(headers: Headers, id: number): Promise<Act>
  /** One pixel load on the collector: `query` is the query string, `ua` the user agent. */
  hit(campaign: number | string, query: string, ua?: string): Promise<RawResponse>
  /** Waits until this many raw events are stored. */
  written(events: number): Promise<void>
  close(): Promise<void>
}

export async function startAttributionApp(db: Db, clock: ManualClock): Promise<AttributionApp> {
  const ctx = await testContext(db, {
    clock,
    config: {
      rateLimitPerMinute: 1_000_000,
      activation: { connector: 'sandbox', sandboxKnownConnectionSeconds: 5, sandboxNewConnectionSeconds: 30 },
      pixel: { flushMs: 20, ipRatePerSec: 0 },
    },
  })
  const app = await buildApp(ctx, { features: [...apiFeatures(), collectorFeature] })
  const url = await app.listen({ port: 0, host: '127.0.0.1' })
  const handlers = [...activationJobs(ctx).filter((h) => !h.everyMs), segmentReportJob(ctx)]
  const worker = createWorker({ db, clock, handlers, pollMs: 20, graceMs: 500 })
  await worker.start()
  const post = (headers: Headers, path: string, payload: unknown, extra: Headers = {}) =>
    app.inject({ method: 'POST', url: path, headers: { ...headers, ...extra }, payload: payload as object })
  const get = (headers: Headers, path: string) => app.inject({ method: 'GET', url: path, headers })
  const activation = async (headers: Headers, id: number) => JSON.parse((await get(headers, `/v1/curation/activations/${id}`)).body) as Act
  let n = 0
  return {
    app,
    ctx,
    url,
    worker,
    async client() {
      const k = await createKey(db, { name: `attribution-${++n}`, now: clock.now() })
      return { clientId: k.client_id, headers: { 'x-api-key': k.api_key } }
    },
    post,
    get,
    async campaign(headers) {
      const res = await post(headers, '/v1/pixel/campaigns', { name: 'Campaign', use_case: 'campaign_reporting' })
      expect(res.statusCode, res.body).toBe(201)
      return (JSON.parse(res.body) as { id: number }).id
    },
    async activate(headers, segmentIds) {
      const res = await post(headers, '/v1/curation/activations', { segment_ids: segmentIds, dsp: 'the-trade-desk', buyer_seat: 'seat-1' })
      expect(res.statusCode, res.body).toBe(201)
      const id = (JSON.parse(res.body) as Act).id
      await waitFor(async () => (await activation(headers, id)).estimated_ready_date != null, 15_000, `activation ${id} to be issued`)
      clock.advance(30_000)
      await waitFor(async () => (await activation(headers, id)).status === 'complete', 15_000, `activation ${id} to complete`)
      return activation(headers, id)
    },
    activation,
    hit: (campaign, query, ua = UA.chrome) => send(`${url}/px/${campaign}.gif?${query}`, { headers: { 'user-agent': ua } }),
    written: (events) =>
      waitFor(
        async () => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM pixel_events')).rows[0]!.n >= events,
        15_000,
        `${events} pixel events to be written`,
      ),
    async close() {
      await worker.stop()
      await app.close()
    },
  }
}
