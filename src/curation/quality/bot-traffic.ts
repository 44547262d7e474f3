/**
 * Bot-heavy domains, from pixel traffic. The pixel's batch writes (src/pixel/rollups.ts) fill
 * `domain_traffic_stats` (created by migration 0003): one row per serving registrable domain with
 * every valid load of every campaign and the non-human ones among them. Callers may also look up
 * host names (a row for a host would judge that subdomain on its own; the pixel writes none).
 * Until a domain has rows, it is not bot-heavy.
 */
import type { Queryable } from '../../platform/db/db.ts'

export interface DomainTraffic {
  domain: string
  loads: number
  non_human_loads: number
  /** non_human_loads / loads (0 when there were no loads). */
  share: number
}

export async function botShareByDomain(db: Queryable, domains: string[]): Promise<Map<string, DomainTraffic>> {
  const out = new Map<string, DomainTraffic>()
  if (!domains.length) return out
  const { rows } = await db.query<{ domain: string; loads: number; non_human_loads: number }>(
    `SELECT domain, loads, non_human_loads FROM domain_traffic_stats WHERE domain = ANY($1::text[])`,
    [domains],
  )
  for (const r of rows) {
    out.set(r.domain, { ...r, share: r.loads > 0 ? Math.min(1, r.non_human_loads / r.loads) : 0 })
  }
  return out
}

/** True when the traffic makes a domain bot-heavy: enough loads to judge, and the non-human share at or over the threshold. */
export function isBotHeavy(t: DomainTraffic | undefined, minLoads: number, shareThreshold: number): boolean {
  return t !== undefined && t.loads >= minLoads && t.loads > 0 && t.share >= shareThreshold
}
