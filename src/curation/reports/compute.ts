// A segment performance report, computed from the deal delivery rollup (deal_delivery_daily, filled
// by the pixel's batch writes and click redirects; src/pixel/rollups.ts), never from raw events, in
// one read-only snapshot so every section counts the same impressions. Attribution: the report's
// segments -> this client's activations that target any of them -> their Deal IDs -> impressions
// and clicks that carried those Deal IDs. Shapes and formulas: docs/reports.md.
import type { Db, Queryable } from '../../platform/db/db.ts'
import type { SegmentReportRequest } from './repository.ts'
import type { DataRow, DealRow, Dimension, DomainRow, ReportMetrics, ReportResult } from './schemas.ts'

export const DOMAIN_LIMIT = 1000
export const DATA_ROW_LIMIT = 50_000

interface Activation {
  id: number
  deal_id: string
  dsp: string
  segment_ids: number[]
}

interface MetricSums {
  impressions: number
  non_human_impressions: number
  clicks: number
  non_human_clicks: number
  priced_impressions: number
  spend_micros: number
}

const round6 = (v: number) => Math.round(v * 1e6) / 1e6

/** The formulas of docs/reports.md "Metrics", from the rollup's sums. */
export function metrics(s: MetricSums): ReportMetrics {
  const n = (v: number | null | undefined) => Number(v ?? 0)
  const impressions = n(s.impressions)
  const clicks = n(s.clicks)
  const priced = n(s.priced_impressions)
  const micros = n(s.spend_micros)
  return {
    impressions,
    non_human_impressions: n(s.non_human_impressions),
    clicks,
    non_human_clicks: n(s.non_human_clicks),
    ctr: impressions > 0 ? round6(clicks / impressions) : 0,
    priced_impressions: priced,
    spend: round6(micros / 1e6),
    ecpm: priced > 0 ? round6(micros / priced / 1000) : 0,
  }
}

const SUMS = `sum(d.impressions) AS impressions, sum(d.non_human_impressions) AS non_human_impressions,
  sum(d.clicks) AS clicks, sum(d.non_human_clicks) AS non_human_clicks,
  coalesce(sum(d.priced_impressions) FILTER (WHERE d.currency = ANY($5::text[])), 0) AS priced_impressions,
  coalesce(sum(d.spend_micros) FILTER (WHERE d.currency = ANY($5::text[])), 0) AS spend_micros`

// $1 client, $2 activation ids, $3/$4 the days, $5 the currencies spend is summed in.
const FROM = `FROM deal_delivery_daily d WHERE d.client_id = $1 AND d.activation_id = ANY($2::bigint[]) AND d.day BETWEEN $3 AND $4`

// Rows of `data` per dimension: the expression grouped on and the column it is read back as.
// segment_id spreads each activation's rows over its segments among the report's ($6).
const DIMENSION_SQL: Record<Dimension, string> = { date: 'd.day', domain: 'd.domain', deal_id: 'd.deal_id', segment_id: 's.segment_id' }
const DIMENSION_ORDER: Dimension[] = ['date', 'segment_id', 'deal_id', 'domain']
const SEGMENT_JOIN = `JOIN (SELECT a.id AS activation_id, seg.segment_id
                             FROM activations a CROSS JOIN LATERAL unnest(a.segment_ids) AS seg(segment_id)
                            WHERE a.client_id = $1 AND a.id = ANY($2::bigint[]) AND seg.segment_id = ANY($6::bigint[])) s
                        ON s.activation_id = d.activation_id`

