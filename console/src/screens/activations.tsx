import { useMemo, useState } from 'preact/hooks'

import { post } from '../api.ts'
import { base, navigate } from '../router.ts'
import type { Activation, Dsp, Segment } from '../types.ts'
import { CopyButton, ErrorBox, Field, fieldError, fmt, Loading, Page, Status } from '../ui/common.tsx'
import { useAction, useApi } from '../ui/use-api.ts'

const formats = ['banner', 'video', 'native', 'ctv', 'audio']
const devices = ['desktop', 'mobile', 'tablet', 'ctv']
const kpiMetrics = ['ctr', 'conversion', 'viewability', 'vcr', 'cpa', 'roas']

export function ActivationList() {
  const list = useApi<Activation[]>('/v1/curation/activations', {
    pollMs: 2000,
    keepPolling: (rows) => rows.some((a) => a.status === 'pending' || a.status === 'processing'),
  })
  return (
    <Page
      title="Activations"
      actions={
        <a class="button" href={`${base}/activations/new`}>
          New activation
        </a>
      }
    >
      <ErrorBox error={list.error} />
      {!list.data ? (
        <Loading what="activations" />
      ) : list.data.length === 0 ? (
        <p>No activation yet: activate a built segment to get a Deal ID for your DSP seat.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <caption class="sr-only">Your activations</caption>
            <thead>
              <tr>
                <th scope="col">Activation</th>
                <th scope="col">DSP / seat</th>
                <th scope="col">Status</th>
                <th scope="col">Deal ID</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {[...list.data].reverse().map((a) => (
                <tr key={a.id}>
                  <td>
                    <a href={`${base}/activations/${a.id}`}>#{a.id}</a> <span class="muted">segments {a.segment_ids.join(', ')}</span>
                  </td>
                  <td>
                    {a.dsp} / {a.buyer_seat}
                  </td>
                  <td>
                    <Status value={a.status} />
                  </td>
                  <td class="mono">{a.deal_id ?? '—'}</td>
                  <td>{fmt.date(a.created_date)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Page>
  )
}

function Checks(props: { legend: string; name: string; options: string[]; value: string[]; onChange: (v: string[]) => void; error?: string | null }) {
  return (
    <fieldset>
      <legend>{props.legend}</legend>
      {props.options.map((o) => (
        <label key={o}>
          <input
            type="checkbox"
            name={props.name}
            value={o}
            checked={props.value.includes(o)}
            onChange={(e) => props.onChange((e.target as HTMLInputElement).checked ? [...props.value, o] : props.value.filter((x) => x !== o))}
          />{' '}
          {o}
        </label>
      ))}
      {props.error ? (
        <small class="field-error" role="alert">
          {props.error}
        </small>
      ) : null}
    </fieldset>
  )
}

export function ActivationNew() {
  const preset = new URLSearchParams(location.search).get('segment')
  const segments = useApi<Segment[]>('/v1/curation/segment-requests')
  const dsps = useApi<Dsp[]>('/v1/curation/dsps')
  const [search, setSearch] = useState('')
  const [f, setF] = useState({
    segments: preset ? [preset] : ([] as string[]),
    dsp: '',
    seat: '',
    start: '',
    end: '',
    geo: '',
    formats: [] as string[],
    devices: [] as string[],
    kpis: [] as { metric: string; target: string }[],
    budget: '',
    currency: 'USD',
  })
  const create = useAction((body: unknown) => post<Activation>('/v1/curation/activations', body))
  const err = (p: string) => fieldError(create.error, `body.${p}`)
  const matching = useMemo(() => {
    const q = search.trim().toLowerCase()
    return (dsps.data ?? []).filter((d) => !q || d.name.toLowerCase().includes(q) || d.slug.includes(q) || d.aliases.some((a) => a.toLowerCase().includes(q)))
  }, [dsps.data, search])
  const complete = (segments.data ?? []).filter((s) => s.processed_date !== null)

  return (
    <Page title="New activation">
      <ErrorBox error={segments.error ?? dsps.error} />
      <form
        class="panel"
        onSubmit={async (e) => {
          e.preventDefault()
          const body: Record<string, unknown> = { segment_ids: f.segments.map(Number), dsp: f.dsp, buyer_seat: f.seat.trim() }
          if (f.start) body.start_date = f.start
          if (f.end) body.end_date = f.end
          const geo = f.geo
            .split(/[\s,]+/)
            .map((g) => g.trim())
            .filter(Boolean)
          if (geo.length) body.geo = geo
          if (f.formats.length) body.formats = f.formats
          if (f.devices.length) body.devices = f.devices
          if (f.kpis.length) body.kpis = f.kpis.map((k) => ({ metric: k.metric, target: Number(k.target) }))
          if (f.budget.trim()) body.budget = { amount: Number(f.budget), currency: f.currency.trim() }
          const a = await create.run(body)
          if (a) navigate(`${base}/activations/${a.id}`)
        }}
      >
        <fieldset>
          <legend>Segments (built ones)</legend>
          {complete.length === 0 ? <p class="muted">No built segment yet.</p> : null}
          {complete.map((s) => (
            <label key={s.id}>
              <input
                type="checkbox"
                value={String(s.id)}
                checked={f.segments.includes(String(s.id))}
                onChange={(e) =>
                  setF({
                    ...f,
                    segments: (e.target as HTMLInputElement).checked ? [...f.segments, String(s.id)] : f.segments.filter((x) => x !== String(s.id)),
                  })
                }
              />{' '}
              {s.name ?? s.prompt ?? `Segment ${s.id}`} (#{s.id}, {fmt.int(s.url_count ?? 0)} URLs)
            </label>
          ))}
          {err('segment_ids') ? <small class="field-error">{err('segment_ids')}</small> : null}
        </fieldset>
        <div class="row">
          <Field label="Search DSPs" id="dsp-search" hint={`${dsps.data?.length ?? '…'} DSPs supported`}>
            <input id="dsp-search" type="search" value={search} onInput={(e) => setSearch((e.target as HTMLInputElement).value)} />
          </Field>
          <Field label="DSP" id="dsp" error={err('dsp')}>
            <select id="dsp" required value={f.dsp} onChange={(e) => setF({ ...f, dsp: (e.target as HTMLSelectElement).value })}>
              <option value="">Choose a DSP ({matching.length})</option>
              {matching.map((d) => (
                <option key={d.slug} value={d.slug}>
                  {d.name}
                  {d.deprecated ? ' (being retired)' : ''}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Buyer seat" id="seat" error={err('buyer_seat')}>
            <input id="seat" required value={f.seat} onInput={(e) => setF({ ...f, seat: (e.target as HTMLInputElement).value })} />
          </Field>
        </div>
        <div class="row">
          <Field label="Start date" id="start" error={err('start_date')}>
            <input id="start" type="date" value={f.start} onInput={(e) => setF({ ...f, start: (e.target as HTMLInputElement).value })} />
          </Field>
          <Field label="End date" id="end" error={err('end_date')}>
            <input id="end" type="date" value={f.end} onInput={(e) => setF({ ...f, end: (e.target as HTMLInputElement).value })} />
          </Field>
          <Field label="Geo" id="geo" hint="Country codes, e.g. US, CA" error={err('geo')}>
            <input id="geo" value={f.geo} onInput={(e) => setF({ ...f, geo: (e.target as HTMLInputElement).value })} />
          </Field>
        </div>
        <Checks legend="Formats" name="formats" options={formats} value={f.formats} onChange={(v) => setF({ ...f, formats: v })} error={err('formats')} />
        <Checks legend="Devices" name="devices" options={devices} value={f.devices} onChange={(v) => setF({ ...f, devices: v })} error={err('devices')} />
        <fieldset>
          <legend>KPIs</legend>
          {f.kpis.map((k, i) => (
            <div class="row" key={i}>
              <Field label={`KPI ${i + 1} metric`} id={`kpi-${i}-metric`}>
                <select
                  id={`kpi-${i}-metric`}
                  value={k.metric}
                  onChange={(e) => setF({ ...f, kpis: f.kpis.map((x, j) => (j === i ? { ...x, metric: (e.target as HTMLSelectElement).value } : x)) })}
                >
                  {kpiMetrics.map((m) => (
                    <option key={m} value={m}>
                      {m}
                    </option>
                  ))}
                </select>
              </Field>
              <Field label={`KPI ${i + 1} target`} id={`kpi-${i}-target`} error={err(`kpis.${i}`)}>
                <input
                  id={`kpi-${i}-target`}
                  inputMode="decimal"
                  value={k.target}
                  onInput={(e) => setF({ ...f, kpis: f.kpis.map((x, j) => (j === i ? { ...x, target: (e.target as HTMLInputElement).value } : x)) })}
                />
              </Field>
              <button type="button" class="secondary" onClick={() => setF({ ...f, kpis: f.kpis.filter((_, j) => j !== i) })}>
                Remove KPI {i + 1}
              </button>
            </div>
          ))}
          {err('kpis') ? <small class="field-error">{err('kpis')}</small> : null}
          <button
            type="button"
            class="secondary"
            disabled={f.kpis.length >= 6}
            onClick={() => setF({ ...f, kpis: [...f.kpis, { metric: 'viewability', target: '' }] })}
          >
            Add a KPI
          </button>
        </fieldset>
        <div class="row">
          <Field label="Budget" id="budget" error={err('budget.amount') ?? err('budget')}>
            <input id="budget" inputMode="decimal" value={f.budget} onInput={(e) => setF({ ...f, budget: (e.target as HTMLInputElement).value })} />
          </Field>
          <Field label="Currency" id="currency" error={err('budget.currency')}>
            <input id="currency" maxLength={3} value={f.currency} onInput={(e) => setF({ ...f, currency: (e.target as HTMLInputElement).value })} />
          </Field>
        </div>
        <ErrorBox error={create.error} />
        <button type="submit" disabled={create.busy}>
          Activate
        </button>
      </form>
    </Page>
  )
}

export function ActivationDetail(props: { id: string }) {
  const a = useApi<Activation>(`/v1/curation/activations/${encodeURIComponent(props.id)}`, {
    pollMs: 1000,
    keepPolling: (x) => x.status === 'pending' || x.status === 'processing',
  })
  if (a.error && !a.data)
    return (
      <Page title="Activation">
        <ErrorBox error={a.error} />
      </Page>
    )
  if (!a.data) return <Loading what="activation" />
  const x = a.data
  return (
    <Page title={`Activation #${x.id}`}>
      {x.sandbox ? (
        <p class="notice">Sandbox connector: this Deal ID has the real format but is not known to a real SSP, so it will not serve impressions.</p>
      ) : null}
      <div class="panel">
        <dl class="facts">
          <dt>Status</dt>
          <dd>
            <Status value={x.status} />
          </dd>
          <dt>Deal ID</dt>
          <dd>
            {x.deal_id ? (
              <>
                <code data-testid="deal-id">{x.deal_id}</code> <CopyButton text={x.deal_id} label="Copy Deal ID" />
              </>
            ) : x.status === 'failed' ? (
              '—'
            ) : (
              <span>Waiting for the SSP{x.estimated_ready_date ? `, expected by ${fmt.date(x.estimated_ready_date)}` : ''}…</span>
            )}
          </dd>
          {x.failure_reason ? (
            <>
              <dt>Failure</dt>
              <dd class="field-error">{x.failure_reason}</dd>
            </>
          ) : null}
          <dt>DSP / seat</dt>
          <dd>
            {x.dsp} / {x.buyer_seat}
          </dd>
          <dt>Segments</dt>
          <dd>
            {x.segment_ids.map((id, i) => (
              <span key={id}>
                {i ? ', ' : ''}
                <a href={`${base}/segments/${id}`}>#{id}</a>
              </span>
            ))}
          </dd>
          <dt>Dates</dt>
          <dd>
            {x.start_date ?? 'now'} – {x.end_date ?? 'open'}
          </dd>
          <dt>Targeting</dt>
          <dd>
            {[x.geo?.join(', '), x.formats?.join(', '), x.devices?.join(', ')].filter(Boolean).join(' · ') || 'everything'}
            {x.targeting ? ` — ${fmt.int(x.targeting.url_count)} URLs on ${fmt.int(x.targeting.domain_count)} domains` : ''}
          </dd>
          {x.budget ? (
            <>
              <dt>Budget</dt>
              <dd>
                {fmt.int(x.budget.amount)} {x.budget.currency}
              </dd>
            </>
          ) : null}
          {x.kpis?.length ? (
            <>
              <dt>KPIs</dt>
              <dd>{x.kpis.map((k) => `${k.metric} ${k.target}`).join(', ')}</dd>
            </>
          ) : null}
        </dl>
      </div>
      <h2>Lifecycle</h2>
      <ol class="panel">
        <li>Requested {fmt.date(x.created_date)}</li>
        <li>{x.processed_date ? `Deal issued ${fmt.date(x.processed_date)}${x.ttl_hours ? `, TTL ${x.ttl_hours} h` : ''}` : 'Deal not issued yet'}</li>
        <li>
          Deal state: {x.deal_state ? <Status value={x.deal_state} /> : '—'}
          {x.deal_state_reason ? ` (${x.deal_state_reason})` : ''}
          {x.deal_last_used_date ? `; last used ${fmt.date(x.deal_last_used_date)}` : ''}
        </li>
      </ol>
    </Page>
  )
}
