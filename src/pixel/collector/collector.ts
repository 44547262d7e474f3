// The pixel collector (docs/pixel.md, "Collector"). The hot path answers on the raw node:http
// request: no auth, no routing framework, no database round trip. It copies what it needs into an
// in-memory buffer and answers the 43-byte GIF at once. The buffer is written every flushMs, or as
// soon as it holds batchMax hits, with one write in flight; each write classifies its hits and
// inserts them with their rollup updates in one transaction (ingest/writer.ts).
//
// Loss bounds: stop() (SIGTERM) writes everything acknowledged before it returns. A hard kill loses
// what was acknowledged since the last committed write: the hits of the current flush interval
// plus the batch being written.
import type { IncomingMessage, ServerResponse } from 'node:http'

import { Counter, Gauge, Histogram } from 'prom-client'
import type { Registry } from 'prom-client'

import type { Clock } from '../../platform/clock.ts'
import type { Db } from '../../platform/db/db.ts'
import type { PixelConfig } from '../config.ts'
import { buildEvent } from '../ingest/event.ts'
import type { EventRow } from '../ingest/event.ts'
import { abuseKey } from '../ingest/ip-prefix.ts'
import { writeEvents } from '../ingest/writer.ts'
import { createCampaignOwners } from './campaign-owners.ts'
import { sendBusy, sendGif } from './gif.ts'
import type { Hit } from './hit.ts'
import { captureHit, toObservation, unknownCampaignId } from './hit.ts'
import { createTokenBucket } from './token-bucket.ts'

export interface CollectorLogger {
  warn(obj: object, msg?: string): void
  error(obj: object, msg?: string): void
}

export interface Collector {
  /** The raw-request hook: answers /px/… (GET, HEAD, POST) and returns true; false for anything else. */
  handle(req: IncomingMessage, res: ServerResponse): boolean
  start(): Promise<void>
  /** The server stops accepting connections: ask clients to close theirs after each answer. */
  closing(): void
  /** Writes every buffered hit, then stops. Call after the server has closed. */
  stop(): Promise<void>
}

/** Hits classified between two yields to the event loop (about 2 ms of work). */
const CLASSIFY_SLICE = 500

/** Largest beacon body kept; longer ones are recorded as invalid (bad:body). */
export const MAX_BEACON_BYTES = 16 * 1024

