// Counted clicks are buffered and written in batches, like pixel hits: the redirect never waits for
// the database. Each write is one transaction: the campaigns' owners, then the deal delivery
// statement the pixel batches use (rollups.ts), so a click lands in deal_delivery_daily and
// domain_delivery_stats only for a deal id of an activation of the campaign's client. Loss bounds
// are the collector's: stop() writes everything; a hard kill loses at most one flush interval.
import type { Db } from '../../platform/db/db.ts'
import { DealCells } from '../rollups.ts'

export interface Click {
  campaignId: number
  deal: string
  time: Date
  /** Registrable serving domain; '' when unknown. */
  domain: string
  /** false: a declared bot, crawler or HTTP library followed the link (counted apart). */
  human: boolean
}

export interface ClickRecorder {
  add(click: Click): void
  start(): void
  /** Writes what is buffered (tests, and the timer). */
  flush(): Promise<void>
  /** Writes everything buffered, then stops. */
  stop(): Promise<void>
}

/** Clicks held while the database is unreachable; beyond it new clicks are redirected but not counted. */
const BUFFER_MAX = 100_000

export function createClickRecorder(opts: {
  db: Db
  flushMs: number
  log: { warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void }
}): ClickRecorder {
  const { db, log } = opts
  let buffer: Click[] = []
  let writing: Promise<void> | null = null
  let timer: NodeJS.Timeout | null = null

  async function write(batch: Click[]): Promise<void> {
    await db.transaction(async (tx) => {
      const ids = [...new Set(batch.map((c) => c.campaignId))]
      const { rows } = await tx.query<{ id: number; client_id: number }>('SELECT id, client_id FROM pixel_campaigns WHERE id = ANY($1::bigint[])', [ids])
      const owner = new Map(rows.map((r) => [r.id, r.client_id]))
      const cells = new DealCells()
      let latest = new Date(0)
      for (const c of batch) {
        const client = owner.get(c.campaignId)
        if (client === undefined) continue
        if (c.time > latest) latest = c.time
        const human = c.human ? 1 : 0
        cells.add(client, c.deal, c.time.toISOString().slice(0, 10), c.domain, '', {
          impressions: 0,
          nonHumanImpressions: 0,
          pricedImpressions: 0,
          spendMicros: 0,
          clicks: human,
          nonHumanClicks: 1 - human,
        })
      }
      await cells.upsert(tx, latest)
    })
  }

  /** Writes the buffer in batches until it is empty; on failure the batch goes back to its head. */
  async function drain(): Promise<void> {
    while (buffer.length) {
      const batch = buffer
      buffer = []
      try {
        await write(batch)
      } catch (err) {
        if (isDataError(err)) {
          // The database refused the data itself: retrying would fail forever and hold up every later click.
          log.error({ err: (err as Error).message, dropped: batch.length }, 'pixel: clicks the database refused were dropped')
          continue
        }
        buffer = batch.concat(buffer)
        log.warn({ err: (err as Error).message, buffered: buffer.length }, 'pixel: writing clicks failed; will retry')
        return
      }
    }
  }

  /** One write at a time: a flush while one runs waits for it. */
  function flush(): Promise<void> {
    if (writing) return writing
    if (buffer.length === 0) return Promise.resolve()
    writing = drain().finally(() => {
      writing = null
    })
    return writing
  }

  return {
    add(click) {
      if (buffer.length < BUFFER_MAX) buffer.push(click)
    },
    start() {
      timer = setInterval(() => void flush(), opts.flushMs)
      timer.unref()
    },
    flush,
    async stop() {
      if (timer) clearInterval(timer)
      await writing
      for (let failures = 0; buffer.length > 0 && failures < 5; failures++) {
        await flush()
        if (buffer.length) await new Promise((r) => setTimeout(r, 200 * (failures + 1)))
      }
      if (buffer.length) log.error({ lost: buffer.length }, 'pixel: stopping with clicks that could not be written')
    },
  }
}

/** SQLSTATE classes 22 (data exception) and 23 (integrity): the data is refused, not the connection. */
function isDataError(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code
  return typeof code === 'string' && /^2[23]/.test(code)
}