export async function computeSegmentReport(db: Db, clientId: number, req: SegmentReportRequest): Promise<ReportResult> {
  return db.transaction(async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY')
    const requested = new Set(req.segmentIds)
    const { rows: acts } = await tx.query<Activation>(
      `SELECT id, deal_id, dsp, segment_ids FROM activations
        WHERE client_id = $1 AND segment_ids && $2::bigint[] AND deal_id IS NOT NULL ORDER BY id`,
      [clientId, req.segmentIds],
    )
    const warnings: string[] = []
    if (!acts.length) warnings.push('none of these segments has an activation with a Deal ID: there is nothing to attribute')
    const ids = acts.map((a) => Number(a.id))
    const base = [clientId, ids, req.startDate, req.endDate]

    // Spend adds up in one currency: the one most priced impressions carried. A price sent without
    // a currency is taken to be in it; prices in any other currency are left out of spend.
    const { rows: byCurrency } = await tx.query<{ currency: string; priced: number }>(
      `SELECT d.currency, sum(d.priced_impressions) AS priced ${FROM} GROUP BY d.currency ORDER BY priced DESC, d.currency`,
      base,
    )
    const named = byCurrency.filter((c) => c.currency !== '' && Number(c.priced) > 0)
    const currency = named[0]?.currency ?? null
    for (const other of named.slice(1)) {
      warnings.push(`${Number(other.priced)} impressions priced in ${other.currency} are not in spend or eCPM, which are in ${currency}`)
    }
    const args = [...base, currency === null ? [''] : ['', currency]]

    const { rows: total } = await tx.query<MetricSums>(`SELECT ${SUMS} ${FROM}`, args)
    const summary = metrics(total[0]!)

    const { rows: perDeal } = await tx.query<MetricSums & { activation_id: number }>(`SELECT d.activation_id, ${SUMS} ${FROM} GROUP BY d.activation_id`, args)
    const dealSums = new Map(perDeal.map((r) => [Number(r.activation_id), r]))
    const zero: MetricSums = { impressions: 0, non_human_impressions: 0, clicks: 0, non_human_clicks: 0, priced_impressions: 0, spend_micros: 0 }
    const deals: DealRow[] = acts.map((a) => ({
      deal_id: a.deal_id,
      activation_id: Number(a.id),
      dsp: a.dsp,
      segment_ids: a.segment_ids.map(Number).filter((s) => requested.has(s)),
      ...metrics(dealSums.get(Number(a.id)) ?? zero),
    }))
    deals.sort((x, y) => y.impressions - x.impressions || x.activation_id - y.activation_id)

    const { rows: perDomain } = await tx.query<MetricSums & { domain: string }>(
      `SELECT d.domain, ${SUMS} ${FROM} GROUP BY d.domain ORDER BY impressions DESC, d.domain COLLATE "C" LIMIT ${DOMAIN_LIMIT + 1}`,
      args,
    )
    const domains: DomainRow[] = perDomain.slice(0, DOMAIN_LIMIT).map((r) => ({ domain: r.domain === '' ? null : r.domain, ...metrics(r) }))

    const data = req.dimensions.length ? await dataRows(tx, [...args, req.segmentIds], req.dimensions) : null
    return {
      currency,
      summary,
      deals,
      domains,
      domains_truncated: perDomain.length > DOMAIN_LIMIT,
      data: data?.rows ?? null,
      data_truncated: data?.truncated ?? false,
      warnings,
    }
  })
}

/** One row per combination of the requested dimensions with delivery; the largest kept, then sorted by the dimensions. */
async function dataRows(tx: Queryable, args: unknown[], dims: Dimension[]): Promise<{ rows: DataRow[]; truncated: boolean }> {
  const ordered = DIMENSION_ORDER.filter((d) => dims.includes(d))
  const cols = ordered.map((d) => `${DIMENSION_SQL[d]} AS ${d}`)
  const groups = ordered.map((d) => DIMENSION_SQL[d])
  const from = ordered.includes('segment_id') ? FROM.replace('WHERE', `${SEGMENT_JOIN} WHERE`) : FROM
  const { rows } = await tx.query<MetricSums & { date?: string; domain?: string; deal_id?: string; segment_id?: number }>(
    `SELECT ${cols.join(', ')}, ${SUMS} ${from}
      GROUP BY ${groups.join(', ')}
      ORDER BY impressions DESC, ${groups.map((g) => (g === 'd.domain' || g === 'd.deal_id' ? `${g} COLLATE "C"` : g)).join(', ')}
      LIMIT ${DATA_ROW_LIMIT + 1}`,
    ordered.includes('segment_id') ? args : args.slice(0, 5),
  )
  const out: DataRow[] = rows.slice(0, DATA_ROW_LIMIT).map((r) => {
    const row: DataRow = { ...metrics(r) }
    if (r.date !== undefined) row.date = String(r.date)
    if (r.segment_id !== undefined) row.segment_id = Number(r.segment_id)
    if (r.deal_id !== undefined) row.deal_id = String(r.deal_id)
    if (r.domain !== undefined) row.domain = r.domain === '' ? null : String(r.domain)
    return row
  })
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
  out.sort(
    (a, b) =>
      cmp(a.date ?? '', b.date ?? '') ||
      (a.segment_id ?? 0) - (b.segment_id ?? 0) ||
      cmp(a.deal_id ?? '', b.deal_id ?? '') ||
      cmp(a.domain ?? '', b.domain ?? ''),
  )
  return { rows: out, truncated: rows.length > DATA_ROW_LIMIT }
}
