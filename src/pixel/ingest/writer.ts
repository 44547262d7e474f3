// Writes classified events: one COPY of the raw rows plus the rollup upserts, in one transaction.
// The collector and log ingest both end here.
//
// An EventBatch holds its events already in stored form: the raw rows as COPY text (the same on
// both engines; loading it costs the database about a third of what a multi-row INSERT of array
// parameters did) in an off-heap buffer, and their rollup sums. The collector adds each hit as it
// is acknowledged, so a batch waiting for its write keeps no per-hit objects alive for the garbage
// collector to copy and promote.
import { CopyRows, copyTextArray, copyField as f } from '../../platform/db/copy-text.ts'
import type { Db, Session } from '../../platform/db/db.ts'
import { RollupBatch } from '../rollups.ts'
import type { EventRow, EventSource, InvalidReason, LoadType } from './event.ts'

const COLUMNS = [
  'received_at',
  'client_id',
  'campaign_id',
  'campaign_ref',
  'source',
  'invalid_reason',
  'flags',
  'domain',
  'page_url',
  'url_path',
  'referrer_host',
  'user_agent',
  'sec_ch_ua',
  'sec_ch_ua_mobile',
  'sec_ch_ua_platform',
  'accept_language',
  'macros',
  'agent',
  'agent_type',
  'high_risk',
  'ip_prefix',
] as const

/** Events on their way to the database: raw rows as COPY text, and the rollup sums they add. */
export class EventBatch {
  readonly #rows: CopyRows
  readonly #rollups = new RollupBatch()
  #count = 0

  /** `expectedBytes`: a guess at the COPY text's size (the previous batch's), so it rarely grows. */
  constructor(expectedBytes?: number) {
    this.#rows = new CopyRows(expectedBytes)
  }

  add(e: EventRow): void {
    const line = eventLine(e)
    this.#rollups.add(e)
    this.#rows.add(line) // last: nothing can fail after the rollups counted the event
    this.#count++
  }

  get count(): number {
    return this.#count
  }

  get bytes(): number {
    return this.#rows.size
  }

  /** Inserts the raw rows and adds them to the rollups, in the caller's transaction. */
  async insert(tx: Session): Promise<void> {
    if (this.#count === 0) return
    await tx.copyFrom('pixel_events', COLUMNS, this.#rows.bytes())
    await this.#rollups.write(tx)
  }

  /** Each event back from its stored form (the write-one-by-one fallback, which has no other copy). */
  events(): EventRow[] {
    return this.#rows.lines().map(decodeEventLine)
  }
}

/** Writes events and their rollup updates in one transaction: all of them or none. */
export async function writeEvents(db: Db, events: readonly EventRow[]): Promise<void> {
  if (events.length) await db.transaction((tx) => insertEvents(tx, events))
}

/** Inserts the raw rows and adds them to the rollups, in the caller's transaction. */
export async function insertEvents(tx: Session, events: readonly EventRow[]): Promise<void> {
  const batch = new EventBatch(events.length * 512)
  for (const e of events) batch.add(e)
  await batch.insert(tx)
}

/** One pixel_events row in COPY text, columns in COLUMNS order. */
export function eventLine(r: EventRow): string {
  return (
    `${timestamp(r.receivedAt)}\t${f(r.clientId)}\t${f(r.campaignId)}\t${f(r.campaignRef)}\t${r.source}\t${f(r.invalidReason)}\t` +
    `${copyTextArray(r.flags)}\t${f(r.domain)}\t${f(r.pageUrl)}\t${f(r.urlPath)}\t${f(r.referrerHost)}\t${f(r.userAgent)}\t` +
    `${f(r.secChUa)}\t${f(r.secChUaMobile)}\t${f(r.secChUaPlatform)}\t${f(r.acceptLanguage)}\t` +
    `${r.macros ? f(JSON.stringify(r.macros)) : '\\N'}\t${f(r.agent)}\t${r.agentType}\t${r.highRisk}\t${f(r.ipPrefix)}\n`
  )
}

const UNESCAPE: Record<string, string> = { '\\': '\\', t: '\t', n: '\n', r: '\r' }
const field = (v: string): string | null => (v === '\\N' ? null : v.replace(/\\([\\tnr])/g, (_, c: string) => UNESCAPE[c]!))

/** The text[] literal copyTextArray writes: every element quoted, `"` and `\` escaped. */
function textArray(v: string): string[] {
  const out: string[] = []
  for (const m of v.matchAll(/"((?:[^"\\]|\\.)*)"/g)) out.push(m[1]!.replace(/\\(.)/g, '$1'))
  return out
}

/** The inverse of eventLine. Verdicts that are stored only as flags are read back from them. */
export function decodeEventLine(line: string): EventRow {
  const c = line.replace(/\n$/, '').split('\t').map(field)
  const nullable = (i: number): string | null => c[i] ?? null
  const flags = textArray(c[6]!)
  const flagged = (prefix: string) => flags.filter((x) => x.startsWith(prefix)).map((x) => x.slice(prefix.length))
  const receivedAt = new Date(c[0]!)
  return {
    receivedAt,
    day: c[0]!.slice(0, 10),
    clientId: c[1] === null ? null : Number(c[1]),
    campaignId: c[2] === null ? null : Number(c[2]),
    campaignRef: nullable(3),
    source: c[4] as EventSource,
    invalidReason: c[5] as InvalidReason | null,
    flags,
    domain: nullable(7),
    pageUrl: nullable(8),
    urlPath: c[9]!,
    referrerHost: nullable(10),
    aiReferrer: flagged('ai_referral:')[0] ?? null,
    userAgent: nullable(11),
    secChUa: nullable(12),
    secChUaMobile: nullable(13),
    secChUaPlatform: nullable(14),
    acceptLanguage: nullable(15),
    macros: c[16] === null ? null : (JSON.parse(c[16]!) as Record<string, string>),
    agent: nullable(17),
    agentType: c[18] as LoadType,
    highRisk: c[19] === 'true',
    riskReasons: flagged('risk:'),
    verified: flags.includes('verified') ? true : flags.includes('unverified') ? false : null,
    ipPrefix: nullable(20),
  }
}

// Hits of a batch arrive within the same few milliseconds: the last instant is remembered.
let lastMs = NaN
let lastText = ''
function timestamp(t: Date): string {
  const ms = t.getTime()
  if (ms !== lastMs) {
    lastMs = ms
    lastText = t.toISOString()
  }
  return lastText
}
