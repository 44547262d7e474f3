// Writes classified events: one COPY of the raw rows plus the rollup upserts, in one transaction.
// The collector and log ingest both end here.
//
// The raw rows travel as COPY text (the same on both engines): loading it costs the database
// about a third of what a multi-row INSERT of array parameters did (measured with varied traffic,
// where each row's text values are mostly distinct), and it is built one row string at a time.
import { copyField as f, CopyRows, copyTextArray } from '../../platform/db/copy-text.ts'
import type { Db, Session } from '../../platform/db/db.ts'
import { addToRollups } from '../rollups.ts'
import type { EventRow } from './event.ts'

/**
 * Rows per COPY; larger batches take several (still one transaction). Each chunk's text is built on
 * the caller's thread, so this also bounds how long that takes.
 */
export const WRITE_CHUNK = 1000

const COLUMNS = ['received_at', 'client_id', 'campaign_id', 'campaign_ref', 'source', 'invalid_reason', 'flags',
  'domain', 'page_url', 'url_path', 'referrer_host', 'user_agent', 'sec_ch_ua', 'sec_ch_ua_mobile',
  'sec_ch_ua_platform', 'accept_language', 'macros', 'agent', 'agent_type', 'high_risk', 'ip_prefix'] as const

/** Writes events and their rollup updates in one transaction: all of them or none. */
export async function writeEvents(db: Db, events: readonly EventRow[]): Promise<void> {
  if (events.length) await db.transaction((tx) => insertEvents(tx, events))
}

/** Inserts the raw rows and adds them to the rollups, in the caller's transaction. */
export async function insertEvents(tx: Session, events: readonly EventRow[]): Promise<void> {
  for (let i = 0; i < events.length; i += WRITE_CHUNK) await insertRaw(tx, events.slice(i, i + WRITE_CHUNK))
  if (events.length) await addToRollups(tx, events)
}

async function insertRaw(tx: Session, e: readonly EventRow[]): Promise<void> {
  const rows = new CopyRows(e.length * 512)
  for (const r of e) {
    rows.add(
      `${timestamp(r.receivedAt)}\t${f(r.clientId)}\t${f(r.campaignId)}\t${f(r.campaignRef)}\t${r.source}\t${f(r.invalidReason)}\t` +
      `${copyTextArray(r.flags)}\t${f(r.domain)}\t${f(r.pageUrl)}\t${f(r.urlPath)}\t${f(r.referrerHost)}\t${f(r.userAgent)}\t` +
      `${f(r.secChUa)}\t${f(r.secChUaMobile)}\t${f(r.secChUaPlatform)}\t${f(r.acceptLanguage)}\t` +
      `${r.macros ? f(JSON.stringify(r.macros)) : '\\N'}\t${f(r.agent)}\t${r.agentType}\t${r.highRisk}\t${f(r.ipPrefix)}\n`,
    )
  }
  await tx.copyFrom('pixel_events', COLUMNS, rows.bytes())
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
