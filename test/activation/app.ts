import type { LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'

import { activationJobs } from '../../src/activation/jobs.ts'
import type { Db } from '../../src/platform/db/db.ts'
import type { Worker } from '../../src/platform/jobs/worker.ts'
import { createWorker } from '../../src/platform/jobs/worker.ts'
import type { TestApp } from '../helpers/app.ts'
import { createTestApp, json } from '../helpers/app.ts'
import type { ManualClock } from '../helpers/clock.ts'
import { waitFor } from '../helpers/wait.ts'

export type Act = Record<string, unknown> & { id: number; status: string; deal_id: string | null; failure_reason: string | null }
type Headers = Record<string, string>

export interface JobState {
  attempts: number
  status: string
  last_error: string | null
}

export interface ActivationTestApp extends TestApp {
  worker: Worker
  post(headers: Headers, body: unknown): Promise<LightMyRequestResponse>
  get(headers: Headers, id: number): Promise<Act>
  /** Waits until the SSP connector has issued the deal (processing, with a ready estimate). */
  issued(headers: Headers, id: number): Promise<Act>
  /** Activates, moves the clock past the new-connection latency and waits for `complete`. */
  activate(headers: Headers, body: Record<string, unknown>): Promise<Act>
  /** The activation's job of this kind (activation.issue or activation.complete). */
  job(kind: string, id: number): Promise<JobState | undefined>
  /** Waits for each attempt of the job to end, moving the clock past its backoff, until it settles. */
  settle(kind: string, id: number, afterAttempt?: (j: JobState) => Promise<void>): Promise<JobState>
}

/** A test app on a manual clock with a worker running the activation jobs (issue, complete). */
export async function startActivationApp(db: Db, clock: ManualClock): Promise<ActivationTestApp> {
  const t = await createTestApp(db, {
    clock,
    config: { rateLimitPerMinute: 100_000, activation: { connector: 'sandbox', sandboxKnownConnectionSeconds: 5, sandboxNewConnectionSeconds: 30 } },
  })
  const worker = createWorker({ db, clock, handlers: activationJobs(t.ctx).filter((h) => !h.everyMs), pollMs: 20, graceMs: 500 })
  await worker.start()
  const post = (headers: Headers, body: unknown) => t.app.inject({ method: 'POST', url: '/v1/curation/activations', headers, payload: body as object })
  const get = async (headers: Headers, id: number) => json<Act>(await t.app.inject({ method: 'GET', url: `/v1/curation/activations/${id}`, headers }))
  const job = async (kind: string, id: number) =>
    (
      await db.query<JobState>(`SELECT attempts, status, last_error FROM jobs WHERE kind = $1 AND payload->>'id' = $2 ORDER BY id DESC LIMIT 1`, [
        kind,
        String(id),
      ])
    ).rows[0]
  const issued = async (headers: Headers, id: number) => {
    await waitFor(async () => (await get(headers, id)).estimated_ready_date != null, 15_000, `activation ${id} to be issued`)
    return get(headers, id)
  }
  return {
    ...t,
    worker,
    post,
    get,
    issued,
    job,
    async activate(headers, body) {
      const res = await post(headers, body)
      expect(res.statusCode, res.body).toBe(201)
      const a = json<Act>(res)
      await issued(headers, a.id)
      clock.advance(30_000)
      await waitFor(async () => (await get(headers, a.id)).status === 'complete', 15_000, `activation ${a.id} to complete`)
      return get(headers, a.id)
    },
    async settle(kind, id, afterAttempt) {
      for (let seen = 0; ; ) {
        await waitFor(
          async () => {
            const j = await job(kind, id)
            return !!j && j.status !== 'running' && j.attempts > seen
          },
          15_000,
          `attempt ${seen + 1} of ${kind} for activation ${id}`,
        )
        const j = (await job(kind, id))!
        seen = j.attempts
        await afterAttempt?.(j)
        if (j.status !== 'queued') return j
        clock.advance(10 * 60_000) // past the longest backoff
      }
    },
    async close() {
      await worker.stop()
      await t.close()
    },
  }
}
