import { useMemo, useState } from 'preact/hooks'

import { post } from '../api.ts'
import { base, navigate } from '../router.ts'
import type { PixelCampaign, PublisherReport } from '../types.ts'
import { BarChart } from '../ui/bars.tsx'
import { ErrorBox, Field, fieldError, fmt, Loading, Page, Status, saveFile } from '../ui/common.tsx'
import { daysAgo, daysBetween, ReportRange, toCsv, today } from '../ui/date-range.tsx'
import { TimeChart } from '../ui/time-chart.tsx'
import { useAction, useApi } from '../ui/use-api.ts'

const agentTypes: [string, string][] = [
  ['human', '#2f6f3e'],
  ['search', '#1f4e79'],
  ['llm_training', '#8a3ffc'],
  ['llm_retrieval', '#d12771'],
  ['scraper', '#b45f06'],
]

const publisherUseCases = ['publisher_bot_detection', 'publisher_agent_targeting']

export function PublisherReports() {
  const campaigns = useApi<PixelCampaign[]>('/v1/pixel/campaigns')
  const reports = useApi<PublisherReport[]>('/v1/pixel/reports/publisher?limit=50')
  const [campaign, setCampaign] = useState('')
  const [range, setRange] = useState({ start: daysAgo(6), end: today() })
  const create = useAction((body: unknown) => post<PublisherReport>('/v1/pixel/reports/publisher', body))
  const err = (p: string) => fieldError(create.error, `body.${p}`)
  const own = (campaigns.data ?? []).filter((c) => publisherUseCases.includes(c.use_case))
  return (
    <Page title="Publisher reports">
      <ErrorBox error={campaigns.error ?? reports.error} />
      <form
        class="panel"
        onSubmit={async (e) => {
          e.preventDefault()
          const r = await create.run({
            campaign_id: Number(campaign || own[0]?.id),
            start_date: range.start,
            end_date: range.end,
            dimensions: ['date', 'agent_type'],
          })
          if (r) navigate(`${base}/publisher/${r.id}`)
        }}
      >
        <h2>Run a report</h2>
        <Field label="Pixel campaign" id="pub-campaign" hint="Publisher campaigns only (bot detection or agent targeting)." error={err('campaign_id')}>
          <select id="pub-campaign" value={campaign} onChange={(e) => setCampaign((e.target as HTMLSelectElement).value)}>
            {own.map((c) => (
              <option key={c.id} value={String(c.id)}>
                {c.name} (#{c.id})
              </option>
            ))}
          </select>
        </Field>
        <ReportRange range={range} onChange={setRange} fieldError={err} action={create} disabled={own.length === 0} />
        {campaigns.data && own.length === 0 ? (
          <p class="muted">
            No publisher campaign yet: <a href={`${base}/pixel`}>create one</a> and place its tag.
          </p>
        ) : null}
      </form>
      <h2>Recent reports</h2>
      {!reports.data ? (
        <Loading what="reports" />
      ) : (
        <ul>
          {reports.data.map((r) => (
            <li key={r.id}>
              <a href={`${base}/publisher/${r.id}`}>
                Report #{r.id}: campaign {r.campaign_id}, {r.start_date} – {r.end_date}
              </a>{' '}
              <Status value={r.status} />
            </li>
          ))}
        </ul>
      )}
    </Page>
  )
}

function exportCsv(r: PublisherReport): void {
  saveFile(
    `publisher-report-${r.id}.csv`,
    toCsv(
      ['agent', 'type', 'loads', 'pct_of_non_human'],
      (r.agents ?? []).map((a) => [a.agent, a.type, a.loads, a.pct_of_non_human]),
    ),
  )
}

export function PublisherReportScreen(props: { id: string }) {
  const rep = useApi<PublisherReport>(`/v1/pixel/reports/publisher/${encodeURIComponent(props.id)}`, {
    pollMs: 1000,
    keepPolling: (r) => r.status === 'pending' || r.status === 'processing',
  })
  const r = rep.data
  const chart = useMemo(() => {
    if (!r?.data) return null
    const days = daysBetween(r.start_date, r.end_date)
    const index = new Map(days.map((d, i) => [d, i]))
    const series = agentTypes.map(([type, color]) => ({ label: type, color, values: days.map(() => 0) }))
    for (const row of r.data) {
      const i = row.date ? index.get(row.date) : undefined
      const s = series.find((x) => x.label === row.agent_type)
      if (i !== undefined && s) s.values[i] = (s.values[i] ?? 0) + row.loads
    }
    return { days, series }
  }, [r])

  if (rep.error && !r)
    return (
      <Page title="Publisher report">
        <ErrorBox error={rep.error} />
      </Page>
    )
  if (!r) return <Loading what="report" />
  return (
    <Page
      title={`Publisher report #${r.id}`}
      actions={
        r.status === 'complete' ? (
          <button type="button" class="secondary" onClick={() => exportCsv(r)}>
            Export CSV
          </button>
        ) : null
      }
    >
      <p>
        Campaign {r.campaign_id}, {r.start_date} – {r.end_date} <Status value={r.status} />
      </p>
      {r.failure_reason ? <p class="field-error">{r.failure_reason}</p> : null}
      {r.status !== 'complete' && r.status !== 'failed' ? <Loading what="the report (it runs in the background)" /> : null}
      {r.summary ? (
        <div class="cards">
          <div class="card">
            <span class="card-title">Loads</span>
            <span class="card-count" data-testid="total-loads">
              {fmt.int(r.summary.total_loads)}
            </span>
          </div>
          <div class="card">
            <span class="card-title">Non-human</span>
            <span class="card-count">{fmt.pct(r.summary.non_human_pct)}</span>
          </div>
          <div class="card">
            <span class="card-title">LLM agents</span>
            <span class="card-count">{fmt.pct(r.summary.llm_agent_pct)}</span>
          </div>
          <div class="card">
            <span class="card-title">High-risk bots</span>
            <span class="card-count">{fmt.int(r.summary.high_risk_bot_count)}</span>
            <span class="muted">{fmt.int(r.summary.high_risk_loads)} loads</span>
          </div>
        </div>
      ) : null}
      {chart ? <TimeChart title="Loads per day by agent type" days={chart.days} series={chart.series} stacked /> : null}
      {r.agents ? (
        <div class="grid2">
          <div>
            <h2>Agents</h2>
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Agent</th>
                    <th scope="col">Type</th>
                    <th scope="col" class="num">
                      Loads
                    </th>
                    <th scope="col" class="num">
                      Share of non-human
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {r.agents.map((a) => (
                    <tr key={a.agent}>
                      <td>{a.agent}</td>
                      <td>{a.type}</td>
                      <td class="num">{fmt.int(a.loads)}</td>
                      <td class="num">{fmt.pct(a.pct_of_non_human)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
          <BarChart title="Loads by agent" bars={r.agents.map((a) => ({ label: a.agent, value: a.loads }))} />
        </div>
      ) : null}
      {r.hot_spots?.length ? (
        <>
          <h2>Hot spots</h2>
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col" class="num">
                    Loads
                  </th>
                  <th scope="col" class="num">
                    Bot share
                  </th>
                  <th scope="col">Main agent</th>
                </tr>
              </thead>
              <tbody>
                {r.hot_spots.map((h) => (
                  <tr key={h.url}>
                    <td class="url">{h.url}</td>
                    <td class="num">{fmt.int(h.loads)}</td>
                    <td class="num">{fmt.pct(h.bot_pct)}</td>
                    <td>{h.dominant_agent}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
      {r.ai_referrals ? (
        <>
          <h2>AI referrals</h2>
          <p>
            {fmt.int(r.ai_referrals.loads)} human loads came from AI assistants ({fmt.pct(r.ai_referrals.pct_of_human)} of human loads).
          </p>
          {r.ai_referrals.sources.length ? (
            <BarChart title="AI referrals by source" bars={r.ai_referrals.sources.map((s) => ({ label: s.source, value: s.loads }))} />
          ) : null}
        </>
      ) : null}
    </Page>
  )
}
