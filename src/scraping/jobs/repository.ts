/**
 * Scrape jobs and their chunks (migrations/0006). Every query a client can reach filters by
 * client_id; the worker-side queries work on a job id taken from the queue.
 */
import type { Db, Queryable } from '../../platform/db/db.ts'
import { ApiError } from '../../platform/http/errors.ts'
import { enqueue, enqueueMany } from '../../platform/jobs/queue.ts'
import { emitEvent } from '../../platform/webhooks/outbox.ts'
import type { JobStatus } from '../schemas.ts'
import type { ChunkPayload } from './kinds.ts'
import { chunkJobKind, registerJobKind } from './kinds.ts'
import type { Chunk, PreparedJob } from './prepare.ts'
import { eventView } from './view.ts'

/** Unfinished (pending or processing) jobs one client may have at once (spec 8). */
export const maxUnfinishedJobs = 5
/** Seconds a client over that limit is told to wait: the spec's suggested poll interval. */
export const unfinishedRetryAfterSeconds = 30
/** A submission still writing its chunks after this long is abandoned (its process died). */
export const loadingTimeoutMs = 60 * 60_000
// Chunks written per statement: about 3.5 MB of URLs, so no statement or transaction runs long.
const CHUNKS_PER_INSERT = 50

export interface JobRow {
  id: number
  client_id: number
  status: JobStatus
  submitted_count: number
  url_count: number
  invalid_count: number
  chunk_count: number
  chunks_done: number
  failure_reason: string | null
  created_date: Date
  processed_date: Date | null
  /** The job's max_age (force and the minimum applied), null for the default freshness. */
  max_age_ms: number | null
}

const jobColumns = `id, client_id, status, submitted_count, url_count, invalid_count, chunk_count, chunks_done,
  failure_reason, created_date, processed_date, max_age_ms::float8 AS max_age_ms`

/**
 * Stores a prepared submission as a pending job: the job row (after checking the client's limit of
 * unfinished jobs under a per-client lock), then its chunks in short statements, then — in one
 * transaction — one queue job per chunk and the flag that makes the job visible. Until then the job
 * is invisible; a submission whose process dies midway is removed by the maintenance job.
 */
export async function createJob(db: Db, clientId: number, p: PreparedJob, now: Date, maxAgeMs?: number): Promise<JobRow> {
  const job = await db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('curata.scrape_jobs'), $1::int)`, [clientId % 2_147_483_647])
    const { rows } = await tx.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM scrape_jobs
        WHERE client_id = $1 AND status IN ('pending', 'processing') AND (NOT loading OR created_date > $2)`,
      [clientId, new Date(now.getTime() - loadingTimeoutMs)],
    )
    if ((rows[0]?.n ?? 0) >= maxUnfinishedJobs) {
      throw new ApiError(429, 'rate_limited', `at most ${maxUnfinishedJobs} scrape jobs may be unfinished at once; retry when one completes`, undefined, {
        'retry-after': String(unfinishedRetryAfterSeconds),
      })
    }
    const inserted = await tx.query<JobRow>(
      `INSERT INTO scrape_jobs (client_id, submitted_count, url_count, invalid_count, chunk_count, created_date, max_age_ms)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${jobColumns}`,
      [clientId, p.submittedCount, p.urlCount, p.invalidCount, p.chunks.length, now, maxAgeMs ?? null],
    )
    return inserted.rows[0]!
  })
  try {
    for (let from = 0; from < p.chunks.length; from += CHUNKS_PER_INSERT) {
      await insertChunks(db, job.id, clientId, from, p.chunks.slice(from, from + CHUNKS_PER_INSERT))
    }
    await db.transaction(async (tx) => {
      // Registering goes first (a lower id is claimed first): search answers 202 for the job's URLs
      // within seconds, long before a worker reaches their chunk.
      await enqueue(tx, registerJobKind, { job_id: job.id }, { now, maxAttempts: 5 })
      const payloads: ChunkPayload[] = p.chunks.map((_c, i) => ({ job_id: job.id, chunk_no: i }))
      await enqueueMany(tx, chunkJobKind, payloads, { now, maxAttempts: 5 })
      await tx.query(`UPDATE scrape_jobs SET loading = false WHERE id = $1`, [job.id])
    })
  } catch (err) {
    await db.query(`DELETE FROM scrape_jobs WHERE id = $1 AND client_id = $2`, [job.id, clientId]).catch(() => {})
    throw err
  }
  return job
}

