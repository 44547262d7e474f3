// A publisher report, computed from the rollups alone (never the raw events; rollups.ts), in one
// read-only snapshot so every section counts the same loads. Row shapes and denominators:
// docs/pixel.md, "Publisher reports".
import type { Db, Queryable } from '../../platform/db/db.ts'
import { agentRecord } from '../agents/classify.ts'
import { AI_REFERRER_OPERATORS } from '../ingest/ai-referrers.ts'
import { UNKNOWN_PATH } from '../ingest/event.ts'
import type { Dimension, ReportResult } from '../schemas.ts'

export interface ReportRequest {
  campaignId: number
  startDate: string
  endDate: string
  dimensions: Dimension[]
  hotSpotMinLoads: number
}

export const HOT_SPOT_LIMIT = 20
export const DATA_ROW_LIMIT = 50_000
const TOP_REFERRED_URLS = 10
const LOAD_TYPES = ['human', 'search', 'llm_training', 'llm_retrieval', 'scraper'] as const

/** Fractions keep six decimals: exact enough, and stable to compare. */
const frac = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1e6) / 1e6 : 0)

export async function computeReport(db: Db, clientId: number, req: ReportRequest): Promise<ReportResult> {
  return db.transaction(async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY')
    const args = [clientId, req.campaignId, req.startDate, req.endDate]
    const byAgent = await agentTotals(tx, args)

    const loadsOf = (type: string) => byAgent.filter((r) => r.agent_type === type).reduce((s, r) => s + r.loads, 0)
    const total = byAgent.reduce((s, r) => s + r.loads, 0)
    const human = loadsOf('human')
    const nonHuman = total - human
    const highRiskAgents = new Set(byAgent.filter((r) => r.high_risk > 0 && r.agent !== '').map((r) => r.agent))
    const summary = {
      total_loads: total,
      human_loads: human,
      non_human_loads: nonHuman,
      non_human_pct: frac(nonHuman, total),
      llm_agent_pct: frac(loadsOf('llm_training') + loadsOf('llm_retrieval'), total),
      search_bot_pct: frac(loadsOf('search'), total),
      scraper_pct: frac(loadsOf('scraper'), total),
      high_risk_bot_count: highRiskAgents.size,
      high_risk_loads: byAgent.reduce((s, r) => s + r.high_risk, 0),
    }
    const agents = byAgent
      .filter((r) => r.agent_type !== 'human')
      .sort((a, b) => b.loads - a.loads || cmp(a.agent, b.agent))
      .map((r) => ({ agent: r.agent, type: r.agent_type, loads: r.loads, pct_of_non_human: frac(r.loads, nonHuman) }))

    const hotSpots = await hotSpotRows(tx, [...args, req.hotSpotMinLoads, HOT_SPOT_LIMIT, UNKNOWN_PATH])
    const data = req.dimensions.length ? await dataRows(tx, args, req.dimensions) : null
    const aiReferrals = await referrals(tx, args, human, byAgent)
    return {
      summary,
      agents,
      hot_spots: hotSpots,
      data: data?.rows ?? null,
      data_truncated: data?.truncated ?? false,
      ai_referrals: aiReferrals,
    }
  })
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

// Every query reads one rollup table, this client's campaign, over the report's days.
const range = (table: string) => `FROM ${table} WHERE client_id = $1 AND campaign_id = $2 AND day BETWEEN $3 AND $4`

interface AgentTotal {
  agent_type: string
  agent: string
  loads: number
  high_risk: number
}

async function agentTotals(tx: Queryable, args: unknown[]): Promise<AgentTotal[]> {
  const { rows } = await tx.query<AgentTotal>(
    `SELECT agent_type, agent, sum(loads)::bigint AS loads, sum(high_risk_loads)::bigint AS high_risk
       ${range('pixel_rollup_agents')} GROUP BY agent_type, agent`,
    args,
  )
  return rows
}

async function hotSpotRows(tx: Queryable, args: unknown[]) {
  // The paths with the largest non-human share among those with enough loads (from the per-path
  // rollup), then, for those paths only, the non-human agent with the most loads (per-path index).
  const { rows } = await tx.query<{ url_path: string; loads: number; bot_loads: number; agent: string }>(
    `WITH top AS (
       SELECT url_path, sum(loads) AS loads, sum(bot_loads) AS bot_loads
         ${range('pixel_rollup_paths')} AND url_path <> $7
        GROUP BY url_path
       HAVING sum(loads) >= $5 AND sum(bot_loads) > 0
        ORDER BY sum(bot_loads) / sum(loads) DESC, sum(loads) DESC, url_path COLLATE "C"
        LIMIT $6
     ), dominant AS (
       SELECT DISTINCT ON (url_path) url_path, agent
         FROM (SELECT url_path, agent, sum(loads) AS loads
                 ${range('pixel_rollup_daily')} AND agent_type <> 'human' AND url_path IN (SELECT url_path FROM top)
                GROUP BY url_path, agent) AS per_agent
        ORDER BY url_path, loads DESC, agent COLLATE "C"
     )
     SELECT t.url_path, t.loads::bigint AS loads, t.bot_loads::bigint AS bot_loads, d.agent
       FROM top t JOIN dominant d ON d.url_path = t.url_path
      ORDER BY t.bot_loads / t.loads DESC, t.loads DESC, t.url_path COLLATE "C"`,
    args,
  )
  return rows.map((r) => ({ url: r.url_path, bot_pct: frac(r.bot_loads, r.loads), loads: r.loads, dominant_agent: r.agent }))
}

