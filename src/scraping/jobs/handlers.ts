/**
 * The scraping feature's queue jobs:
 * - scrape.register: puts every URL of a new job in the index as queued, so search answers 202 for
 *   them at once rather than when a worker reaches their chunk;
 * - scrape.chunk: indexes the 1,000 entries of one chunk of a scrape job and counts it on the job;
 * - scrape.url: indexes one URL submitted through POST /v1/scraping/search;
 * - scrape.maintenance: hourly, removes submissions abandoned while being written and the politeness
 *   rows of hosts no longer crawled.
 */

import type { NormalizedUrl } from '../../content/urls/normalize-url.ts'
import { isNormalizeError, normalizeUrl } from '../../content/urls/normalize-url.ts'
import type { JobContext, JobHandler } from '../../platform/jobs/handler.ts'
import type { ScrapingContext } from '../context.ts'
import { sweepHostGates } from '../fetch/db-host-gate.ts'
import { registerUrls } from '../index/pages-repository.ts'
import { chunkJobKind, maintenanceJobKind, registerJobKind, urlJobKind } from './kinds.ts'
import { CHUNK_SIZE } from './prepare.ts'
import type { StoredChunk } from './repository.ts'
import { chunkCount, failJob, finishChunk, loadChunkForWork, markProcessing, readChunksForWork, recordChunkProgress, removeAbandoned } from './repository.ts'

/** Pages one chunk fetches at once; with JOB_CONCURRENCY chunks per worker this fills the fetcher's 64 slots. */
export const chunkFetchConcurrency = 16
// How often a running chunk writes its progress.
const PROGRESS_EVERY_MS = 1000

/** A job given back because the worker stops must not be marked done: throwing hands it back. */
function stopIfAborted(job: JobContext): void {
  if (job.signal.aborted) throw new Error('worker stopping: job given back to the queue')
}

/** The valid entries of a chunk, keyed by their stored text so results find the page under the same URL. */
function validUrls(chunk: Pick<StoredChunk, 'urls' | 'invalid'>): NormalizedUrl[] {
  const urls: NormalizedUrl[] = []
  chunk.urls.forEach((url, i) => {
    if (chunk.invalid?.[i] != null) return
    const n = normalizeUrl(url)
    if (!isNormalizeError(n)) urls.push({ url, host: n.host, tld: n.tld })
  })
  return urls
}

// Chunks registered per statement (10,000 URLs).
const REGISTER_CHUNKS = 10

function registerJob(ctx: ScrapingContext): JobHandler<'scrape.register'> {
  return {
    kind: registerJobKind,
    maxAttempts: 5,
    async run({ job_id }, job) {
      const count = await chunkCount(ctx.db, job_id)
      if (count === null) return
      for (let from = 0; from < count; from += REGISTER_CHUNKS) {
        stopIfAborted(job)
        const chunks = await readChunksForWork(ctx.db, job_id, from, from + REGISTER_CHUNKS - 1)
        await registerUrls(ctx.db, chunks.flatMap(validUrls), ctx.clock.now())
      }
    },
  }
}

function chunkJob(ctx: ScrapingContext): JobHandler<'scrape.chunk'> {
  return {
    kind: chunkJobKind,
    maxAttempts: 5,
    async run({ job_id, chunk_no }, job) {
      const chunk = await loadChunkForWork(ctx.db, job_id, chunk_no)
      if (!chunk || chunk.done_at || chunk.job_status === 'failed' || chunk.job_status === 'cancelled') return
      await markProcessing(ctx.db, job_id)
      const urls = validUrls(chunk)
      const settledBefore = chunk.urls.length - urls.length
      let lastWrite = performance.now()
      let writing = false
      const onProgress = (done: number): void => {
        const now = performance.now()
        if (writing || now - lastWrite < PROGRESS_EVERY_MS) return
        lastWrite = now
        writing = true
        recordChunkProgress(ctx.db, job_id, chunk_no, settledBefore + done)
          .catch(() => {})
          .finally(() => (writing = false))
      }
      await ctx.scraper.indexUrls(urls, {
        signal: job.signal,
        concurrency: chunkFetchConcurrency,
        onProgress,
        ...(chunk.max_age_ms === null ? {} : { maxAgeMs: chunk.max_age_ms }),
      })
      stopIfAborted(job)
      await job.finish((tx) => finishChunk(tx, job_id, chunk_no, ctx.clock.now()))
    },
    async onFailed({ job_id, chunk_no }, reason, tx) {
      await failJob(
        tx,
        job_id,
        `chunk ${chunk_no} (entries ${chunk_no * CHUNK_SIZE}–${(chunk_no + 1) * CHUNK_SIZE - 1}) could not be processed: ${reason}`,
        ctx.clock.now(),
      )
    },
  }
}

function urlJob(ctx: ScrapingContext): JobHandler<'scrape.url'> {
  return {
    kind: urlJobKind,
    maxAttempts: 3,
    async run({ url, max_age_ms }, job) {
      const n = normalizeUrl(url)
      if (isNormalizeError(n)) return
      await ctx.scraper.indexUrls([{ ...n, url }], { signal: job.signal, ...(max_age_ms === undefined ? {} : { maxAgeMs: max_age_ms }) })
      stopIfAborted(job)
    },
  }
}

function maintenanceJob(ctx: ScrapingContext): JobHandler<'scrape.maintenance'> {
  return {
    kind: maintenanceJobKind,
    everyMs: 3_600_000,
    async run() {
      await removeAbandoned(ctx.db, ctx.clock.now())
      await sweepHostGates(ctx.db)
    },
  }
}

export function scrapingJobs(ctx: ScrapingContext): JobHandler[] {
  return [registerJob(ctx), chunkJob(ctx), urlJob(ctx), maintenanceJob(ctx)]
}
