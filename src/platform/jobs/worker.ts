import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'

import type { Clock } from '../clock.ts'
import type { Db, Queryable } from '../db/db.ts'
import type { BatchContext, JobContext, JobHandler } from './handler.ts'
import { backoffMs, LeaseLostError, PermanentJobError } from './handler.ts'
import type { JobRow } from './queue.ts'
import { enqueue, jobsChannel, periodicKey } from './queue.ts'

export interface WorkerLogger {
  info(obj: object, msg?: string): void
  warn(obj: object, msg?: string): void
  error(obj: object, msg?: string): void
}

export interface WorkerOptions {
  db: Db
  clock: Clock
  handlers: JobHandler[]
  concurrency?: number
  pollMs?: number
  leaseMs?: number
  /** How long stop() waits for running jobs before giving them back to the queue. */
  graceMs?: number
  logger?: WorkerLogger
  onJobDone?(kind: string, outcome: 'done' | 'retry' | 'failed', seconds: number): void
}

const silent: WorkerLogger = { info() {}, warn() {}, error() {} }

/**
 * Claims jobs with FOR UPDATE SKIP LOCKED and a lease, runs them, and retries failures with
 * backoff. A worker that dies keeps nothing: its lease runs out and the job is claimed again.
 */
export function createWorker(opts: WorkerOptions) {
  const { db, clock } = opts
  const id = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`
  const concurrency = opts.concurrency ?? 4
  const pollMs = opts.pollMs ?? 1000
  const leaseMs = opts.leaseMs ?? 60_000
  const log = opts.logger ?? silent
  const handlers = new Map<string, JobHandler>(opts.handlers.map((h) => [h.kind, h]))
  const running = new Map<number, { abort: AbortController; done: Promise<void> }>()
  let stopping = false
  let loop: Promise<void> | null = null
  let wake: (() => void) | null = null
  let unlisten: (() => Promise<void>) | null = null
  let heartbeat: NodeJS.Timeout | null = null

  const at = (deltaMs = 0) => new Date(clock.now().getTime() + deltaMs)

  // Kinds claimed one job per unit of concurrency, and kinds claimed in batches (one unit each).
  const singleKinds = [...handlers.values()].filter((h) => !h.batch).map((h) => h.kind)
  const batchHandlers = [...handlers.values()].filter((h) => h.batch)

  /**
   * Up to `free` jobs of the single kinds and, when a unit is free, up to `batch.max` of each batch
   * kind, in one statement (a locking subquery per group).
   */
  async function claim(free: number): Promise<JobRow[]> {
    const params: unknown[] = [id, at(), at(leaseMs)]
    const picks: string[] = []
    const pick = (kinds: string[], limit: number) => {
      params.push(kinds, limit)
      picks.push(
        `p${picks.length} AS (SELECT id FROM jobs
           WHERE kind = ANY($${params.length - 1}::text[])
             AND ((status = 'queued' AND run_at <= $2) OR (status = 'running' AND locked_until < $2))
           ORDER BY run_at, id
           LIMIT $${params.length}
           FOR UPDATE SKIP LOCKED)`,
      )
    }
    if (singleKinds.length) pick(singleKinds, free)
    for (const h of batchHandlers) pick([h.kind], h.batch!.max)
    if (!picks.length) return []
    const { rows } = await db.query<JobRow>(
      `WITH ${picks.join(', ')}
       UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_by = $1, locked_until = $3
        WHERE id IN (${picks.map((_, i) => `SELECT id FROM p${i}`).join(' UNION ALL ')})
        RETURNING *`,
      params,
    )
    return rows
  }

  async function holdingLease(tx: Queryable, job: JobRow): Promise<void> {
    const { rows } = await tx.query(`SELECT 1 FROM jobs WHERE id = $1 AND locked_by = $2 AND status = 'running' FOR UPDATE`, [job.id, id])
    if (!rows.length) throw new LeaseLostError(job.id)
  }

  async function markDone(tx: Queryable, job: JobRow): Promise<void> {
    await tx.query(
      `UPDATE jobs SET status = 'done', finished_at = $3, locked_by = NULL, locked_until = NULL
        WHERE id = $1 AND locked_by = $2`,
      [job.id, id, at()],
    )
    const handler = handlers.get(job.kind)
    if (handler?.everyMs) await schedule(tx, handler, handler.everyMs)
  }

  function schedule(q: Queryable, h: JobHandler, delayMs: number) {
    return enqueue(q, h.kind, {}, { now: at(), runAt: at(delayMs), singletonKey: periodicKey(h.kind) })
  }

  async function fail(job: JobRow, err: unknown): Promise<'retry' | 'failed'> {
    const handler = handlers.get(job.kind)
    const reason = err instanceof Error ? err.message : String(err)
    const final = err instanceof PermanentJobError || job.attempts >= job.max_attempts
    await db.transaction(async (tx) => {
      await holdingLease(tx, job)
      if (final) {
        await tx.query(
          `UPDATE jobs SET status = 'failed', last_error = $2, finished_at = $3, locked_by = NULL, locked_until = NULL
            WHERE id = $1`,
          [job.id, reason, at()],
        )
        await handler?.onFailed?.(job.payload, reason, tx)
        if (handler?.everyMs) await schedule(tx, handler, handler.everyMs)
      } else {
        await tx.query(
          `UPDATE jobs SET status = 'queued', last_error = $2, run_at = $3, locked_by = NULL, locked_until = NULL
            WHERE id = $1`,
          [job.id, reason, at(backoffMs(job.attempts))],
        )
      }
    })
    return final ? 'failed' : 'retry'
  }

  async function execute(job: JobRow, abort: AbortController): Promise<void> {
    const started = performance.now()
    const handler = handlers.get(job.kind)!
    let finished = false
    const ctx: JobContext = {
      job,
      clock,
      signal: abort.signal,
      withLease: (fn) =>
        db.transaction(async (tx) => {
          await holdingLease(tx, job)
          return fn(tx)
        }),
      finish: (fn) =>
        db.transaction(async (tx) => {
          await holdingLease(tx, job)
          const result = await fn(tx)
          await markDone(tx, job)
          finished = true
          return result
        }),
    }
    let outcome: 'done' | 'retry' | 'failed' = 'done'
    try {
      // A job whose earlier holder died during its last allowed attempt ends here.
      if (job.attempts > job.max_attempts) throw new PermanentJobError('worker lost during the last attempt')
      await handler.run(job.payload, ctx)
      if (!finished) await ctx.finish(async () => {})
    } catch (err) {
      if (err instanceof LeaseLostError || abort.signal.aborted) {
        log.warn({ job: job.id, kind: job.kind }, 'job given up: lease lost or worker stopping')
        return
      }
      log.warn({ job: job.id, kind: job.kind, attempt: job.attempts, err: (err as Error).message }, 'job failed')
      outcome = await fail(job, err).catch((e: unknown) => {
        log.error({ job: job.id, err: (e as Error).message }, 'could not record job failure')
        return 'retry' as const
      })
    } finally {
      opts.onJobDone?.(job.kind, outcome, (performance.now() - started) / 1000)
    }
  }

  /** Runs a batch of jobs of one kind (JobHandler.batch) as one unit: one finishing transaction for all. */
  async function executeBatch(handler: JobHandler, jobs: JobRow[], abort: AbortController): Promise<void> {
    const started = performance.now()
    const outcomes = new Map<number, 'done' | 'retry' | 'failed'>()
    // Finished here, or taken over by another worker: either way no longer this batch's to fail.
    const settled = new Set<number>()
    const live: JobRow[] = []
    for (const job of jobs) {
      if (job.attempts <= job.max_attempts) live.push(job)
      else {
        settled.add(job.id)
        outcomes.set(job.id, await fail(job, new PermanentJobError('worker lost during the last attempt')).catch(() => 'retry' as const))
      }
    }
    const finish: BatchContext['finish'] = async (some, fn) => {
      const mine = some.filter((j) => !settled.has(j.id))
      const { result, held } = await db.transaction(async (tx) => {
        // Marked done first: the UPDATE locks the rows and tells which leases are still held.
        const { rows } = await tx.query<{ id: number }>(
          `UPDATE jobs SET status = 'done', finished_at = $3, locked_by = NULL, locked_until = NULL
            WHERE id = ANY($1::bigint[]) AND locked_by = $2 AND status = 'running' RETURNING id`,
          [mine.map((j) => j.id), id, at()],
        )
        const held = new Set(rows.map((r) => r.id))
        return { result: await fn(tx, held), held }
      })
      for (const j of mine) {
        settled.add(j.id)
        if (held.has(j.id)) outcomes.set(j.id, 'done')
      }
      return result
    }
    try {
      if (live.length) await handler.batch!.run({ jobs: live, clock, signal: abort.signal, finish })
      const rest = live.filter((j) => !settled.has(j.id))
      if (rest.length) await finish(rest, async () => {})
    } catch (err) {
      if (abort.signal.aborted) {
        log.warn({ kind: handler.kind, jobs: live.length }, 'batch given up: worker stopping')
        return
      }
      log.warn({ kind: handler.kind, err: (err as Error).message }, 'batch failed')
      for (const job of live.filter((j) => !settled.has(j.id))) {
        outcomes.set(
          job.id,
          await fail(job, err).catch((e: unknown) => {
            log.error({ job: job.id, err: (e as Error).message }, 'could not record job failure')
            return 'retry' as const
          }),
        )
      }
    } finally {
      const seconds = (performance.now() - started) / 1000
      for (const [, outcome] of outcomes) opts.onJobDone?.(handler.kind, outcome, seconds)
    }
  }

  async function extendLeases(): Promise<void> {
    if (!running.size) return
    await db
      .query(`UPDATE jobs SET locked_until = $3 WHERE id = ANY($1::bigint[]) AND locked_by = $2 AND status = 'running'`, [[...running.keys()], id, at(leaseMs)])
      .catch((err: unknown) => log.warn({ err: (err as Error).message }, 'lease heartbeat failed'))
  }

  // Units of concurrency in use: a single job, or a batch.
  let units = 0
  // A NOTIFY or a finished job since the last claim began: its job may have committed too late for
  // that claim to see, so the loop claims again rather than sleeping through a poll interval.
  let woken = false
  const poke = () => {
    woken = true
    wake?.()
  }

  function startUnit(jobs: JobRow[], exec: (abort: AbortController) => Promise<void>) {
    const abort = new AbortController()
    units++
    const done = exec(abort).finally(() => {
      units--
      for (const j of jobs) running.delete(j.id)
      poke()
    })
    for (const j of jobs) running.set(j.id, { abort, done })
  }

  async function run(): Promise<void> {
    while (!stopping) {
      woken = false
      let claimed: JobRow[] = []
      const free = concurrency - units
      if (free > 0) {
        claimed = await claim(free).catch((err: unknown) => {
          log.error({ err: (err as Error).message }, 'claiming jobs failed')
          return []
        })
      }
      const batches = new Map<string, JobRow[]>()
      for (const job of claimed) {
        if (handlers.get(job.kind)?.batch) batches.set(job.kind, [...(batches.get(job.kind) ?? []), job])
        else startUnit([job], (abort) => execute(job, abort))
      }
      for (const [kind, jobs] of batches) startUnit(jobs, (abort) => executeBatch(handlers.get(kind)!, jobs, abort))
      if (stopping) break
      // Sleep until a NOTIFY, a finished job, or the poll interval; a full claim loops at once.
      if ((claimed.length === 0 || units >= concurrency) && !(woken && units < concurrency)) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, pollMs)
          wake = () => {
            clearTimeout(t)
            resolve()
          }
        })
        wake = null
      }
    }
  }

  return {
    id,
    async start(): Promise<void> {
      for (const h of handlers.values()) {
        if (h.everyMs) await schedule(db, h, 0)
      }
      unlisten = await db.listen(jobsChannel, () => poke()).catch(() => null)
      heartbeat = setInterval(() => void extendLeases(), Math.max(50, Math.floor(leaseMs / 3)))
      heartbeat.unref()
      loop = run()
    },
    /** Stops claiming, waits for running jobs up to graceMs, then hands the rest back to the queue. */
    async stop(): Promise<void> {
      stopping = true
      wake?.()
      await loop
      const graceMs = opts.graceMs ?? 10_000
      const all = Promise.all([...running.values()].map((r) => r.done))
      await Promise.race([all, new Promise((r) => setTimeout(r, graceMs).unref())])
      if (running.size) {
        const ids = [...running.keys()]
        for (const r of running.values()) r.abort.abort()
        await db.query(
          `UPDATE jobs SET status = 'queued', locked_by = NULL, locked_until = NULL, attempts = attempts - 1
            WHERE id = ANY($1::bigint[]) AND locked_by = $2 AND status = 'running'`,
          [ids, id],
        )
        await Promise.race([all, new Promise((r) => setTimeout(r, 2000).unref())])
      }
      if (heartbeat) clearInterval(heartbeat)
      await unlisten?.().catch(() => {})
    },
    /** Number of jobs this worker is running now. */
    get busy(): number {
      return running.size
    },
  }
}

export type Worker = ReturnType<typeof createWorker>
