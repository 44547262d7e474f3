import type { LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'
import type { Interpretation } from '../../src/content/topics/interpret-prompt.ts'

import { buildJob } from '../../src/curation/builder/build-segment.ts'
import { optimizeJob } from '../../src/curation/optimizations/apply.ts'
import { buildKind } from '../../src/curation/segments/repository.ts'
import type { CurationConfig } from '../../src/platform/config.ts'
import type { Db } from '../../src/platform/db/db.ts'
import { enqueue } from '../../src/platform/jobs/queue.ts'
import type { Worker } from '../../src/platform/jobs/worker.ts'
import { createWorker } from '../../src/platform/jobs/worker.ts'
import type { DeepPartial, TestApp } from '../helpers/app.ts'
import { configure, createTestApp, json, useScraper } from '../helpers/app.ts'
import { waitFor } from '../helpers/wait.ts'

export interface CurationTestApp extends TestApp {
  worker: Worker
  post(headers: Record<string, string>, url: string, payload: unknown): Promise<LightMyRequestResponse>
  get(headers: Record<string, string>, url: string): Promise<LightMyRequestResponse>
  /** Creates a segment request and waits until its build completes; returns the record. */
  build(headers: Record<string, string>, body: Record<string, unknown>): Promise<SegmentRecord>
  waitBuilt(headers: Record<string, string>, id: number): Promise<SegmentRecord>
  urls(headers: Record<string, string>, id: number, query?: string): Promise<UrlEntry[]>
  exclusions(headers: Record<string, string>, id: number): Promise<ExclusionEntry[]>
  /** Runs the build job again for a segment (a rebuild) and waits for it. */
  rebuild(clientId: number, id: number): Promise<void>
}

export interface SegmentRecord {
  id: number
  status: string
  processed_date: string | null
  processing_errors: { code: string; message: string; index?: number; url?: string; reason?: string }[] | null
  processing_warnings: { code: string; message: string; index?: number; url?: string; reason?: string }[] | null
  url_count: number | null
  taxonomy_id: number | null
  interpretation?: Interpretation | null
  [k: string]: unknown
}
export interface UrlEntry {
  rank: number
  url: string
  tld: string
  score: number
  taxonomy_id: number | null
  source: string
}
export interface ExclusionEntry {
  url: string
  tld: string
  reason: string
  detail: Record<string, unknown>
}

/**
 * A test app with curation settings for small indexes and a worker running builds and optimizations;
 * `opts.semantic` turns the sentence encoder on (ctx.encoder).
 */
export async function createCurationApp(db: Db, curation: DeepPartial<CurationConfig> = {}, opts: { semantic?: boolean } = {}): Promise<CurationTestApp> {
  const t = await createTestApp(db, {
    config: { rateLimitPerMinute: 100_000, scrape: { perHostDelayMs: 0, timeoutMs: 5000 }, ...(opts.semantic ? { semantic: { enabled: true } } : {}) },
  })
  configure(t.ctx, { curation: { minWords: 120, ...curation } })
  // Tests talk only to loopback: no DNS (fixture servers are reached by IP), no retries, and the
  // scraper's ads.txt look-ups go to a closed loopback port.
  await useScraper(t.ctx, {
    fetcher: {
      retries: 0,
      resolver: async (host) => {
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' })
      },
    },
    adsTxtPorts: { https: 9, http: 9 },
  })
  const worker = createWorker({
    db,
    clock: t.ctx.clock,
    handlers: [buildJob(t.ctx), optimizeJob(t.ctx)],
    pollMs: 20,
    graceMs: 500,
  })
  await worker.start()
  const post = (headers: Record<string, string>, url: string, payload: unknown) => t.app.inject({ method: 'POST', url, headers, payload: payload as object })
  const get = (headers: Record<string, string>, url: string) => t.app.inject({ method: 'GET', url, headers })
  const waitBuilt = async (headers: Record<string, string>, id: number): Promise<SegmentRecord> => {
    let rec: SegmentRecord | null = null
    await waitFor(
      async () => {
        rec = json<SegmentRecord>(await get(headers, `/v1/curation/segment-requests/${id}`))
        return rec.processed_date !== null
      },
      30_000,
      `segment ${id} to be built`,
    )
    return rec!
  }
  return {
    ...t,
    worker,
    post,
    get,
    waitBuilt,
    async build(headers, body) {
      const res = await post(headers, '/v1/curation/segment-requests', body)
      expect(res.statusCode, res.body).toBe(201)
      return waitBuilt(headers, json<{ id: number }>(res).id)
    },
    async urls(headers, id, query = 'limit=10000') {
      const res = await get(headers, `/v1/curation/segment-requests/${id}/urls?${query}`)
      expect(res.statusCode, res.body).toBe(200)
      return json<{ urls: UrlEntry[] }>(res).urls
    },
    async exclusions(headers, id) {
      const res = await get(headers, `/v1/curation/segment-requests/${id}/exclusions?limit=10000`)
      expect(res.statusCode, res.body).toBe(200)
      return json<{ exclusions: ExclusionEntry[] }>(res).exclusions
    },
    async rebuild(clientId, id) {
      const job = await enqueue(db, buildKind, { segmentId: id, clientId }, { now: t.ctx.clock.now() })
      await waitFor(
        async () => (await db.query<{ status: string }>('SELECT status FROM jobs WHERE id = $1', [job])).rows[0]?.status === 'done',
        30_000,
        `rebuild of ${id}`,
      )
    },
    async close() {
      await worker.stop()
      await t.close()
    },
  }
}
