import type { Queryable } from '../db/db.ts'
import type { JobKind, JobPayloads } from './kinds.ts'

export const jobsChannel = 'curata_jobs'

export interface JobRow {
  id: number
  kind: JobKind
  /** Written by enqueue() for this row's kind. */
  payload: JobPayloads[JobKind]
  status: 'queued' | 'running' | 'done' | 'failed'
  attempts: number
  max_attempts: number
  run_at: Date
  locked_by: string | null
  locked_until: Date | null
  singleton_key: string | null
  last_error: string | null
}

export interface EnqueueOptions {
  now: Date
  runAt?: Date
  maxAttempts?: number
  /** At most one unfinished job per key; a second enqueue with the key is a no-op returning null. */
  singletonKey?: string
}

/**
 * Adds a job. Call it with the transaction that creates the record needing the work, so the record
 * and its job commit together or not at all. The NOTIFY is delivered at commit and wakes workers.
 */
export async function enqueue<K extends JobKind>(q: Queryable, kind: K, payload: JobPayloads[K], opts: EnqueueOptions): Promise<number | null> {
  const { rows } = await q.query<{ id: number }>(
    `INSERT INTO jobs (kind, payload, run_at, max_attempts, singleton_key, created_at)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (singleton_key) WHERE singleton_key IS NOT NULL AND status IN ('queued', 'running') DO NOTHING
     RETURNING id`,
    [kind, JSON.stringify(payload), opts.runAt ?? opts.now, opts.maxAttempts ?? 5, opts.singletonKey ?? null, opts.now],
  )
  await q.query(`SELECT pg_notify($1, $2)`, [jobsChannel, kind])
  return rows[0]?.id ?? null
}

/** The singleton key under which a periodic job (a handler with `everyMs`) waits for its next run. */
export const periodicKey = (kind: JobKind): string => `every:${kind}`

/**
 * Brings the next run of a periodic job forward to `now` (it keeps its schedule afterwards): an
 * operator's "refresh now", or a feature noticing its data changed. False when no run was waiting
 * (it is running, or no worker has scheduled it yet).
 */
export async function runPeriodicNow(q: Queryable, kind: JobKind, now: Date): Promise<boolean> {
  const { rowCount } = await q.query(`UPDATE jobs SET run_at = $2 WHERE singleton_key = $1 AND status = 'queued' AND run_at > $2`, [periodicKey(kind), now])
  if (rowCount) await q.query('SELECT pg_notify($1, $2)', [jobsChannel, kind])
  return rowCount > 0
}

/** Jobs waiting or running, by kind: the queue depth metric. */
export async function queueDepth(q: Queryable): Promise<{ kind: string; status: string; count: number }[]> {
  const { rows } = await q.query<{ kind: string; status: string; count: number }>(
    `SELECT kind, status, count(*)::int AS count FROM jobs WHERE status IN ('queued', 'running') GROUP BY kind, status`,
  )
  return rows
}

/**
 * Adds many jobs of one kind in one statement (one row per payload, one NOTIFY). Like enqueue, call it
 * in the transaction that creates the records needing the work.
 */
export async function enqueueMany<K extends JobKind>(
  q: Queryable,
  kind: K,
  payloads: readonly JobPayloads[K][],
  opts: Omit<EnqueueOptions, 'singletonKey'>,
): Promise<number> {
  if (!payloads.length) return 0
  const { rowCount } = await q.query(
    `INSERT INTO jobs (kind, payload, run_at, max_attempts, created_at)
     SELECT $1, p, $3, $4, $5 FROM jsonb_array_elements($2::jsonb) AS p`,
    [kind, JSON.stringify(payloads), opts.runAt ?? opts.now, opts.maxAttempts ?? 5, opts.now],
  )
  await q.query(`SELECT pg_notify($1, $2)`, [jobsChannel, kind])
  return rowCount
}
