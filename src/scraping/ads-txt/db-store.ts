/**
 * The ads.txt cache in the database (`ads_txt`, one row per root domain): every process and every
 * URL of a domain share one copy. Expired rows are kept: they are the "last good copy" the service
 * serves while a re-fetch fails.
 */
import type { Queryable } from '../../platform/db/db.ts'
import type { AdsTxtResult } from './fetch-ads-txt.ts'
import type { AdsTxtEntry, AdsTxtVariables } from './parse.ts'
import { emptyVariables } from './parse.ts'
import type { AdsTxtCacheEntry, AdsTxtStore } from './service.ts'
import { ADS_TXT_ERROR_TTL_MS, ADS_TXT_TTL_MS } from './service.ts'

interface Row {
  domain: string
  status: AdsTxtResult['status']
  seller_count: number
  entries: AdsTxtEntry[]
  variables: AdsTxtVariables | null
  invalid_lines: number
  source_url: string | null
  reason: string | null
  fetched_at: Date
  expires_at: Date | null
}

function toEntry(r: Row): AdsTxtCacheEntry {
  const ttl = r.status === 'error' ? ADS_TXT_ERROR_TTL_MS : ADS_TXT_TTL_MS
  return {
    result: {
      status: r.status,
      seller_count: r.seller_count,
      entries: r.entries,
      variables: { ...emptyVariables(), ...r.variables },
      invalid_lines: r.invalid_lines,
      domain: r.domain,
      source_url: r.source_url,
      reason: r.reason,
      fetched_at: r.fetched_at.toISOString(),
    },
    expiresAt: (r.expires_at ?? new Date(r.fetched_at.getTime() + ttl)).getTime(),
  }
}

export function createDbAdsTxtStore(db: Queryable): AdsTxtStore {
  return {
    async get(domain) {
      const { rows } = await db.query<Row>(
        `SELECT domain, status, seller_count, entries, variables, invalid_lines, source_url, reason, fetched_at, expires_at
           FROM ads_txt WHERE domain = $1`,
        [domain],
      )
      return rows[0] ? toEntry(rows[0]) : null
    },
    async set(domain, { result: r, expiresAt }) {
      await db.query(
        `INSERT INTO ads_txt (domain, status, seller_count, entries, variables, invalid_lines, source_url, reason, fetched_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         ON CONFLICT (domain) DO UPDATE SET status = EXCLUDED.status, seller_count = EXCLUDED.seller_count,
           entries = EXCLUDED.entries, variables = EXCLUDED.variables, invalid_lines = EXCLUDED.invalid_lines,
           source_url = EXCLUDED.source_url, reason = EXCLUDED.reason, fetched_at = EXCLUDED.fetched_at,
           expires_at = EXCLUDED.expires_at`,
        [
          domain,
          r.status,
          r.seller_count,
          JSON.stringify(r.entries),
          JSON.stringify(r.variables),
          r.invalid_lines,
          r.source_url,
          r.reason,
          new Date(r.fetched_at),
          new Date(expiresAt),
        ],
      )
    },
  }
}

/** The domains among `domains` whose cached copy is still valid at `now`, and no older than `maxAgeMs` when given (no fetch needed). */
export async function freshAdsTxtDomains(db: Queryable, domains: string[], now: Date, maxAgeMs?: number): Promise<Set<string>> {
  if (!domains.length) return new Set()
  const { rows } = await db.query<{ domain: string }>(
    `SELECT domain FROM ads_txt WHERE domain = ANY($1::text[]) AND expires_at > $2 AND ($3::timestamptz IS NULL OR fetched_at >= $3)`,
    [domains, now, maxAgeMs === undefined ? null : new Date(now.getTime() - maxAgeMs)],
  )
  return new Set(rows.map((r) => r.domain))
}
