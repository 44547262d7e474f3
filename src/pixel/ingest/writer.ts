// Writes classified events: one multi-row INSERT plus the rollup upserts, in one transaction. The
// collector and log ingest both end here.
//
// The INSERT unnests one array per column (the same SQL on both engines). Text columns repeat a
// lot within a batch (user agents, pages, domains, languages), so each distinct text value of the
// batch is sent once, in one dictionary array, and the text columns travel as integer indexes into
// it. On the embedded engine that took about a quarter off the database thread's work per row
// when measured (array literals of long strings are costly to build and parse there).
import type { Db, Queryable } from '../../platform/db/db.ts'
import { addToRollups } from '../rollups.ts'
import type { EventRow } from './event.ts'

/**
 * Rows per statement; larger batches take several statements (still one transaction). Each
 * statement's arrays are built on the caller's thread, so this also bounds how long that takes.
 */
export const WRITE_CHUNK = 1000

/** Writes events and their rollup updates in one transaction: all of them or none. */
export async function writeEvents(db: Db, events: readonly EventRow[]): Promise<void> {
  if (events.length) await db.transaction((tx) => insertEvents(tx, events))
}

/** Inserts the raw rows and adds them to the rollups, in the caller's transaction. */
export async function insertEvents(tx: Queryable, events: readonly EventRow[]): Promise<void> {
  for (let i = 0; i < events.length; i += WRITE_CHUNK) await insertRaw(tx, events.slice(i, i + WRITE_CHUNK))
  if (events.length) await addToRollups(tx, events)
}

/** The distinct text values of a batch; a value is referred to by its 1-based position. */
class Dictionary {
  readonly values: string[] = []
  readonly #index = new Map<string, number>()

  ref(v: string | null): number | null {
    if (v === null) return null
    let i = this.#index.get(v)
    if (i === undefined) {
      i = this.values.push(v)
      this.#index.set(v, i)
    }
    return i
  }
}

async function insertRaw(tx: Queryable, e: readonly EventRow[]): Promise<void> {
  const dict = new Dictionary()
  const text = (f: (r: EventRow) => string | null) => e.map((r) => dict.ref(f(r)))
  await tx.query(
    `INSERT INTO pixel_events (received_at, client_id, campaign_id, campaign_ref, source, invalid_reason, flags,
       domain, page_url, url_path, referrer_host, user_agent, sec_ch_ua, sec_ch_ua_mobile, sec_ch_ua_platform,
       accept_language, macros, agent, agent_type, high_risk, ip_prefix)
     SELECT to_timestamp(t / 1000), cl, ca, d[cr], d[so], d[ir], string_to_array(d[fl], ','), d[dm], d[pu], d[up], d[rh], d[ua], d[ch],
            d[cm], d[cp], d[al], d[ma]::jsonb, d[ag], d[at], hr, d[ip]
       FROM unnest($1::float8[], $2::bigint[], $3::bigint[], $4::int[], $5::int[], $6::int[], $7::int[],
                   $8::int[], $9::int[], $10::int[], $11::int[], $12::int[], $13::int[], $14::int[], $15::int[],
                   $16::int[], $17::int[], $18::int[], $19::int[], $20::boolean[], $21::int[])
         AS u(t, cl, ca, cr, so, ir, fl, dm, pu, up, rh, ua, ch, cm, cp, al, ma, ag, at, hr, ip),
            (SELECT $22::text[] AS d) AS dict`,
    [
      e.map((r) => r.receivedAt.getTime()), // epoch ms: numbers travel and parse cheaper than text
      e.map((r) => r.clientId),
      e.map((r) => r.campaignId),
      text((r) => r.campaignRef),
      text((r) => r.source),
      text((r) => r.invalidReason),
      // Flags never hold a comma (their values are fixed words and parameter or source names).
      text((r) => r.flags.join(',')),
      text((r) => r.domain),
      text((r) => r.pageUrl),
      text((r) => r.urlPath),
      text((r) => r.referrerHost),
      text((r) => r.userAgent),
      text((r) => r.secChUa),
      text((r) => r.secChUaMobile),
      text((r) => r.secChUaPlatform),
      text((r) => r.acceptLanguage),
      text((r) => (r.macros ? JSON.stringify(r.macros) : null)),
      text((r) => r.agent),
      text((r) => r.agentType),
      e.map((r) => r.highRisk),
      text((r) => r.ipPrefix),
      dict.values,
    ],
  )
}
