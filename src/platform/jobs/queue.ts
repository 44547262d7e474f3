import { notify, notifyChannelSql, type Queryable } from '../db/db.ts'
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
  // One statement (one round trip): the INSERT and its NOTIFY.
  const { rows } = await q.query<{ id: number | null }>(
    `WITH j AS (INSERT INTO jobs (kind, payload, run_at, max_attempts, singleton_key, created_at)
                VALUES ($1, $2, $3, $4, $5, $6)
                ON CONFLICT (singleton_key) WHERE singleton_key IS NOT NULL AND status IN ('queued', 'running') DO NOTHING
                RETURNING id)
     SELECT (SELECT id FROM j) AS id, pg_notify(${notifyChannelSql('$7::text')}, $1)`,
    [kind, JSON.stringify(payload), opts.runAt ?? opts.now, opts.maxAttempts ?? 5, opts.singletonKey ?? null, opts.now, jobsChannel],
  )
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
  if (rowCount) await notify(q, jobsChannel, kind)
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
  // One statement (one round trip): the INSERT and its NOTIFY.
  const { rows } = await q.query<{ n: number }>(
    `WITH j AS (INSERT INTO jobs (kind, payload, run_at, max_attempts, created_at)
                SELECT $1, p, $3, $4, $5 FROM jsonb_array_elements($2::jsonb) AS p RETURNING 1)
     SELECT count(*)::int AS n, pg_notify(${notifyChannelSql('$6::text')}, $1) FROM j`,
    [kind, JSON.stringify(payloads), opts.runAt ?? opts.now, opts.maxAttempts ?? 5, opts.now, jobsChannel],
  )
  return rows[0]?.n ?? 0
}

/** The kinds whose payload is one id field (e.g. `{deliveryId}`), and that field. */
type IdPayloadField<K extends JobKind> = { [F in keyof JobPayloads[K]]: JobPayloads[K][F] extends number ? F : never }[keyof JobPayloads[K]] & string

/**
 * Runs `insert` (a data-modifying statement ending in RETURNING with an `id` column, its parameters
 * $1..$n) and adds a job of `kind` per row it returns, with payload `{[field]: id}`, and the NOTIFY:
 * all in one statement, so a record and its job cost one round trip (and commit together even
 * outside a transaction). Resolves to the rows `insert` returned.
 */
export async function insertWithJobs<R extends { id: number }, K extends JobKind>(
  q: Queryable,
  insert: string,
  params: readonly unknown[],
  kind: K,
  field: IdPayloadField<K>,
  opts: Omit<EnqueueOptions, 'singletonKey'>,
): Promise<R[]> {
  const n = params.length
  const { rows } = await q.query<R>(
    `WITH r AS (${insert}),
          j AS (INSERT INTO jobs (kind, payload, run_at, max_attempts, created_at)
                SELECT $${n + 1}, jsonb_build_object($${n + 2}::text, r.id), $${n + 3}, $${n + 4}, $${n + 5} FROM r RETURNING 1)
     SELECT r.* FROM r LEFT JOIN (SELECT pg_notify(${notifyChannelSql(`$${n + 6}::text`)}, $${n + 1}) FROM (SELECT 1 FROM j LIMIT 1) AS one) AS notified ON true`,
    [...params, kind, field, opts.runAt ?? opts.now, opts.maxAttempts ?? 5, opts.now, jobsChannel],
  )
  return rows
}