async function insertChunks(q: Queryable, jobId: number, clientId: number, firstNo: number, chunks: Chunk[]): Promise<void> {
  // One jsonb parameter per statement; arrays are rebuilt in order (WITH ORDINALITY) on both engines.
  await q.query(
    `INSERT INTO scrape_job_chunks (job_id, chunk_no, client_id, urls, invalid)
     SELECT $1, $2 + (c.n - 1)::int, $3,
            ARRAY(SELECT e FROM jsonb_array_elements_text(c.v -> 'u') WITH ORDINALITY AS x(e, o) ORDER BY o),
            CASE WHEN c.v ? 'i'
                 THEN ARRAY(SELECT e FROM jsonb_array_elements_text(c.v -> 'i') WITH ORDINALITY AS x(e, o) ORDER BY o) END
       FROM jsonb_array_elements($4::jsonb) WITH ORDINALITY AS c(v, n)`,
    [jobId, firstNo, clientId, JSON.stringify(chunks.map((c) => (c.invalid ? { u: c.urls, i: c.invalid } : { u: c.urls })))],
  )
}

export async function getJob(q: Queryable, clientId: number, id: number): Promise<JobRow | null> {
  const { rows } = await q.query<JobRow>(`SELECT ${jobColumns} FROM scrape_jobs WHERE id = $1 AND client_id = $2 AND NOT loading`, [id, clientId])
  return rows[0] ?? null
}

/** The client's jobs, newest first. */
export async function listJobs(q: Queryable, clientId: number, limit: number, offset: number): Promise<JobRow[]> {
  const { rows } = await q.query<JobRow>(`SELECT ${jobColumns} FROM scrape_jobs WHERE client_id = $1 AND NOT loading ORDER BY id DESC LIMIT $2 OFFSET $3`, [
    clientId,
    limit,
    offset,
  ])
  return rows
}

/** Entries settled so far, per job (unfinished jobs; a complete job has settled all of them). */
export async function progressOf(q: Queryable, clientId: number, jobIds: number[]): Promise<Map<number, number>> {
  if (!jobIds.length) return new Map()
  const { rows } = await q.query<{ job_id: number; done: number }>(
    `SELECT job_id, sum(done_count)::int AS done FROM scrape_job_chunks
      WHERE client_id = $1 AND job_id = ANY($2::bigint[]) GROUP BY job_id`,
    [clientId, jobIds],
  )
  return new Map(rows.map((r) => [r.job_id, r.done]))
}

export interface StoredChunk {
  chunk_no: number
  urls: string[]
  invalid: (string | null)[] | null
}

/** The chunks numbered from..to of one of the client's jobs: all a results page needs to read. */
export async function readChunks(q: Queryable, clientId: number, jobId: number, from: number, to: number): Promise<StoredChunk[]> {
  const { rows } = await q.query<StoredChunk>(
    `SELECT chunk_no, urls, invalid FROM scrape_job_chunks
      WHERE client_id = $1 AND job_id = $2 AND chunk_no BETWEEN $3 AND $4 ORDER BY chunk_no`,
    [clientId, jobId, from, to],
  )
  return rows
}

// Worker side: the queue hands out (job id, chunk number); nothing here is reachable by a client.

export async function loadChunkForWork(
  q: Queryable,
  jobId: number,
  chunkNo: number,
): Promise<(StoredChunk & { done_at: Date | null; job_status: JobStatus; max_age_ms: number | null }) | null> {
  const { rows } = await q.query<StoredChunk & { done_at: Date | null; job_status: JobStatus; max_age_ms: number | null }>(
    `SELECT c.chunk_no, c.urls, c.invalid, c.done_at, j.status AS job_status, j.max_age_ms::float8 AS max_age_ms
       FROM scrape_job_chunks c JOIN scrape_jobs j ON j.id = c.job_id
      WHERE c.job_id = $1 AND c.chunk_no = $2`,
    [jobId, chunkNo],
  )
  return rows[0] ?? null
}

/** Chunks from..to of a job, for the worker registering its URLs. */
export async function readChunksForWork(q: Queryable, jobId: number, from: number, to: number): Promise<StoredChunk[]> {
  const { rows } = await q.query<StoredChunk>(
    `SELECT chunk_no, urls, invalid FROM scrape_job_chunks WHERE job_id = $1 AND chunk_no BETWEEN $2 AND $3 ORDER BY chunk_no`,
    [jobId, from, to],
  )
  return rows
}

