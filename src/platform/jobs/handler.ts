import type { Clock } from '../clock.ts'
import type { Queryable } from '../db/db.ts'
import type { JobKind, JobPayloads } from './kinds.ts'
import type { JobRow } from './queue.ts'

export interface JobContext {
  job: JobRow
  clock: Clock
  /** Aborted when the worker shuts down and gives the job back. */
  signal: AbortSignal
  /**
   * Runs fn in a transaction only while this worker still holds the job's lease, and marks the job
   * done in the same transaction: results and completion commit together, exactly once.
   */
  finish<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>
  /** Runs fn in a transaction only while this worker still holds the lease (partial progress). */
  withLease<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>
}

/** What a batch of jobs (JobHandler.batch) runs with. */
export interface BatchContext<K extends JobKind = JobKind> {
  /** The claimed jobs, each with its payload. */
  jobs: (JobRow & { payload: JobPayloads[K] })[]
  clock: Clock
  /** Aborted when the worker shuts down and gives the jobs back. */
  signal: AbortSignal
  /**
   * Runs fn in one transaction with those of `jobs` whose lease this worker still holds (others have
   * been taken over: leave them alone), and marks them done in it. Jobs of the batch not finished
   * when run resolves are marked done with nothing else.
   */
  finish<T>(jobs: JobRow[], fn: (tx: Queryable, held: Set<number>) => Promise<T>): Promise<T>
}

/** Runs the jobs of one kind. `JobHandler` (any kind) is what a worker is given a list of. */
export interface JobHandler<K extends JobKind = JobKind> {
  kind: K
  run(payload: JobPayloads[K], ctx: JobContext): Promise<unknown>
  /**
   * For many small jobs (webhook deliveries): up to `max` of them are claimed in one query and run
   * together as one unit of the worker's concurrency, finished in one transaction; `run` is then
   * not used by the worker. A throw fails (retries) every job of the batch not finished yet.
   */
  batch?: { max: number; run(ctx: BatchContext<K>): Promise<unknown> }
  /** Called in the transaction that marks the job failed for good: move the owning record to failed. */
  onFailed?(payload: JobPayloads[K], reason: string, tx: Queryable): Promise<unknown>
  maxAttempts?: number
  /** Periodic jobs: kept enqueued as a singleton and re-enqueued this many ms after each run. */
  everyMs?: number
}

/** A failure retrying cannot fix (bad input, a missing record): fails the job at once. */
export class PermanentJobError extends Error {}

/** Thrown by finish/withLease when another worker has taken the job over. */
export class LeaseLostError extends Error {
  constructor(jobId: number) {
    super(`lease on job ${jobId} was lost`)
  }
}

export function backoffMs(attempt: number): number {
  const base = Math.min(1000 * 2 ** (attempt - 1), 5 * 60_000)
  return base / 2 + Math.random() * (base / 2)
}
