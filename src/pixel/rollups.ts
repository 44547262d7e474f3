// The pre-aggregated tables reports read (migrations/0005_pixel.sql), updated in the transaction
// that inserts each batch of raw events. Three grains of the same loads, so each report section
// reads the smallest table that answers it:
//   pixel_rollup_agents    campaign × day × agent type × agent            summary, agents, data by date/agent/type
//   pixel_rollup_paths     campaign × day × URL path                      hot-spot candidates, data by date/url
//   pixel_rollup_daily     campaign × day × agent type × agent × URL path   dominant agents, data by agent × url
// and pixel_rollup_referrals (AI-referred human loads per day, source and path).
// A batch is summed in memory first, so one statement touches each rollup row once; tables are
// written in a fixed order and rows in key order, so writers sharing rows (collectors, log ingest)
// lock them in the same order and cannot deadlock.
import type { Queryable } from '../platform/db/db.ts'
import type { EventRow } from './ingest/event.ts'

interface Table {
  name: string
  /** Key columns after campaign_id, with their types. */
  keys: [string, string][]
  /** Counters added up on conflict. */
  sums: string[]
}

const AGENTS: Table = { name: 'pixel_rollup_agents', keys: [['day', 'date'], ['agent_type', 'text'], ['agent', 'text']], sums: ['loads', 'high_risk_loads'] }
const PATHS: Table = { name: 'pixel_rollup_paths', keys: [['day', 'date'], ['url_path', 'text']], sums: ['loads', 'bot_loads'] }
const DAILY: Table = {
  name: 'pixel_rollup_daily',
  keys: [['day', 'date'], ['agent_type', 'text'], ['agent', 'text'], ['url_path', 'text']],
  sums: ['loads', 'high_risk_loads'],
}
const REFERRALS: Table = { name: 'pixel_rollup_referrals', keys: [['day', 'date'], ['source', 'text'], ['url_path', 'text']], sums: ['loads'] }

/** Sums of one batch for one table: cell id -> [client_id, campaign_id, ...keys, ...sums]. */
class Cells {
  readonly #cells = new Map<string, (string | number)[]>()
  constructor(readonly table: Table) {}

  /** Adds `sums` to the cell `id`; `row` builds the cell when it is new (so no array per call). */
  add(id: string, row: () => (string | number)[], a: number, b = 0): void {
    let cell = this.#cells.get(id)
    if (!cell) {
      cell = row()
      this.#cells.set(id, cell)
    }
    const at = cell.length - this.table.sums.length
    ;(cell[at] as number) += a
    if (this.table.sums.length > 1) (cell[at + 1] as number) += b
  }

  async upsert(tx: Queryable): Promise<void> {
    if (this.#cells.size === 0) return
    const rows = [...this.#cells.keys()].sort().map((k) => this.#cells.get(k)!)
    const { name, keys, sums } = this.table
    const cols = ['client_id', 'campaign_id', ...keys.map(([k]) => k), ...sums]
    const types = ['bigint', 'bigint', ...keys.map(([, t]) => t), ...sums.map(() => 'bigint')]
    await tx.query(
      `INSERT INTO ${name} AS r (${cols.join(', ')})
       SELECT * FROM unnest(${types.map((t, i) => `$${i + 1}::${t}[]`).join(', ')})
       ON CONFLICT (campaign_id, ${keys.map(([k]) => k).join(', ')})
       DO UPDATE SET ${sums.map((s) => `${s} = r.${s} + EXCLUDED.${s}`).join(', ')}`,
      cols.map((_c, i) => rows.map((r) => r[i])),
    )
  }
}

/** Adds the valid events of a batch to every rollup. */
export async function addToRollups(tx: Queryable, events: readonly EventRow[]): Promise<void> {
  const agents = new Cells(AGENTS)
  const paths = new Cells(PATHS)
  const daily = new Cells(DAILY)
  const referrals = new Cells(REFERRALS)
  for (const e of events) {
    const { clientId: cl, campaignId: ca, day, agentType, urlPath, aiReferrer } = e
    if (e.invalidReason !== null || ca === null || cl === null) continue
    const agent = e.agent ?? '' // humans: '' in a key column
    const risky = e.highRisk ? 1 : 0
    const base = `${ca}\u0000${day}\u0000`
    agents.add(`${base}${agentType}\u0000${agent}`, () => [cl, ca, day, agentType, agent, 0, 0], 1, risky)
    paths.add(`${base}${urlPath}`, () => [cl, ca, day, urlPath, 0, 0], 1, agentType === 'human' ? 0 : 1)
    daily.add(`${base}${agentType}\u0000${agent}\u0000${urlPath}`, () => [cl, ca, day, agentType, agent, urlPath, 0, 0], 1, risky)
    if (aiReferrer !== null) referrals.add(`${base}${aiReferrer}\u0000${urlPath}`, () => [cl, ca, day, aiReferrer, urlPath, 0], 1)
  }
  for (const cells of [agents, paths, daily, referrals]) await cells.upsert(tx)
}
