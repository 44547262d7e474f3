import { useMemo, useState } from 'preact/hooks'

import { post } from '../api.ts'
import type { Segment, SegmentReport } from '../types.ts'
import { BarChart } from '../ui/bars.tsx'
import { ErrorBox, fieldError, fmt, Loading, Page, Status } from '../ui/common.tsx'
import { daysAgo, daysBetween, ReportRange, today } from '../ui/date-range.tsx'
import { TimeChart } from '../ui/time-chart.tsx'
import { useAction, useApi } from '../ui/use-api.ts'

export function PerformanceReports() {
  const segments = useApi<Segment[]>('/v1/curation/segment-requests')
  const [chosen, setChosen] = useState<number[]>([])
  const [range, setRange] = useState({ start: daysAgo(29), end: today() })
  const [reportId, setReportId] = useState<number | null>(null)
  const create = useAction((body: unknown) => post<SegmentReport>('/v1/curation/reports', body))
  const rep = useApi<SegmentReport>(reportId ? `/v1/curation/reports/${reportId}` : null, {
    pollMs: 1000,
    keepPolling: (r) => r.status === 'pending' || r.status === 'processing',
  })
  const err = (p: string) => fieldError(create.error, `body.${p}`)
  const r = rep.data
  const series = useMemo(() => {
    if (!r?.data) return null
    const days = daysBetween(r.start_date, r.end_date)
    const at = new Map(r.data.filter((d) => d.date).map((d) => [d.date!, d]))
    return {
      days,
      volume: [
        { label: 'impressions', color: '#1f4e79', values: days.map((d) => at.get(d)?.impressions ?? 0) },
        { label: 'clicks', color: '#d12771', values: days.map((d) => at.get(d)?.clicks ?? 0) },
      ],
      rates: [
        { label: 'CTR %', color: '#2f6f3e', values: days.map((d) => (at.get(d)?.ctr ?? 0) * 100) },
        { label: 'eCPM', color: '#b45f06', values: days.map((d) => at.get(d)?.ecpm ?? 0) },
      ],
    }
  }, [r])

  return (
    <Page title="Performance">
      <ErrorBox error={segments.error} />
      <form
        class="panel"
        onSubmit={async (e) => {
          e.preventDefault()
          const made = await create.run({ segment_ids: chosen, start_date: range.start, end_date: range.end, dimensions: ['date'] })
          if (made) setReportId(made.id)
        }}
      >
        <fieldset>
          <legend>Segments</legend>
          {(segments.data ?? []).map((s) => (
            <label key={s.id}>
              <input
                type="checkbox"
                checked={chosen.includes(s.id)}
                onChange={(e) => setChosen((e.target as HTMLInputElement).checked ? [...chosen, s.id] : chosen.filter((x) => x !== s.id))}
              />{' '}
              {s.name ?? s.prompt ?? `Segment ${s.id}`} (#{s.id})
            </label>
          ))}
          {err('segment_ids') ? <small class="field-error">{err('segment_ids')}</small> : null}
        </fieldset>
        <ReportRange range={range} onChange={setRange} fieldError={err} action={create} disabled={chosen.length === 0} />
      </form>
      <ErrorBox error={rep.error} />
      {reportId && !r ? <Loading what="report" /> : null}
      {r ? (
        <>
          <p>
            Report #{r.id} <Status value={r.status} />
          </p>
          {r.warnings.map((w) => (
            <p class="notice" key={w}>
              {w}
            </p>
          ))}
          {r.summary ? (
            <div class="cards">
              <div class="card">
                <span class="card-title">Impressions</span>
                <span class="card-count">{fmt.int(r.summary.impressions)}</span>
              </div>
              <div class="card">
                <span class="card-title">Clicks</span>
                <span class="card-count">{fmt.int(r.summary.clicks)}</span>
              </div>
              <div class="card">
                <span class="card-title">CTR</span>
                <span class="card-count">{fmt.pct(r.summary.ctr, 2)}</span>
              </div>
              <div class="card">
                <span class="card-title">eCPM</span>
                <span class="card-count">{fmt.money(r.summary.ecpm, r.currency)}</span>
              </div>
            </div>
          ) : null}
          {series ? (
            <div class="grid2">
              <TimeChart title="Impressions and clicks per day" days={series.days} series={series.volume} />
              <TimeChart title="CTR (%) and eCPM per day" days={series.days} series={series.rates} format={(n) => n.toFixed(2)} />
            </div>
          ) : null}
          {r.domains?.length ? (
            <div class="grid2">
              <div class="table-wrap">
                <table>
                  <caption>By domain</caption>
                  <thead>
                    <tr>
                      <th scope="col">Domain</th>
                      <th scope="col" class="num">
                        Impressions
                      </th>
                      <th scope="col" class="num">
                        Clicks
                      </th>
                      <th scope="col" class="num">
                        CTR
                      </th>
                      <th scope="col" class="num">
                        eCPM
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {r.domains.map((d) => (
                      <tr key={d.domain ?? '-'}>
                        <td>{d.domain ?? 'unknown'}</td>
                        <td class="num">{fmt.int(d.impressions)}</td>
                        <td class="num">{fmt.int(d.clicks)}</td>
                        <td class="num">{fmt.pct(d.ctr, 2)}</td>
                        <td class="num">{d.ecpm.toFixed(2)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <BarChart title="Impressions by domain" bars={r.domains.map((d) => ({ label: d.domain ?? 'unknown', value: d.impressions }))} />
            </div>
          ) : null}
        </>
      ) : null}
    </Page>
  )
}