export function createCollector(opts: {
  db: Db
  clock: Clock
  config: PixelConfig
  registry: Registry
  log: CollectorLogger
}): Collector {
  const { db, clock, config, log } = opts
  const owners = createCampaignOwners(db, config.campaignRefreshMs, (err) =>
    log.warn({ err: (err as Error).message }, 'pixel: reading campaign ids failed'),
  )
  const bucket = config.ipRatePerSec > 0 ? createTokenBucket({ ratePerSec: config.ipRatePerSec, burst: config.ipBurst }) : null
  let buffer: Hit[] = []
  const m = metrics(opts.registry, () => buffer.length)
  // Per-request outcomes are plain numbers, read when metrics are collected (a labelled counter's
  // inc() hashes its labels on every call).
  const outcomes = m.outcomes
  let writing: Promise<void> | null = null
  let isClosing = false
  let timers: NodeJS.Timeout[] = []

  function accept(req: IncomingMessage, res: ServerResponse, body: string | null, tooLarge: boolean): void {
    const hit = captureHit(req, clock.now(), config.proxyHops, body, tooLarge)
    if (bucket && !bucket.take(abuseKey(hit.ip))) {
      outcomes.throttled++
      return sendGif(req, res, isClosing)
    }
    if (buffer.length >= config.bufferMax) {
      outcomes.refused++
      return sendBusy(res)
    }
    buffer.push(hit)
    outcomes.accepted++
    if (buffer.length >= config.batchMax) kick()
    sendGif(req, res, isClosing)
  }

  function readBeacon(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = []
    let size = 0
    let tooLarge = false
    req.on('data', (c: Buffer) => {
      size += c.length
      if (size > MAX_BEACON_BYTES) tooLarge = true
      else chunks.push(c)
    })
    req.on('end', () => accept(req, res, tooLarge ? null : Buffer.concat(chunks).toString('utf8'), tooLarge))
    req.on('error', () => res.destroy())
  }

  /** Starts a write unless one is in flight; it goes on while full batches are waiting. */
  function kick(): void {
    if (writing || buffer.length === 0) return
    writing = (async () => {
      try {
        while ((await writeNext()) && buffer.length >= config.batchMax);
      } finally {
        writing = null
      }
    })()
  }

  /**
   * Takes up to batchMax hits off the buffer and writes them in one transaction; false (and the
   * hits back at the head of the buffer) when the database failed.
   */
  async function writeNext(): Promise<boolean> {
    const batch = buffer.length <= config.batchMax ? buffer : buffer.slice(0, config.batchMax)
    buffer = buffer.length <= config.batchMax ? [] : buffer.slice(config.batchMax)
    const started = performance.now()
    let rows: EventRow[] = []
    try {
      if (batch.some((h) => isNewId(h))) await owners.refresh()
      rows = await classify(batch)
      await writeEvents(db, rows)
    } catch (err) {
      if (!isDataError(err) || rows.length === 0) {
        buffer = batch.concat(buffer)
        m.failures.inc()
        log.warn({ err: (err as Error).message, buffered: buffer.length }, 'pixel: writing a batch failed; will retry')
        return false
      }
      // The database refused the data itself (not the connection): retrying the batch would fail
      // forever and stall every later hit, so write row by row and drop only what is refused.
      await writeOneByOne(rows, err)
    }
    m.written.inc(rows.length)
    m.writeSeconds.observe((performance.now() - started) / 1000)
    return true
  }

  /**
   * Builds the rows of a batch in slices, yielding between them: after a database stall the
   * batch is large, and the hot path must not wait for all of it.
   */
  async function classify(batch: Hit[]): Promise<EventRow[]> {
    const rows: EventRow[] = []
    for (let i = 0; i < batch.length; i += CLASSIFY_SLICE) {
      if (i > 0) await new Promise((r) => setImmediate(r))
      for (const h of batch.slice(i, i + CLASSIFY_SLICE)) rows.push(buildEvent(toObservation(h, owners)))
    }
    return rows
  }

  const isNewId = (h: Hit) => {
    const id = unknownCampaignId(h, owners)
    return id !== null && owners.mayBeNew(id)
  }

  async function writeOneByOne(rows: EventRow[], cause: unknown): Promise<void> {
    let dropped = 0
    for (const row of rows) await writeEvents(db, [row]).catch(() => dropped++)
    if (dropped) {
      m.dropped.inc(dropped)
      log.error({ err: (cause as Error).message, dropped }, 'pixel: events the database refused were dropped')
    }
  }

  return {
    handle(req, res) {
      const url = req.url
      if (url === undefined || !url.startsWith('/px/')) return false
      const method = req.method
      if (method === 'GET' || method === 'HEAD') accept(req, res, null, false)
      else if (method === 'POST') readBeacon(req, res)
      else return false
      return true
    },
    async start() {
      await owners.start()
      const flush = setInterval(kick, config.flushMs)
      flush.unref()
      timers = [flush]
      if (bucket) {
        const sweep = setInterval(() => bucket.sweep(), 10_000)
        sweep.unref()
        timers.push(sweep)
      }
    },
    closing() {
      isClosing = true
    },
    async stop() {
      isClosing = true
      for (const t of timers) clearInterval(t)
      // Everything acknowledged is written before we return; a database that stays down gets
      // five attempts over ~3 s, and what could not be written is logged with its count.
      await writing
      for (let failures = 0; buffer.length > 0 && failures < 5; ) {
        if (!(await writeNext())) await new Promise((r) => setTimeout(r, 200 * ++failures))
      }
      if (buffer.length) log.error({ lost: buffer.length }, 'pixel: stopping with hits that could not be written')
      await owners.stop()
    },
  }
}

/** SQLSTATE classes 22 (data exception) and 23 (integrity): the data is refused, not the connection. */
function isDataError(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code
  return typeof code === 'string' && /^2[23]/.test(code)
}

function metrics(registry: Registry, buffered: () => number) {
  new Gauge({
    name: 'pixel_buffered_hits',
    help: 'Hits waiting to be written',
    registers: [registry],
    collect() {
      this.set(buffered())
    },
  })
  const outcomes = { accepted: 0, throttled: 0, refused: 0 }
  new Counter({
    name: 'pixel_hits_total',
    help: 'Collector hits: accepted (buffered), throttled (per-address bound), refused (buffer full: 503)',
    labelNames: ['outcome'] as const,
    registers: [registry],
    collect() {
      this.reset()
      for (const [outcome, n] of Object.entries(outcomes)) this.inc({ outcome }, n)
    },
  })
  return {
    outcomes,
    written: new Counter({ name: 'pixel_events_written_total', help: 'Collector events committed', registers: [registry] }),
    failures: new Counter({ name: 'pixel_write_failures_total', help: 'Batch writes that failed and were retried', registers: [registry] }),
    dropped: new Counter({ name: 'pixel_events_dropped_total', help: 'Events the database refused (never retried)', registers: [registry] }),
    writeSeconds: new Histogram({
      name: 'pixel_batch_write_seconds',
      help: 'Time to classify and commit one collector batch',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
  }
}