// Dimension -> [column expression, output field].
const DIMENSION_SQL: Record<Dimension, [string, string]> = {
  date: ['day', 'date'],
  agent: ['agent', 'agent'],
  agent_type: ['agent_type', 'agent_type'],
  url: ['url_path', 'url'],
}
// Rows come out in this dimension order, whatever order they were requested in.
const DIMENSION_ORDER: Dimension[] = ['date', 'agent_type', 'agent', 'url']

type DataRow = { date?: string; agent?: string | null; agent_type?: string; url?: string; loads: number }

async function dataRows(tx: Queryable, args: unknown[], dims: Dimension[]): Promise<{ rows: DataRow[]; truncated: boolean }> {
  const ordered = DIMENSION_ORDER.filter((d) => dims.includes(d))
  const cols = ordered.map((d) => `${DIMENSION_SQL[d][0]} AS ${DIMENSION_SQL[d][1]}`)
  const groups = ordered.map((d) => DIMENSION_SQL[d][0])
  // The smallest rollup that holds every requested dimension. Agents by path: pixel_rollup_daily
  // holds the agents, and a path's human loads are the per-path rollup's loads less its bot loads.
  const from = ordered.every((d) => d !== 'url')
    ? range('pixel_rollup_agents')
    : ordered.every((d) => d === 'url' || d === 'date')
      ? range('pixel_rollup_paths')
      : `FROM (SELECT day, agent_type, agent, url_path, loads ${range('pixel_rollup_daily')}
               UNION ALL
               SELECT day, 'human', '', url_path, loads - bot_loads ${range('pixel_rollup_paths')} AND loads > bot_loads) AS loads_by_agent`
  const { rows } = await tx.query<Record<string, string | number>>(
    `SELECT ${cols.join(', ')}, sum(loads)::bigint AS loads ${from}
      GROUP BY ${groups.join(', ')}
      ORDER BY loads DESC, ${groups.map((g) => `${g}${g === 'day' ? '' : ' COLLATE "C"'}`).join(', ')}
      LIMIT ${DATA_ROW_LIMIT + 1}`,
    args,
  )
  const truncated = rows.length > DATA_ROW_LIMIT
  const out: DataRow[] = rows.slice(0, DATA_ROW_LIMIT).map((r) => {
    const row: DataRow = { loads: Number(r.loads) }
    if (r.date !== undefined) row.date = String(r.date)
    if (r.agent_type !== undefined) row.agent_type = String(r.agent_type)
    if (r.agent !== undefined) row.agent = r.agent === '' ? null : String(r.agent)
    if (r.url !== undefined) row.url = String(r.url)
    return row
  })
  const typeRank = (t: string | undefined) => LOAD_TYPES.indexOf(t as (typeof LOAD_TYPES)[number])
  out.sort(
    (a, b) =>
      cmp(a.date ?? '', b.date ?? '') || typeRank(a.agent_type) - typeRank(b.agent_type) || cmp(a.agent ?? '', b.agent ?? '') || cmp(a.url ?? '', b.url ?? ''),
  )
  return { rows: out, truncated }
}

async function referrals(tx: Queryable, args: unknown[], humanLoads: number, byAgent: AgentTotal[]) {
  const from = range('pixel_rollup_referrals')
  const sources = (await tx.query<{ source: string; loads: number }>(`SELECT source, sum(loads)::bigint AS loads ${from} GROUP BY source`, args)).rows
  const urls = (
    await tx.query<{ url_path: string; loads: number }>(
      `SELECT url_path, sum(loads)::bigint AS loads ${from} GROUP BY url_path ORDER BY loads DESC, url_path COLLATE "C" LIMIT ${TOP_REFERRED_URLS}`,
      args,
    )
  ).rows
  const total = sources.reduce((s, r) => s + r.loads, 0)
  // Crawls: loads by an operator's LLM agents (training and retrieval), for the crawl-to-refer ratio.
  const crawls = new Map<string, number>()
  for (const r of byAgent) {
    if (r.agent_type !== 'llm_training' && r.agent_type !== 'llm_retrieval') continue
    const operator = agentRecord(r.agent)?.operator
    if (operator) crawls.set(operator, (crawls.get(operator) ?? 0) + r.loads)
  }
  return {
    loads: total,
    pct_of_human: frac(total, humanLoads),
    sources: sources
      .sort((a, b) => b.loads - a.loads || cmp(a.source, b.source))
      .map((s) => {
        const operator = AI_REFERRER_OPERATORS[s.source] ?? s.source
        const c = crawls.get(operator) ?? 0
        return {
          source: s.source,
          operator,
          loads: s.loads,
          pct_of_ai_referrals: frac(s.loads, total),
          crawls: c,
          crawl_to_refer: s.loads > 0 ? Math.round((c / s.loads) * 100) / 100 : null,
        }
      }),
    top_urls: urls.map((u) => ({ url: u.url_path, loads: u.loads })),
  }
}
