import type { Queryable } from '../platform/db/db.ts'
import type { DealTargeting } from './connectors/connector.ts'
import type { ActivationRow } from './repository.ts'

/** A domain is judged on a KPI only after this much delivery; below it, it is kept. */
export const minImpressionsForKpi = 1000

interface DomainStats {
  domain: string
  impressions: number
  clicks: number
  measured_impressions: number
  viewable_impressions: number
  video_starts: number
  video_completions: number
}

/** Per KPI metric: the observed rate of a domain and what it rests on (count and unit); null = not judged. */
const observed: Record<string, (s: DomainStats) => { rate: number; base: number; unit: string } | null> = {
  ctr: (s) => ({ rate: s.impressions ? s.clicks / s.impressions : 0, base: s.impressions, unit: 'impressions' }),
  viewability: (s) => ({
    rate: s.measured_impressions ? s.viewable_impressions / s.measured_impressions : 0,
    base: s.measured_impressions,
    unit: 'measured impressions',
  }),
  vcr: (s) => ({ rate: s.video_starts ? s.video_completions / s.video_starts : 0, base: s.video_starts, unit: 'video starts' }),
  // conversion, cpa and roas have no per-domain signal here: they are kept for reporting only.
}

export interface ShapedTargeting {
  targeting: DealTargeting
  summary: { url_count: number; domain_count: number; excluded_domains: { domain: string; reason: string }[] }
}

/**
 * What a deal targets: the URLs of its segments, minus the domains whose observed delivery misses a
 * CTR, viewability or VCR target (docs/activation.md "KPIs").
 */
export async function shapeTargeting(q: Queryable, a: ActivationRow): Promise<ShapedTargeting> {
  const { rows: urls } = await q.query<{ url: string; tld: string }>(
    `SELECT url, tld FROM segment_urls WHERE client_id = $1 AND segment_id = ANY($2::bigint[])
      GROUP BY url, tld ORDER BY min(rank), url`,
    [a.client_id, a.segment_ids],
  )
  const domains = [...new Set(urls.map((u) => u.tld))]
  const excluded = new Map<string, string>()
  const kpis = (a.kpis ?? []).filter((k) => observed[k.metric])
  if (kpis.length && domains.length) {
    const { rows: stats } = await q.query<DomainStats>('SELECT * FROM domain_delivery_stats WHERE domain = ANY($1::text[])', [domains])
    for (const s of stats) {
      for (const k of kpis) {
        const o = observed[k.metric]!(s)
        if (o && o.base >= minImpressionsForKpi && o.rate < k.target) {
          excluded.set(s.domain, `${k.metric} ${o.rate.toFixed(4)} below target ${k.target} over ${o.base} ${o.unit}`)
          break
        }
      }
    }
  }
  const kept = urls.filter((u) => !excluded.has(u.tld))
  const keptDomains = domains.filter((d) => !excluded.has(d))
  return {
    targeting: { domains: keptDomains, urls: kept.map((u) => u.url), geo: a.geo, formats: a.formats, devices: a.devices },
    summary: {
      url_count: kept.length,
      domain_count: keptDomains.length,
      excluded_domains: [...excluded].map(([domain, reason]) => ({ domain, reason })).sort((x, y) => x.domain.localeCompare(y.domain)),
    },
  }
}
