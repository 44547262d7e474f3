// Is an address inside an operator's published crawler ranges? Offline: the lists ship in ip-ranges.json
// (refreshed by scripts/refresh-bot-ranges.ts) and are compiled into sorted, merged intervals, so a
// lookup is one parse plus a binary search.

import { compare128, parseCidr, parseIp } from './ip.ts'
import rangesDoc from './ip-ranges.json' with { type: 'json' }

export interface RangeList {
  operator: string
  source: string
  fetched_at: string | null
  /** True once the whole published list is held: only then does "outside" mean "not theirs". */
  complete: boolean
  prefixes: string[]
}
export interface RangesDocument {
  $comment?: string
  lists: Record<string, RangeList>
}

interface Table {
  complete: boolean
  count: number
  bounds: Uint32Array /* 8 words per interval: first, last */
}

// Lowercased list key -> [its table]; lowercased operator -> all its tables. Lists win on a name clash.
let byList = new Map<string, Table[]>()
let byOperator = new Map<string, Table[]>()

function compile(list: RangeList, key: string): Table {
  const parsed = list.prefixes.map((p) => {
    const r = parseCidr(p)
    if (!r) throw new Error(`ip ranges ${key}: bad prefix ${JSON.stringify(p)}`)
    return r
  })
  parsed.sort((a, b) => compare128(a.first, 0, b.first, 0))
  const bounds = new Uint32Array(parsed.length * 8)
  let count = 0
  for (const { first, last } of parsed) {
    const prev = (count - 1) * 8
    // Overlapping or nested prefixes are merged so the binary search sees disjoint intervals.
    if (count > 0 && compare128(first, 0, bounds, prev + 4) <= 0) {
      if (compare128(last, 0, bounds, prev + 4) > 0) bounds.set(last, prev + 4)
      continue
    }
    bounds.set(first, count * 8)
    bounds.set(last, count * 8 + 4)
    count++
  }
  return { complete: list.complete, count, bounds }
}

/** Replaces the ranges in use (e.g. after a refresh). Keys: list keys and operator names, case-insensitive. */
export function loadOperatorRanges(doc: RangesDocument): void {
  const lists = new Map<string, Table[]>()
  const operators = new Map<string, Table[]>()
  for (const [key, list] of Object.entries(doc.lists)) {
    const table = compile(list, key)
    lists.set(key.toLowerCase(), [table])
    const op = list.operator.toLowerCase()
    operators.set(op, [...(operators.get(op) ?? []), table])
  }
  byList = lists
  byOperator = operators
}

loadOperatorRanges(rangesDoc as RangesDocument)

const scratch = new Uint32Array(4)

function inTable(t: Table, addr: Uint32Array): boolean {
  let lo = 0
  let hi = t.count - 1
  while (lo <= hi) {
    // last interval whose first <= addr
    const mid = (lo + hi) >>> 1
    if (compare128(t.bounds, mid * 8, addr, 0) <= 0) lo = mid + 1
    else hi = mid - 1
  }
  return hi >= 0 && compare128(addr, 0, t.bounds, hi * 8 + 4) <= 0
}

/**
 * true: inside a published range. false: outside and the operator's lists are complete.
 * null: no such operator/list, no ranges published or loaded yet, lists still a partial seed, or `ip`
 * is not a literal address (e.g. truncated or hashed for privacy).
 */
export function isInOperatorRanges(operatorOrKey: string, ip: string): boolean | null {
  const name = String(operatorOrKey).toLowerCase()
  const tables = byList.get(name) ?? byOperator.get(name)
  if (!tables || typeof ip !== 'string' || !parseIp(ip, scratch)) return null
  let complete = true
  let any = false
  for (const t of tables) {
    if (inTable(t, scratch)) return true
    complete &&= t.complete
    any ||= t.count > 0
  }
  return complete && any ? false : null
}
