// The pre-aggregated tables reports read (migrations/0005_pixel.sql), updated in the transaction
// that inserts each batch of raw events. Three grains of the same loads, so each report section
// reads the smallest table that answers it:
//   pixel_rollup_agents    campaign × day × agent type × agent            summary, agents, data by date/agent/type
//   pixel_rollup_paths     campaign × day × URL path                      hot-spot candidates, data by date/url
//   pixel_rollup_daily     campaign × day × agent type × agent × URL path   dominant agents, data by agent × url
//                          (agents only: a path's human loads are its paths row's loads less bot loads)
// and pixel_rollup_referrals (AI-referred human loads per day, source and path).
// Outside the campaign's own reports, the same batch feeds what other features read
// (migrations/0009_attribution.sql, docs/reports.md):
//   deal_delivery_daily     deal × day × serving domain × currency      segment performance reports
//   deal_usage              deal × day impressions                       the Deal ID lifecycle ("in use")
//   domain_delivery_stats   serving domain: impressions, clicks          KPI shaping of deals
//   domain_traffic_stats    serving domain: loads, non-human loads       the bot-heavy domain filter
// The three deal tables take only deal ids of an activation of the campaign's own client (a join
// in the statement that writes them); click redirects add their clicks through the same statements
// (clicks/recorder.ts).
// A batch is summed in memory first and written by one statement that touches each rollup row
// once; tables are written in a fixed order and rows in key order, so writers sharing rows
// (collectors, log ingest) lock them in the same order and cannot deadlock.
import { registrableDomain } from '../content/urls/domains.ts'
import type { Queryable } from '../platform/db/db.ts'
import type { EventRow } from './ingest/event.ts'
import { isUnexpanded } from './ingest/params.ts'

interface Table {
  name: string
  /** Key columns after campaign_id, with their types. */
  keys: [string, string][]
  /** Counters added up on conflict. */
  sums: string[]
}

const AGENTS: Table = {
  name: 'pixel_rollup_agents',
  keys: [
    ['day', 'date'],
    ['agent_type', 'text'],
    ['agent', 'text'],
  ],
  sums: ['loads', 'high_risk_loads'],
}
const PATHS: Table = {
  name: 'pixel_rollup_paths',
  keys: [
    ['day', 'date'],
    ['url_path', 'text'],
  ],
  sums: ['loads', 'bot_loads'],
}
const DAILY: Table = {
  name: 'pixel_rollup_daily',
  keys: [
    ['day', 'date'],
    ['agent_type', 'text'],
    ['agent', 'text'],
    ['url_path', 'text'],
  ],
  sums: ['loads', 'high_risk_loads'],
}
const REFERRALS: Table = {
  name: 'pixel_rollup_referrals',
  keys: [
    ['day', 'date'],
    ['source', 'text'],
    ['url_path', 'text'],
  ],
  sums: ['loads'],
}

/** Sums of one batch for one table: cell id -> [client_id, campaign_id, ...keys, ...sums]. */
class Cells {
  readonly #cells = new Map<number, (string | number)[]>()
  constructor(readonly table: Table) {}

  /** Adds to the sums of cell `id`; false when there is no such cell yet (then `put` it). */
  add(id: number, a: number, b = 0): boolean {
    const cell = this.#cells.get(id)
    if (cell === undefined) return false
    const at = cell.length - this.table.sums.length
    ;(cell[at] as number) += a
    if (this.table.sums.length > 1) (cell[at + 1] as number) += b
    return true
  }

  /** A new cell: [client_id, campaign_id, ...keys, ...sums]. */
  put(id: number, cell: (string | number)[]): void {
    this.#cells.set(id, cell)
  }

