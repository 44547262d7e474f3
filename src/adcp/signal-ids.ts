/**
 * Signal identifiers. The signal_agent_segment_id is the catalog's own stable id, so REST and AdCP
 * name a signal the same way:
 *   iab:<taxonomy id>          marketplace: public IAB tier-1/tier-2 segment
 *   seasonal:<slug>:<year>     marketplace: seasonal segment
 *   segment:<segment id>       owned: one of the client's own segments
 *   custom:<taxonomy id>:<h>   custom: a segment proposed for a signal_spec (h: 12 hex of its hash)
 * AdCP's structured signal_id/signal_ref want `[A-Za-z0-9_-]+`, so there the colons become
 * underscores (`iab_483`); slugs never contain an underscore, so the mapping is reversible.
 */
import { createHash } from 'node:crypto'

export type SignalType = 'marketplace' | 'owned' | 'custom'

export type ParsedSignalId =
  | { kind: 'iab'; id: string; taxonomyId: number }
  | { kind: 'seasonal'; id: string }
  | { kind: 'segment'; id: string; segmentId: number }
  | { kind: 'custom'; id: string; taxonomyId: number | null; hash: string }

const maxInt = 2_147_483_647

/** Parses an id in either form (`iab:483` or `iab_483`); null when it is not one of ours. */
export function parseSignalId(raw: string): ParsedSignalId | null {
  const s = raw.trim().replaceAll('_', ':')
  let m = /^iab:(\d{1,10})$/.exec(s)
  if (m) {
    const n = Number(m[1])
    return n <= maxInt ? { kind: 'iab', id: `iab:${n}`, taxonomyId: n } : null
  }
  m = /^seasonal:([a-z0-9]+(?:-[a-z0-9]+)*):(\d{4})$/.exec(s)
  if (m) return { kind: 'seasonal', id: s }
  m = /^segment:(\d{1,10})$/.exec(s)
  if (m) {
    const n = Number(m[1])
    return n <= maxInt && n > 0 ? { kind: 'segment', id: `segment:${n}`, segmentId: n } : null
  }
  m = /^custom:(\d{1,10}):([0-9a-f]{12})$/.exec(s)
  if (m) {
    const n = Number(m[1])
    return n <= maxInt ? { kind: 'custom', id: s, taxonomyId: n === 0 ? null : n, hash: m[2]! } : null
  }
  return null
}

/** The id of the custom signal proposed for a spec and category: the same spec gives the same id. */
export function customSignalId(spec: string, taxonomyId: number | null): string {
  const normalized = spec.trim().toLowerCase().replace(/\s+/g, ' ')
  const hash = createHash('sha256')
    .update(`${taxonomyId ?? 0}|${normalized}`)
    .digest('hex')
    .slice(0, 12)
  return `custom:${taxonomyId ?? 0}:${hash}`
}

/** The `[A-Za-z0-9_-]` form used inside signal_id / signal_ref objects. */
export const wireId = (id: string): string => id.replaceAll(':', '_')

export const pricingOptionId = (id: string): string => `po_${wireId(id)}_cpm`
