import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import type { Queryable } from '../../../src/platform/db/db.ts'
import type { JobHandler } from '../../../src/platform/jobs/handler.ts'
import { PermanentJobError } from '../../../src/platform/jobs/handler.ts'
import type { JobRow } from '../../../src/platform/jobs/queue.ts'
import { enqueue } from '../../../src/platform/jobs/queue.ts'
import type { Worker } from '../../../src/platform/jobs/worker.ts'
import { createWorker } from '../../../src/platform/jobs/worker.ts'
import { ManualClock } from '../../helpers/clock.ts'
import { describeEachEngine } from '../../helpers/db.ts'
import { waitFor } from '../../helpers/wait.ts'

describeEachEngine('durable jobs', (getDb) => {
  const clock = new ManualClock('2026-11-22T10:00:00Z')
  const workers: Worker[] = []
  const db = () => getDb().db

  beforeAll(async () => {
    await db().exec('CREATE TABLE test_effects (job_id bigint, note text)')
  })
  beforeEach(async () => {
    await db().query('DELETE FROM test_effects')
    await db().query('DELETE FROM jobs')
  })
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()))
  })

  function start(handlers: JobHandler[], leaseMs = 60_000): Worker {
    const w = createWorker({ db: db(), clock, handlers, pollMs: 20, leaseMs, graceMs: 200 })
    workers.push(w)
    void w.start()
    return w
  }
  const job = async (id: number) => (await db().query<JobRow>('SELECT * FROM jobs WHERE id = $1', [id])).rows[0]!
  const effects = async () => (await db().query<{ job_id: number; note: string }>('SELECT * FROM test_effects')).rows

  it('enqueues inside the caller’s transaction: a rollback leaves no job', async () => {
    await db()
      .transaction(async (tx) => {
        await enqueue(tx, 'test.never', {}, { now: clock.now() })
        throw new Error('rollback')
      })
      .catch(() => {})
    expect((await db().query('SELECT * FROM jobs')).rows).toHaveLength(0)
  })

  it('runs a job once and commits its results with its completion', async () => {
    const id = (await enqueue(db(), 'test.ok', { n: 7 }, { now: clock.now() }))!
    const w = start([
      {
        kind: 'test.ok',
        run: (p: { n: number }, ctx) => ctx.finish((tx: Queryable) => tx.query('INSERT INTO test_effects VALUES ($1, $2)', [ctx.job.id, String(p.n)])),
      },
    ])
    await waitFor(async () => (await job(id)).status === 'done')
    expect(await effects()).toEqual([{ job_id: id, note: '7' }])
    await w.stop()
  })

  it('retries with backoff and ends failed with the reason, telling the owner', async () => {
    const id = (await enqueue(db(), 'test.flaky', {}, { now: clock.now(), maxAttempts: 3 }))!
    let calls = 0
    const w = start([
      {
        kind: 'test.flaky',
        async run() {
          calls++
          throw new Error(`boom ${calls}`)
        },
        onFailed: (_p, reason, tx) => tx.query('INSERT INTO test_effects VALUES ($1, $2)', [id, reason]),
      },
    ])
    await waitFor(async () => (await job(id)).attempts === 1 && (await job(id)).status === 'queued')
    const first = await job(id)
    expect(first.last_error).toBe('boom 1')
    expect(first.run_at.getTime()).toBeGreaterThan(clock.now().getTime()) // backed off, not due yet
    clock.advance(10 * 60_000)
    await waitFor(async () => (await job(id)).attempts === 2 && (await job(id)).status === 'queued')
    clock.advance(10 * 60_000)
    await waitFor(async () => (await job(id)).status === 'failed')
    expect(calls).toBe(3)
    expect((await job(id)).last_error).toBe('boom 3')
    expect(await effects()).toEqual([{ job_id: id, note: 'boom 3' }])
    await w.stop()
  })

  it('fails a permanent error at once', async () => {
    const id = (await enqueue(db(), 'test.perm', {}, { now: clock.now(), maxAttempts: 5 }))!
    const w = start([
      {
        kind: 'test.perm',
        run: async () => {
          throw new PermanentJobError('no such segment')
        },
      },
    ])
    await waitFor(async () => (await job(id)).status === 'failed')
    expect(await job(id)).toMatchObject({ attempts: 1, last_error: 'no such segment' })
    await w.stop()
  })

  it('keeps one unfinished job per singleton key', async () => {
    const a = await enqueue(db(), 'test.single', {}, { now: clock.now(), singletonKey: 'seg:1' })
    const b = await enqueue(db(), 'test.single', {}, { now: clock.now(), singletonKey: 'seg:1' })
    expect(a).toBeTypeOf('number')
    expect(b).toBeNull()
  })

  it('takes over a job whose lease ran out, and the old holder cannot write any more', async () => {
    const id = (await enqueue(db(), 'test.stuck', {}, { now: clock.now() }))!
    let release: () => void = () => {}
    const gate = new Promise<void>((r) => (release = r))
    let firstLost: unknown = null
    const w1 = start(
      [
        {
          kind: 'test.stuck',
          async run(_p, ctx) {
            if (ctx.job.attempts === 1) {
              await gate
              await ctx
                .finish((tx) => tx.query(`INSERT INTO test_effects VALUES ($1, 'first')`, [ctx.job.id]))
                .catch((e: unknown) => {
                  firstLost = e
                  throw e
                })
            } else {
              await ctx.finish((tx) => tx.query(`INSERT INTO test_effects VALUES ($1, 'second')`, [ctx.job.id]))
            }
          },
        },
      ],
      1000,
    )
    await waitFor(async () => (await job(id)).status === 'running')
    clock.advance(5000) // the lease of worker 1 runs out (its heartbeat reads the same clock, so stop it first)
    await db().query(`UPDATE jobs SET locked_until = $1 WHERE id = $2`, [new Date(clock.now().getTime() - 1), id])
    const w2 = start([
      { kind: 'test.stuck', run: (_p, ctx) => ctx.finish((tx) => tx.query(`INSERT INTO test_effects VALUES ($1, 'second')`, [ctx.job.id])).then(() => {}) },
    ])
    await waitFor(async () => (await job(id)).status === 'done')
    release()
    await waitFor(async () => firstLost !== null)
    expect(await effects()).toEqual([{ job_id: id, note: 'second' }])
    expect((await job(id)).attempts).toBe(2)
    await w1.stop()
    await w2.stop()
  })

  it('keeps a periodic job scheduled', async () => {
    let runs = 0
    const w = start([{ kind: 'test.every', everyMs: 60_000, run: async () => void runs++ }])
    await waitFor(async () => runs === 1)
    // The next run is enqueued by the transaction that marks this one done, just after run() returns.
    let next: JobRow[] = []
    await waitFor(async () => {
      next = (await db().query<JobRow>(`SELECT * FROM jobs WHERE kind = 'test.every' AND status = 'queued'`)).rows
      return next.length > 0
    })
    expect(next).toHaveLength(1)
    expect(next[0]!.run_at.getTime()).toBe(clock.now().getTime() + 60_000)
    clock.advance(60_000)
    await waitFor(async () => runs === 2)
    await w.stop()
  })

  it('on stop gives running jobs back to the queue after the grace period', async () => {
    const id = (await enqueue(db(), 'test.long', {}, { now: clock.now() }))!
    const w = start([
      { kind: 'test.long', run: (_p, ctx) => new Promise((_r, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('aborted')))) },
    ])
    await waitFor(async () => (await job(id)).status === 'running')
    await w.stop()
    expect(await job(id)).toMatchObject({ status: 'queued', attempts: 0, locked_by: null })
  })

  it('claims jobs of a batch kind together and finishes them in one transaction; a throw retries each', async () => {
    const ids: number[] = []
    // One after the other: claimed in id order, so the first batch is 1, 2, 3.
    for (const n of [1, 2, 3, 4, 5]) ids.push((await enqueue(db(), 'test.batch', { n }, { now: clock.now() }))!)
    const seen: number[][] = []
    let failNext = true
    const w = start([
      {
        kind: 'test.batch',
        run: () => Promise.reject(new Error('a batch kind is run by batch.run')),
        batch: {
          max: 3,
          async run(b) {
            seen.push(b.jobs.map((j) => (j.payload as { n: number }).n))
            if (failNext) {
              failNext = false
              throw new Error('receiver down')
            }
            // Only the first two are finished here: the worker marks the rest done with nothing else.
            await b.finish(b.jobs.slice(0, 2), async (tx, held) => {
              for (const j of b.jobs.slice(0, 2))
                if (held.has(j.id)) await tx.query('INSERT INTO test_effects VALUES ($1, $2)', [j.id, String((j.payload as { n: number }).n)])
            })
          },
        },
      },
    ])
    await waitFor(async () => (await db().query(`SELECT 1 FROM jobs WHERE kind = 'test.batch' AND status = 'queued' AND attempts = 1`)).rows.length === 3)
    // The failed batch went back to the queue with backoff, job by job.
    expect(seen[0]).toHaveLength(3)
    clock.advance(60_000)
    await waitFor(async () => (await Promise.all(ids.map(job))).every((j) => j.status === 'done'))
    expect(seen.every((b) => b.length <= 3)).toBe(true)
    expect(seen.flat().sort()).toEqual([1, 1, 2, 2, 3, 3, 4, 5])
    expect((await effects()).length).toBeGreaterThanOrEqual(3)
    await w.stop()
  })
})