  /** The upsert of this batch's cells, its arrays appended to `params`; null when there are none. */
  upsert(params: unknown[]): string | null {
    if (this.#cells.size === 0) return null
    const { name, keys, sums } = this.table
    const rows = [...this.#cells.values()].sort(byKey(2 + keys.length))
    const cols = ['client_id', 'campaign_id', ...keys.map(([k]) => k), ...sums]
    const types = ['bigint', 'bigint', ...keys.map(([, t]) => t), ...sums.map(() => 'bigint')]
    const first = params.length + 1
    params.push(...cols.map((_c, i) => rows.map((r) => r[i])))
    return `INSERT INTO ${name} AS r (${cols.join(', ')})
       SELECT * FROM unnest(${types.map((t, i) => `$${first + i}::${t}[]`).join(', ')})
       ON CONFLICT (campaign_id, ${keys.map(([k]) => k).join(', ')})
       DO UPDATE SET ${sums.map((s) => `${s} = r.${s} + EXCLUDED.${s}`).join(', ')}`
  }
}

/** Orders cells by their key columns (campaign_id onwards, up to `end`): the same order for every writer. */
const byKey =
  (end: number) =>
  (a: (string | number)[], b: (string | number)[]): number => {
    for (let i = 1; i < end; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1
    return 0
  }

/**
 * Dense small-integer ids for the strings and key tuples of one batch, so a cell is found by a
 * number: building and hashing a string key per event and table cost more than the rest of adding it.
 */
class Ids {
  readonly #values = new Map<string | number, number>()
  // a -> b -> id: two lookups by small integers (one key a·N + b would leave the small-integer
  // range, and allocate a number per lookup)
  readonly #pairs = new Map<number, Map<number, number>>()
  #nextPair = 0

  of(v: string | number): number {
    let id = this.#values.get(v)
    if (id === undefined) {
      id = this.#values.size
      this.#values.set(v, id)
    }
    return id
  }

  /** One id per (a, b). */
  pair(a: number, b: number): number {
    let inner = this.#pairs.get(a)
    if (inner === undefined) {
      inner = new Map()
      this.#pairs.set(a, inner)
    }
    let id = inner.get(b)
    if (id === undefined) {
      id = this.#nextPair++
      inner.set(b, id)
    }
    return id
  }
}

/** The rollup sums of a batch of events, added one event at a time and written in one go. */
export class RollupBatch {
  readonly #agents = new Cells(AGENTS)
  readonly #paths = new Cells(PATHS)
  readonly #daily = new Cells(DAILY)
  readonly #referrals = new Cells(REFERRALS)
  readonly #deals = new DealCells()
  readonly #traffic = new TrafficCells()
  readonly #domains = new Domains()
  readonly #ids = new Ids()
  #latest = new Date(0)

  /** Adds one event; invalid ones (unknown campaign, junk parameters) count nowhere. */
  add(e: EventRow): void {
    const { clientId: cl, campaignId: ca, day, agentType, urlPath, aiReferrer } = e
    if (e.invalidReason !== null || ca === null || cl === null) return
    if (e.receivedAt > this.#latest) this.#latest = e.receivedAt
    const agent = e.agent ?? '' // humans: '' in a key column
    const ids = this.#ids
    // Cell ids: (campaign, day) × (agent type, agent) × path; the same id in two tables is no clash.
    const scope = ids.pair(ids.of(ca), ids.of(day))
    const path = ids.of(urlPath)
    const byAgent = ids.pair(scope, ids.pair(ids.of(agentType), ids.of(agent)))
    const risky = e.highRisk ? 1 : 0
    const bot = agentType === 'human' ? 0 : 1
    if (!this.#agents.add(byAgent, 1, risky)) this.#agents.put(byAgent, [cl, ca, day, agentType, agent, 1, risky])
    const byPath = ids.pair(scope, path)
    if (!this.#paths.add(byPath, 1, bot)) this.#paths.put(byPath, [cl, ca, day, urlPath, 1, bot])
    // Human loads per path are the paths rollup's loads less its bot loads: only agents here.
    if (bot) {
      const cell = ids.pair(byAgent, path)
      if (!this.#daily.add(cell, 1, risky)) this.#daily.put(cell, [cl, ca, day, agentType, agent, urlPath, 1, risky])
    }
    if (aiReferrer !== null) {
      const cell = ids.pair(ids.pair(scope, ids.of(aiReferrer)), path)
      if (!this.#referrals.add(cell, 1)) this.#referrals.put(cell, [cl, ca, day, aiReferrer, urlPath, 1])
    }
    const domain = e.domain === null ? '' : this.#domains.of(e.domain)
    if (domain) this.#traffic.add(domain, bot === 1, e.receivedAt)
    // Ad impressions are what a DSP's impression tracker reports; log lines are page views.
    const deal = e.source === 'log' ? null : realDealId(e.macros?.deal)
    if (deal !== null) {
      const price = cpmPrice(e.macros?.price)
      this.#deals.add(cl, deal, day, domain, price === null ? '' : currencyOf(e.macros?.cur), {
        impressions: 1,
        nonHumanImpressions: bot,
        pricedImpressions: price === null ? 0 : 1,
        spendMicros: price === null ? 0 : Math.round(price * 1000),
        clicks: 0,
        nonHumanClicks: 0,
      })
    }
  }

  /** Adds the sums to every rollup table, in the caller's transaction, with one statement. */
  async write(tx: Queryable): Promise<void> {
    const params: unknown[] = []
    const ctes: [string, string][] = []
    const cells = [this.#agents, this.#paths, this.#daily, this.#referrals, this.#traffic]
    cells.forEach((c, i) => {
      const sql = c.upsert(params)
      if (sql !== null) ctes.push([`rollup_${i}`, sql])
    })
    await runTogether(tx, [...ctes, ...this.#deals.ctes(params, this.#latest)], params)
  }
}

/**
 * Runs statements as the WITH clauses of one: each statement costs the embedded engine about a
 * millisecond however small, and a batch writes up to ten tables. PostgreSQL runs every
 * data-modifying WITH clause to completion, in an order fixed by the statement's shape, so
 * writers lock tables in the same order; each rollup row is updated once (a batch is summed first).
 */
async function runTogether(tx: Queryable, ctes: [string, string][], params: unknown[]): Promise<void> {
  if (ctes.length === 0) return
  await tx.query(`WITH ${ctes.map(([name, sql]) => `${name} AS (${sql})`).join(',\n')}\nSELECT 1`, params)
}

// --- Deal delivery and domain traffic ---------------------------------------------------------

// Deal IDs are printable ASCII without spaces, 64 characters at most (docs/activation.md).
const DEAL_ID = /^[\x21-\x7e]{1,64}$/

/**
 * The `deal` macro when it holds a real Deal ID: shaped like one, not left unexpanded
 * (`%%TTD_DEALID%%`, `${DEAL_ID}`) and not OpenRTB's `AUDIT` stand-in.
 */
export function realDealId(v: string | undefined): string | null {
  if (!v || !DEAL_ID.test(v) || v === 'AUDIT' || isUnexpanded(v)) return null
  return v
}

// A clear decimal price. Encrypted prices (Google's %%WINNING_PRICE%%) cannot be read here, and a
// CPM above ten million in any currency is junk: both leave the impression unpriced.
const DECIMAL_PRICE = /^\d{1,8}(?:\.\d{1,10})?$/

/** The `price` macro as a CPM (clearing price per thousand impressions), or null when unreadable. */
export function cpmPrice(v: string | undefined): number | null {
  return v !== undefined && DECIMAL_PRICE.test(v) ? Number(v) : null
}

const CURRENCY = /^[A-Za-z]{3}$/
/** The `cur` macro as an ISO 4217-shaped code; '' when absent or not a code. */
export function currencyOf(v: string | undefined): string {
  return v !== undefined && CURRENCY.test(v) ? v.toUpperCase() : ''
}

/** A batch's serving domains reduced to registrable domains, each computed once. */
class Domains {
  readonly #seen = new Map<string, string>()
  of(host: string): string {
    let d = this.#seen.get(host)
    if (d === undefined) {
      d = registrableDomain(host)
      this.#seen.set(host, d)
    }
    return d
  }
}

export interface DeliveryCounts {
  impressions: number
  nonHumanImpressions: number
  pricedImpressions: number
  spendMicros: number
  clicks: number
  nonHumanClicks: number
}

/**
 * Deal delivery of one batch: client × deal × day × domain × currency -> counts. Written by one
 * statement that keeps only deal ids of the client's activations and feeds deal_delivery_daily,
 * deal_usage and domain_delivery_stats from the same matched rows.
 */
export class DealCells {
  readonly #cells = new Map<number, { key: [number, string, string, string, string]; n: DeliveryCounts }>()
  readonly #ids = new Ids()

  add(clientId: number, deal: string, day: string, domain: string, currency: string, n: DeliveryCounts): void {
    const ids = this.#ids
    const id = ids.pair(ids.pair(ids.pair(ids.of(clientId), ids.of(deal)), ids.of(day)), ids.pair(ids.of(domain), ids.of(currency)))
    const cell = this.#cells.get(id)
    if (!cell) {
      this.#cells.set(id, { key: [clientId, deal, day, domain, currency], n: { ...n } })
      return
    }
    const c = cell.n
    c.impressions += n.impressions
    c.nonHumanImpressions += n.nonHumanImpressions
    c.pricedImpressions += n.pricedImpressions
    c.spendMicros += n.spendMicros
    c.clicks += n.clicks
    c.nonHumanClicks += n.nonHumanClicks
  }

  get size(): number {
    return this.#cells.size
  }

  /** `now`: the batch's latest time, stamped on the domain rows it touches. */
  async upsert(tx: Queryable, now: Date): Promise<void> {
    const params: unknown[] = []
    await runTogether(tx, this.ctes(params, now), params)
  }

  /**
   * The statements writing this batch's cells, as WITH clauses (see runTogether), their values
   * appended to `params`: only deal ids of an activation of the client count, and deal_usage and
   * domain_delivery_stats are fed from the same matched rows. Rows go in key order (ORDER BY), so
   * writers sharing rows lock them in the same order.
   */
  ctes(params: unknown[], now: Date): [string, string][] {
    if (this.#cells.size === 0) return []
    const cells = [...this.#cells.values()]
    const col = <T>(f: (c: (typeof cells)[number]) => T) => cells.map(f)
    const $ =
      params.push(
        col((c) => c.key[0]),
        col((c) => c.key[1]),
        col((c) => c.key[2]),
        col((c) => c.key[3]),
        col((c) => c.key[4]),
        col((c) => c.n.impressions),
        col((c) => c.n.nonHumanImpressions),
        col((c) => c.n.pricedImpressions),
        col((c) => c.n.spendMicros),
        col((c) => c.n.clicks),
        col((c) => c.n.nonHumanClicks),
        now,
      ) - 11
    return [
      [
        'deal_batch',
        `SELECT * FROM unnest($${$}::bigint[], $${$ + 1}::text[], $${$ + 2}::date[], $${$ + 3}::text[], $${$ + 4}::text[],
                              $${$ + 5}::bigint[], $${$ + 6}::bigint[], $${$ + 7}::bigint[], $${$ + 8}::bigint[], $${$ + 9}::bigint[], $${$ + 10}::bigint[])
           AS b(client_id, deal_id, day, domain, currency, impressions, non_human_impressions,
                priced_impressions, spend_micros, clicks, non_human_clicks)`,
      ],
      ['deal_matched', `SELECT a.id AS activation_id, b.* FROM deal_batch b JOIN activations a ON a.deal_id = b.deal_id AND a.client_id = b.client_id`],
      [
        'deal_usage_added',
        `INSERT INTO deal_usage AS u (deal_id, day, impressions)
         SELECT deal_id, day, sum(impressions) FROM deal_matched GROUP BY deal_id, day HAVING sum(impressions) > 0 ORDER BY deal_id, day
         ON CONFLICT (deal_id, day) DO UPDATE SET impressions = u.impressions + EXCLUDED.impressions`,
      ],
      [
        'domain_delivery_added',
        `INSERT INTO domain_delivery_stats AS s (domain, impressions, clicks, updated_at)
         SELECT domain, sum(impressions), sum(clicks), $${$ + 11}::timestamptz FROM deal_matched WHERE domain <> '' GROUP BY domain ORDER BY domain
         ON CONFLICT (domain) DO UPDATE SET impressions = s.impressions + EXCLUDED.impressions, clicks = s.clicks + EXCLUDED.clicks,
                                           updated_at = greatest(s.updated_at, EXCLUDED.updated_at)`,
      ],
      [
        'deal_delivery_added',
        `INSERT INTO deal_delivery_daily AS r (deal_id, day, domain, currency, client_id, activation_id, impressions,
                                             non_human_impressions, priced_impressions, spend_micros, clicks, non_human_clicks)
       SELECT deal_id, day, domain, currency, client_id, activation_id, impressions,
              non_human_impressions, priced_impressions, spend_micros, clicks, non_human_clicks
         FROM deal_matched ORDER BY deal_id, day, domain, currency
       ON CONFLICT (deal_id, day, domain, currency) DO UPDATE SET
         impressions = r.impressions + EXCLUDED.impressions,
         non_human_impressions = r.non_human_impressions + EXCLUDED.non_human_impressions,
         priced_impressions = r.priced_impressions + EXCLUDED.priced_impressions,
         spend_micros = r.spend_micros + EXCLUDED.spend_micros,
         clicks = r.clicks + EXCLUDED.clicks,
         non_human_clicks = r.non_human_clicks + EXCLUDED.non_human_clicks`,
      ],
    ]
  }
}

/** Loads per serving (registrable) domain, all campaigns and clients together: the bot-heavy filter's input. */
class TrafficCells {
  readonly #cells = new Map<string, { loads: number; nonHuman: number; at: Date }>()

  add(domain: string, nonHuman: boolean, at: Date): void {
    const cell = this.#cells.get(domain)
    if (!cell) {
      this.#cells.set(domain, { loads: 1, nonHuman: nonHuman ? 1 : 0, at })
      return
    }
    cell.loads++
    if (nonHuman) cell.nonHuman++
    if (at > cell.at) cell.at = at
  }

  /** The upsert of this batch's domains, its arrays appended to `params`; null when there are none. */
  upsert(params: unknown[]): string | null {
    if (this.#cells.size === 0) return null
    const domains = [...this.#cells.keys()].sort()
    const cells = domains.map((d) => this.#cells.get(d)!)
    const n =
      params.push(
        domains,
        cells.map((c) => c.loads),
        cells.map((c) => c.nonHuman),
        cells.map((c) => c.at),
      ) - 3
    return `INSERT INTO domain_traffic_stats AS s (domain, loads, non_human_loads, updated_at)
       SELECT * FROM unnest($${n}::text[], $${n + 1}::bigint[], $${n + 2}::bigint[], $${n + 3}::timestamptz[])
       ON CONFLICT (domain) DO UPDATE SET loads = s.loads + EXCLUDED.loads, non_human_loads = s.non_human_loads + EXCLUDED.non_human_loads,
                                         updated_at = greatest(s.updated_at, EXCLUDED.updated_at)`
  }
}
