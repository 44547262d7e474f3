// Server-log ingest (docs/pixel.md, "Server-log ingest"): access-log lines become events of the
// same pipeline as pixel hits (classification, rollups), minus the loads the pixel already saw.
//
// De-duplication key: campaign + client address prefix + user agent + URL path. A page load from a
// log line is a duplicate when
//   - a pixel or beacon event with the same key was received within DEDUP_WINDOW_MS of it (the
//     pixel on that page fired for the same visit), or
//   - a log event with the same key has the same timestamp (the same line sent again), in the
//     database or earlier in this upload.
// Chunks are de-duplicated and written under a per-campaign advisory lock, so two uploads of the
// same log cannot both count it.
import type { Clock } from '../../platform/clock.ts'
import type { Db, Queryable } from '../../platform/db/db.ts'
import type { LogIngestResult } from '../schemas.ts'
import { MAX_INVALID_SHOWN } from '../schemas.ts'
import type { LogLine } from './access-log.ts'
import { isPageLoad, parseLogLine } from './access-log.ts'
import type { EventRow, Observation } from './event.ts'
import { buildEvent } from './event.ts'
import { insertEvents } from './writer.ts'

export const DEDUP_WINDOW_MS = 30_000
/** Page loads checked and written per transaction. */
const LOG_CHUNK = 5000
/** Log times later than this ahead of our clock are refused as invalid (a broken clock). */
const MAX_FUTURE_MS = 86_400_000

export async function ingestLogs(db: Db, clock: Clock, campaign: { id: number; clientId: number }, text: string): Promise<LogIngestResult> {
  const result: LogIngestResult = { accepted: 0, invalid: 0, invalid_lines: [], duplicates: 0, skipped: 0 }
  const seenInUpload = new Map<string, Set<number>>()
  const latest = clock.now().getTime() + MAX_FUTURE_MS
  let rows: EventRow[] = []

  const flush = async () => {
    const chunk = rows
    rows = []
    const fresh = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`pixel_logs:${campaign.id}`])
      const known = await existing(tx, campaign, chunk)
      const keep = chunk.filter((r) => !isDuplicate(r, known, seenInUpload))
      await insertEvents(tx, keep)
      return keep.length
    })
    result.accepted += fresh
    result.duplicates += chunk.length - fresh
    // A 50 MB upload is a few hundred chunks: let other requests run between them.
    await new Promise((r) => setImmediate(r))
  }

  const refuse = (line: number, reason: string) => {
    result.invalid++
    if (result.invalid_lines.length < MAX_INVALID_SHOWN) result.invalid_lines.push({ line, reason })
  }
  let start = 0
  let lineNo = 0
  while (start < text.length) {
    lineNo++
    let end = text.indexOf('\n', start)
    if (end < 0) end = text.length
    const raw = text.slice(start, end)
    start = end + 1
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    if (line.trim() === '') continue
    const parsed = parseLogLine(line)
    if (!parsed) {
      refuse(lineNo, 'not an access-log line (Combined or Common Log Format, or a JSON object with the usual fields)')
      continue
    }
    if (parsed.time.getTime() > latest) {
      refuse(lineNo, `its time ${parsed.time.toISOString()} is more than a day ahead of the server clock`)
      continue
    }
    if (!isPageLoad(parsed)) {
      result.skipped++
      continue
    }
    rows.push(buildEvent(observe(parsed, campaign)))
    if (rows.length >= LOG_CHUNK) await flush()
  }
  if (rows.length) await flush()
  return result
}

function observe(l: LogLine, campaign: { id: number; clientId: number }): Observation {
  const host = l.host?.toLowerCase().replace(/:\d+$/, '') ?? null
  const absolute = /^https?:\/\//i.test(l.target)
  return {
    time: l.time,
    source: 'log',
    campaign,
    campaignRef: String(campaign.id),
    ip: l.ip,
    userAgent: l.userAgent,
    // Logs carry no client hints or Accept-Language: not observed, so not held against anyone.
    secChUa: null,
    secChUaMobile: null,
    secChUaPlatform: null,
    acceptLanguage: null,
    hintsObserved: false,
    languageObserved: false,
    webdriver: undefined,
    pageUrl: absolute ? l.target : host ? `https://${host}${l.target}` : l.target,
    referrer: l.referer && /^https?:\/\//i.test(l.referer) ? l.referer : null,
    domain: host,
    macros: null,
    flags: [],
    bad: false,
  }
}

type Known = Map<string, { t: number; log: boolean }[]>

/** The de-duplication key without the campaign (every query is per campaign already). */
const keyOf = (prefix: string | null, ua: string | null, path: string) => `${prefix ?? ''}\u0001${ua ?? ''}\u0001${path}`

async function existing(tx: Queryable, campaign: { id: number; clientId: number }, chunk: EventRow[]): Promise<Known> {
  let min = Infinity
  let max = -Infinity
  const tuples = new Map<string, [string, string, string]>()
  for (const r of chunk) {
    const t = r.receivedAt.getTime()
    if (t < min) min = t
    if (t > max) max = t
    tuples.set(keyOf(r.ipPrefix, r.userAgent, r.urlPath), [r.ipPrefix ?? '', r.userAgent ?? '', r.urlPath])
  }
  const keys = [...tuples.values()]
  // The BRIN index narrows to the chunk's time window; the tuples are matched in that window.
  const { rows } = await tx.query<{ ip_prefix: string | null; user_agent: string | null; url_path: string; received_at: Date; source: string }>(
    `SELECT ip_prefix, user_agent, url_path, received_at, source FROM pixel_events
      WHERE client_id = $1 AND campaign_id = $2 AND received_at BETWEEN $3 AND $4 AND invalid_reason IS NULL
        AND (coalesce(ip_prefix, ''), coalesce(user_agent, ''), url_path) IN (SELECT * FROM unnest($5::text[], $6::text[], $7::text[]))`,
    [
      campaign.clientId,
      campaign.id,
      new Date(min - DEDUP_WINDOW_MS).toISOString(),
      new Date(max + DEDUP_WINDOW_MS).toISOString(),
      keys.map((k) => k[0]),
      keys.map((k) => k[1]),
      keys.map((k) => k[2]),
    ],
  )
  const known: Known = new Map()
  for (const r of rows) {
    const key = keyOf(r.ip_prefix, r.user_agent, r.url_path)
    const list = known.get(key) ?? []
    list.push({ t: r.received_at.getTime(), log: r.source === 'log' })
    known.set(key, list)
  }
  return known
}

function isDuplicate(r: EventRow, known: Known, seenInUpload: Map<string, Set<number>>): boolean {
  const key = keyOf(r.ipPrefix, r.userAgent, r.urlPath)
  const t = r.receivedAt.getTime()
  for (const e of known.get(key) ?? []) {
    if (e.log ? e.t === t : Math.abs(e.t - t) <= DEDUP_WINDOW_MS) return true
  }
  const seen = seenInUpload.get(key)
  if (seen?.has(t)) return true
  if (seen) seen.add(t)
  else seenInUpload.set(key, new Set([t]))
  return false
}
