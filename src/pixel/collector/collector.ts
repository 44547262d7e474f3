// The pixel collector (docs/pixel.md, "Collector"). The hot path answers on the raw node:http
// request: no auth, no routing framework, no database round trip. It answers the 43-byte GIF at
// once; right after that turn of the event loop, the hits it read are classified into the open
// batch in their stored form (ingest/writer.ts: COPY text off the heap, rollup sums). The open
// batch is sealed and written every flushMs, or as soon as it holds batchMax hits, with one write
// in flight; each write inserts a batch's rows with its rollup updates in one transaction.
//
// Loss bounds: stop() (SIGTERM) writes everything acknowledged before it returns. A hard kill loses
// what was acknowledged since the last committed write: the hits of the current flush interval
// plus the batch being written.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Registry } from 'prom-client'
import { Counter, Gauge, Histogram } from 'prom-client'

import type { Clock } from '../../platform/clock.ts'
import type { PixelConfig } from '../../platform/config.ts'
import type { Db } from '../../platform/db/db.ts'
import { buildEvent } from '../ingest/event.ts'
import { abuseKey } from '../ingest/ip-prefix.ts'
import { EventBatch, writeEvents } from '../ingest/writer.ts'
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

/** Largest beacon body kept; longer ones are recorded as invalid (bad:body). */
export const MAX_BEACON_BYTES = 16 * 1024

export function createCollector(opts: { db: Db; clock: Clock; config: PixelConfig; registry: Registry; log: CollectorLogger }): Collector {
  const { db, clock, config, log } = opts
  const owners = createCampaignOwners(db, config.campaignRefreshMs, (err) => log.warn({ err: (err as Error).message }, 'pixel: reading campaign ids failed'))
  const bucket = config.ipRatePerSec > 0 ? createTokenBucket({ ratePerSec: config.ipRatePerSec, burst: config.ipBurst }) : null
  // Acknowledged hits not yet written: those of this turn of the event loop (as captured), the open
  // batch (filling), sealed batches waiting for their write (oldest first; a failed one stays at
  // the head), and the rare hits naming a campaign id above every known one, kept as captured
  // until the ids are re-read.
  let captured: Hit[] = []
  let open = new EventBatch()
  const sealed: EventBatch[] = []
  let unresolved: Hit[] = []
  let buffered = 0
  const m = metrics(opts.registry, () => buffered)
  // Per-request outcomes are plain numbers, read when metrics are collected (a labelled counter's
  // inc() hashes its labels on every call).
  const outcomes = m.outcomes
  let writing: Promise<void> | null = null
  let isClosing = false
  let stopping = false
  let timers: NodeJS.Timeout[] = []

  function accept(req: IncomingMessage, res: ServerResponse, body: string | null, tooLarge: boolean): void {
    const hit = captureHit(req, clock.now(), config.proxyHops, body, tooLarge)
    if (bucket && !bucket.take(abuseKey(hit.ip))) {
      outcomes.throttled++
      return sendGif(req, res, isClosing)
    }
    if (buffered >= config.bufferMax) {
      outcomes.refused++
      return sendBusy(res)
    }
    // Classified right after this turn of the event loop, with the other requests it read: one
    // tight loop runs faster than the same work spread between requests, and the hits die young.
    if (captured.push(hit) === 1) setImmediate(classifyCaptured)
    buffered++
    outcomes.accepted++
    sendGif(req, res, isClosing)
  }

  function classifyCaptured(): void {
    const hits = captured
    captured = []
    for (const h of hits) {
      if (isNewId(h)) unresolved.push(h)
      else store(h)
    }
    if (open.count >= config.batchMax) {
      seal()
      kick()
    }
  }

  /** Classifies a hit into the open batch; one that fails to is dropped, logged and counted. */
  function store(hit: Hit): void {
    try {
      open.add(buildEvent(toObservation(hit, owners)))
    } catch (err) {
      buffered--
      m.dropped.inc()
      log.error({ err: (err as Error).message }, 'pixel: a hit could not be classified and was dropped')
    }
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

  /** Seals the open batch (if it holds anything) for writing; a new one takes the next hits. */
  function seal(): void {
    if (captured.length > 0) classifyCaptured()
    if (open.count === 0) return
    sealed.push(open)
    open = new EventBatch(open.bytes + (open.bytes >> 2))
  }

  /** Starts a write unless one is in flight; it goes on while full batches are waiting. */
  function kick(): void {
    // Once stopping, stop() itself writes what is left: no second writer may take the same batch.
    if (writing || stopping) return
    writing = (async () => {
      try {
        await resolveNewIds()
        seal()
        // A batch filled during a write was sealed by classifyCaptured: it goes next.
        while (sealed.length > 0 && (await writeNext()));
      } finally {
        writing = null
      }
    })()
  }

  /** Re-reads the campaign ids once, then classifies the hits that waited for it. */
  async function resolveNewIds(): Promise<void> {
    if (unresolved.length === 0) return
    // Only the hits that arrived before the read was asked for: a hit captured while it runs may
    // name a campaign the read began too early to see, so it waits for the next write's read.
    const hits = unresolved
    unresolved = []
    try {
      await owners.refresh()
    } catch (err) {
      // Written as unknown campaigns would be wrong if the campaign exists: they wait for the next write.
      unresolved = hits.concat(unresolved)
      log.warn({ err: (err as Error).message }, 'pixel: reading campaign ids failed')
      return
    }
    for (const h of hits) store(h)
    // Hits captured during the read whose campaign it did find need not wait for another read.
    unresolved = unresolved.filter((h) => {
      if (unknownCampaignId(h, owners) !== null) return true
      store(h)
      return false
    })
  }

  /**
   * Writes the oldest sealed batch in one transaction; false (and the batch kept at the head) when
   * the database failed.
   */
  async function writeNext(): Promise<boolean> {
    const batch = sealed[0]!
    const started = performance.now()
    try {
      await db.transaction((tx) => batch.insert(tx))
    } catch (err) {
      if (!isDataError(err)) {
        m.failures.inc()
        log.warn({ err: (err as Error).message, buffered }, 'pixel: writing a batch failed; will retry')
        return false
      }
      // The database refused the data itself (not the connection): retrying the batch would fail
      // forever and stall every later hit, so write row by row and drop only what is refused.
      await writeOneByOne(batch, err)
    }
    sealed.shift()
    buffered -= batch.count
    m.written.inc(batch.count)
    m.writeSeconds.observe((performance.now() - started) / 1000)
    return true
  }

  const isNewId = (h: Hit) => {
    const id = unknownCampaignId(h, owners)
    return id !== null && owners.mayBeNew(id)
  }

  async function writeOneByOne(batch: EventBatch, cause: unknown): Promise<void> {
    let dropped = 0
    for (const row of batch.events()) await writeEvents(db, [row]).catch(() => dropped++)
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
      stopping = true
      while (writing) await writing
      classifyCaptured()
      await resolveNewIds()
      // Ids that cannot be re-read now: the hits are recorded with what is known.
      for (const h of unresolved.splice(0)) store(h)
      seal()
      for (let failures = 0; sealed.length > 0 && failures < 5; ) {
        if (!(await writeNext())) await new Promise((r) => setTimeout(r, 200 * ++failures))
      }
      if (buffered) log.error({ lost: buffered }, 'pixel: stopping with hits that could not be written')
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