export async function chunkCount(q: Queryable, jobId: number): Promise<number | null> {
  const { rows } = await q.query<{ chunk_count: number }>(`SELECT chunk_count FROM scrape_jobs WHERE id = $1`, [jobId])
  return rows[0]?.chunk_count ?? null
}

export async function markProcessing(q: Queryable, jobId: number): Promise<void> {
  await q.query(`UPDATE scrape_jobs SET status = 'processing' WHERE id = $1 AND status = 'pending'`, [jobId])
}

export async function recordChunkProgress(q: Queryable, jobId: number, chunkNo: number, done: number): Promise<void> {
  await q.query(`UPDATE scrape_job_chunks SET done_count = GREATEST(done_count, $3) WHERE job_id = $1 AND chunk_no = $2 AND done_at IS NULL`, [
    jobId,
    chunkNo,
    done,
  ])
}

/**
 * Marks a chunk done and counts it on its job, which completes with its last chunk. Runs in the
 * queue job's finishing transaction, so a chunk is counted exactly once whatever crashes.
 */
export async function finishChunk(tx: Queryable, jobId: number, chunkNo: number, now: Date): Promise<void> {
  const { rows } = await tx.query(
    `UPDATE scrape_job_chunks SET done_at = $3, done_count = cardinality(urls)
      WHERE job_id = $1 AND chunk_no = $2 AND done_at IS NULL RETURNING chunk_no`,
    [jobId, chunkNo, now],
  )
  if (!rows.length) return
  const { rows: jobs } = await tx.query<JobRow>(
    `UPDATE scrape_jobs SET chunks_done = chunks_done + 1,
            status = CASE WHEN status IN ('pending', 'processing') AND chunks_done + 1 >= chunk_count THEN 'complete'
                          WHEN status = 'pending' THEN 'processing' ELSE status END,
            processed_date = CASE WHEN status IN ('pending', 'processing') AND chunks_done + 1 >= chunk_count THEN $2
                                  ELSE processed_date END
      WHERE id = $1 RETURNING ${jobColumns}`,
    [jobId, now],
  )
  // The last chunk completes the job (once: each chunk is counted once): its event commits with it.
  const job = jobs[0]
  if (job?.status === 'complete' && job.chunks_done === job.chunk_count) {
    await emitEvent(tx, { clientId: job.client_id, type: 'scrape_job.completed', data: eventView(job, job.url_count), now })
  }
}

/** The job cannot proceed (a chunk failed for good): failed, with the reason. */
/**
 * Cancels one of the client's unfinished jobs: no further chunk starts (fetches in flight finish and
 * are kept), and the job reads as cancelled with the results settled so far. Null when the job is
 * not the client's; the row unchanged when it had already finished.
 */
export async function cancelJob(q: Queryable, clientId: number, id: number, now: Date): Promise<{ row: JobRow; cancelled: boolean } | null> {
  const { rows } = await q.query<JobRow>(
    `UPDATE scrape_jobs SET status = 'cancelled', processed_date = $3
      WHERE id = $1 AND client_id = $2 AND NOT loading AND status IN ('pending', 'processing') RETURNING ${jobColumns}`,
    [id, clientId, now],
  )
  if (rows[0]) return { row: rows[0], cancelled: true }
  const row = await getJob(q, clientId, id)
  return row ? { row, cancelled: false } : null
}

export async function failJob(tx: Queryable, jobId: number, reason: string, now: Date): Promise<void> {
  const { rows } = await tx.query<JobRow>(
    `UPDATE scrape_jobs SET status = 'failed', failure_reason = $2 WHERE id = $1 AND status IN ('pending', 'processing') RETURNING ${jobColumns}`,
    [jobId, reason.slice(0, 1000)],
  )
  const job = rows[0]
  if (job) {
    const done = (await progressOf(tx, job.client_id, [job.id])).get(job.id) ?? 0
    await emitEvent(tx, { clientId: job.client_id, type: 'scrape_job.failed', data: eventView(job, done), now })
  }
}

/** Removes submissions abandoned while their chunks were being written. */
export async function removeAbandoned(q: Queryable, now: Date): Promise<number> {
  const { rowCount } = await q.query(`DELETE FROM scrape_jobs WHERE loading AND created_date < $1`, [new Date(now.getTime() - loadingTimeoutMs)])
  return rowCount
}
