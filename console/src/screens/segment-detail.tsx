import { useEffect, useMemo, useState } from 'preact/hooks'

import { api, get, post, qs, request } from '../api.ts'
import { base, navigate } from '../router.ts'
import type { ExclusionPage, Optimization, Segment, SegmentUrl, UrlPage } from '../types.ts'
import { BarChart, tally } from '../ui/bars.tsx'
import { ErrorBox, Field, fieldError, fmt, Loading, lines, Page, Status, saveFile } from '../ui/common.tsx'
import { useAction, useApi } from '../ui/use-api.ts'
import { PromptReading } from './prompt-reading.tsx'
import { UrlTable } from './segment-urls.tsx'

const apiPage = 10_000
const firstPage = 500

/**
 * Every URL of a segment: a first small page, shown at once, then the rest in pages of the API's
 * largest limit, each handed over as it arrives (`onPart`), so the screen is usable while a
 * 10,000-URL list is still loading.
 */
async function loadUrls(id: number, onPart: (urls: SegmentUrl[], total: number) => void): Promise<void> {
  const out: SegmentUrl[] = []
  let limit = firstPage
  for (let offset = 0; ; offset += limit, limit = apiPage) {
    const page = await get<UrlPage>(`/v1/curation/segment-requests/${id}/urls${qs({ limit, offset })}`)
    out.push(...page.urls)
    onPart([...out], page.total)
    if (page.urls.length < limit || out.length >= page.total) return
  }
}

/** The CSV the API writes (Accept: text/csv), page after page, one header row. */
async function downloadCsv(seg: Segment): Promise<void> {
  let csv = ''
  for (let offset = 0; ; offset += apiPage) {
    const res = await request('GET', `/v1/curation/segment-requests/${seg.id}/urls${qs({ limit: apiPage, offset })}`, { accept: 'text/csv' })
    const text = await res.text()
    const body = offset === 0 ? text : text.slice(text.indexOf('\n') + 1)
    csv += body
    const total = Number(res.headers.get('x-total-count') ?? 0)
    if (offset + apiPage >= total) break
  }
  saveFile(`segment-${seg.id}.csv`, csv)
}

function BuildState(props: { seg: Segment }) {
  const { seg } = props
  const [now, setNow] = useState(Date.now())
  useEffect(() => {
    if (seg.processed_date) return
    const t = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(t)
  }, [seg.processed_date])
  const started = Date.parse(seg.created_date)
  const took = (seg.processed_date ? Date.parse(seg.processed_date) : now) - started
  const step = seg.status === 'pending' ? 1 : seg.status === 'processing' ? 2 : 3
  return (
    <div class="panel">
      <dl class="facts">
        <dt>Status</dt>
        <dd>
          <Status value={seg.status} />
        </dd>
        <dt>URLs</dt>
        <dd data-testid="segment-url-count">{seg.url_count === null ? '—' : fmt.int(seg.url_count)}</dd>
        <dt>Created</dt>
        <dd>{fmt.date(seg.created_date)}</dd>
        <dt>{seg.processed_date ? 'Built in' : 'Building for'}</dt>
        <dd>{fmt.duration(took)}</dd>
        {seg.prompt ? (
          <>
            <dt>Prompt</dt>
            <dd>{seg.prompt}</dd>
          </>
        ) : null}
      </dl>
      <div
        class="progress"
        role="progressbar"
        aria-label="Build progress"
        aria-valuemin={0}
        aria-valuemax={3}
        aria-valuenow={step}
        aria-valuetext={`${seg.status}: step ${step} of 3`}
      >
        <div class="progress-bar" style={{ width: `${(step / 3) * 100}%` }} />
      </div>
      {(seg.processing_errors ?? []).map((p) => (
        <div class="error" key={`${p.code}-${p.index ?? ''}`}>
          <strong>{p.code}</strong> {p.message} {p.url ? <span class="mono">{p.url}</span> : null}
        </div>
      ))}
      {(seg.processing_warnings ?? []).map((p) => (
        <div class="notice" key={`${p.code}-${p.index ?? ''}`}>
          <strong>{p.code}</strong> {p.message} {p.url ? <span class="mono">{p.url}</span> : null}
        </div>
      ))}
    </div>
  )
}

function Exclusions(props: { id: number }) {
  const [reason, setReason] = useState<string | null>(null)
  const summary = useApi<ExclusionPage>(`/v1/curation/segment-requests/${props.id}/exclusions?limit=1`)
  const detail = useApi<ExclusionPage>(reason ? `/v1/curation/segment-requests/${props.id}/exclusions${qs({ reason, limit: 200 })}` : null)
  if (summary.error) return <ErrorBox error={summary.error} />
  if (!summary.data) return <Loading what="exclusions" />
  const reasons = Object.entries(summary.data.by_reason).sort((a, b) => b[1] - a[1])
  return (
    <div>
      <p>{fmt.int(summary.data.total)} URLs were left out by the quality filters or your blocks.</p>
      {reasons.length ? (
        <div class="table-wrap">
          <table>
            <caption class="sr-only">Exclusions by reason</caption>
            <thead>
              <tr>
                <th scope="col">Reason</th>
                <th scope="col" class="num">
                  URLs
                </th>
                <th scope="col">
                  <span class="sr-only">Show</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {reasons.map(([r, n]) => (
                <tr key={r}>
                  <td>{r.replaceAll('_', ' ')}</td>
                  <td class="num">{fmt.int(n)}</td>
                  <td>
                    <button type="button" class="secondary" onClick={() => setReason(r)} aria-pressed={reason === r}>
                      Show URLs
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {reason && detail.data ? (
        <>
          <h3>Excluded as {reason.replaceAll('_', ' ')}</h3>
          <ul>
            {detail.data.exclusions.map((x) => (
              <li key={x.url} class="url">
                {x.url}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  )
}

function describeOpt(o: Optimization): string {
  const parts: string[] = []
  if (o.expand) parts.push(`expand ${o.expand.urls.length + o.expand.domains.length} seeds`)
  if (o.block) parts.push(`block ${o.block.urls.length} URLs, ${o.block.domains.length} domains, ${o.block.keywords.length} keywords`)
  return parts.join('; ')
}

function Optimize(props: { seg: Segment; onApplied: () => void }) {
  const { seg } = props
  const list = useApi<Optimization[]>(`/v1/curation/optimizations?segment_id=${seg.id}`, {
    pollMs: 1000,
    keepPolling: (rows) => rows.some((o) => o.outcome === 'pending'),
  })
  const [f, setF] = useState({ expandUrls: '', expandDomains: '', blockUrls: '', blockDomains: '', blockKeywords: '' })
  const set = (k: keyof typeof f) => (e: Event) => setF({ ...f, [k]: (e.target as HTMLTextAreaElement).value })
  const create = useAction((body: unknown) => post<Optimization>('/v1/curation/optimizations', body))
  // Optimizations made here: once one settles, the segment (its URL count, its list) is read again.
  const [waiting, setWaiting] = useState<number[]>([])
  useEffect(() => {
    const settled = waiting.filter((id) => list.data?.some((o) => o.id === id && o.outcome !== 'pending'))
    if (settled.length) {
      setWaiting(waiting.filter((id) => !settled.includes(id)))
      props.onApplied()
    }
  }, [list.data])

  const [tld, setTld] = useState('')
  const [leaf, setLeaf] = useState(seg.taxonomy_id ? String(seg.taxonomy_id) : '')
  const [removal, setRemoval] = useState<{ deleted_count: number; dry_run: boolean; tld: string } | null>(null)
  const remove = useAction((dry: boolean) =>
    api<{ deleted_count: number; dry_run: boolean; tld: string }>(
      'DELETE',
      `/v1/curation/url-classifications/by-tld${qs({ tld: tld.trim(), result_taxonomy_leaf_id: leaf.trim(), dry_run: dry })}`,
    ),
  )
  const err = (p: string) => fieldError(create.error, `body.${p}`)

  return (
    <div class="grid2">
      <form
        class="panel"
        onSubmit={async (e) => {
          e.preventDefault()
          const expand = { urls: lines(f.expandUrls), domains: lines(f.expandDomains) }
          const block = { urls: lines(f.blockUrls), domains: lines(f.blockDomains), keywords: lines(f.blockKeywords) }
          const body = {
            segment_id: seg.id,
            expand: expand.urls.length + expand.domains.length ? expand : null,
            block: block.urls.length + block.domains.length + block.keywords.length ? block : null,
          }
          const made = await create.run(body)
          if (made) {
            setWaiting([...waiting, made.id])
            setF({ expandUrls: '', expandDomains: '', blockUrls: '', blockDomains: '', blockKeywords: '' })
            list.reload()
          }
        }}
      >
        <h2>Optimize</h2>
        <Field label="Expand with URLs like these" id="opt-expand-urls" hint="One per line." error={err('expand.urls')}>
          <textarea id="opt-expand-urls" value={f.expandUrls} onInput={set('expandUrls')} />
        </Field>
        <Field label="Expand with domains" id="opt-expand-domains" error={err('expand.domains')}>
          <textarea id="opt-expand-domains" value={f.expandDomains} onInput={set('expandDomains')} />
        </Field>
        <Field label="Block URLs" id="opt-block-urls" error={err('block.urls')}>
          <textarea id="opt-block-urls" value={f.blockUrls} onInput={set('blockUrls')} />
        </Field>
        <Field label="Block domains" id="opt-block-domains" error={err('block.domains')}>
          <textarea id="opt-block-domains" value={f.blockDomains} onInput={set('blockDomains')} />
        </Field>
        <Field label="Block keywords" id="opt-block-keywords" error={err('block.keywords')}>
          <textarea id="opt-block-keywords" value={f.blockKeywords} onInput={set('blockKeywords')} />
        </Field>
        <ErrorBox error={create.error} />
        <button type="submit" disabled={create.busy}>
          Apply optimization
        </button>
      </form>
      <div>
        <div class="panel">
          <h2>Optimizations</h2>
          <ErrorBox error={list.error} />
          {list.data?.length ? (
            <ul data-testid="optimizations">
              {list.data.map((o) => (
                <li key={o.id}>
                  #{o.id} {describeOpt(o)}: <Status value={o.outcome} />{' '}
                  {o.result ? `removed ${fmt.int(o.result.removed)}, added ${fmt.int(o.result.added)}, now ${fmt.int(o.result.url_count)} URLs` : null}
                  {o.failure ? <span class="field-error"> {o.failure.message}</span> : null}
                </li>
              ))}
            </ul>
          ) : (
            <p class="muted">None yet.</p>
          )}
        </div>
        <form
          class="panel"
          onSubmit={async (e) => {
            e.preventDefault()
            const dry = !removal || removal.tld !== tld.trim() || !removal.dry_run
            const r = await remove.run(dry)
            if (r) {
              setRemoval(r)
              if (!r.dry_run) props.onApplied()
            }
          }}
        >
          <h2>Delete a domain from an audience</h2>
          <div class="row">
            <Field label="Domain" id="rm-tld">
              <input
                id="rm-tld"
                value={tld}
                onInput={(e) => {
                  setTld((e.target as HTMLInputElement).value)
                  setRemoval(null)
                }}
              />
            </Field>
            <Field label="Taxonomy leaf id" id="rm-leaf">
              <input id="rm-leaf" inputMode="numeric" value={leaf} onInput={(e) => setLeaf((e.target as HTMLInputElement).value)} />
            </Field>
          </div>
          <ErrorBox error={remove.error} />
          {removal ? (
            <p role="status">
              {removal.dry_run ? `${fmt.int(removal.deleted_count)} URL entries would be removed.` : `${fmt.int(removal.deleted_count)} URL entries removed.`}
            </p>
          ) : null}
          <button type="submit" class={removal?.dry_run ? 'danger' : 'secondary'} disabled={remove.busy || !tld.trim() || !leaf.trim()}>
            {removal?.dry_run ? 'Remove them' : 'Check what would be removed'}
          </button>
        </form>
      </div>
    </div>
  )
}

/** Rename, rebuild over the index as it is now, or delete (which ends the segment's live deals). */
function Manage(props: { seg: Segment; onChanged: () => void }) {
  const { seg } = props
  const [name, setName] = useState(seg.name ?? '')
  const [confirming, setConfirming] = useState(false)
  const rename = useAction(() => api<Segment>('PATCH', `/v1/curation/segment-requests/${seg.id}`, { name: name.trim() || null }))
  const rebuild = useAction(() => post<Segment>(`/v1/curation/segment-requests/${seg.id}/rebuild`, {}))
  const remove = useAction(() => api<Segment>('DELETE', `/v1/curation/segment-requests/${seg.id}`))
  const building = seg.status !== 'complete'
  return (
    <div class="grid2">
      <form
        class="panel"
        onSubmit={async (e) => {
          e.preventDefault()
          if (await rename.run()) props.onChanged()
        }}
      >
        <h2>Rename</h2>
        <Field label="Segment name" id="manage-name" error={fieldError(rename.error, 'body.name')}>
          <input id="manage-name" maxLength={200} value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
        </Field>
        <ErrorBox error={rename.error} />
        <button type="submit" disabled={rename.busy}>
          Save name
        </button>
      </form>
      <div class="panel">
        <h2>Rebuild</h2>
        <p>Builds the segment again over the index as it is now. The current URL list keeps serving, and its deals keep it, until the new build replaces it.</p>
        <ErrorBox error={rebuild.error} />
        <button
          type="button"
          class="secondary"
          disabled={rebuild.busy || building}
          onClick={async () => {
            if (await rebuild.run()) props.onChanged()
          }}
        >
          {building ? 'Building…' : 'Rebuild now'}
        </button>
        <h2>Delete</h2>
        <p>Deleting ends every live deal that carries this segment.</p>
        <ErrorBox error={remove.error} />
        {confirming ? (
          <div class="row">
            <button
              type="button"
              class="danger"
              disabled={remove.busy}
              onClick={async () => {
                if (await remove.run()) navigate(`${base}/segments`)
              }}
            >
              Delete it and end its deals
            </button>
            <button type="button" class="secondary" onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </div>
        ) : (
          <button type="button" class="secondary" onClick={() => setConfirming(true)}>
            Delete segment
          </button>
        )}
      </div>
    </div>
  )
}

type Tab = 'urls' | 'breakdown' | 'exclusions' | 'optimize' | 'manage'
const tabs: [Tab, string][] = [
  ['urls', 'URLs'],
  ['breakdown', 'Breakdown'],
  ['exclusions', 'Exclusions'],
  ['optimize', 'Optimize'],
  ['manage', 'Manage'],
]

export function SegmentDetail(props: { id: string }) {
  const seg = useApi<Segment>(`/v1/curation/segment-requests/${encodeURIComponent(props.id)}`, {
    pollMs: 1000,
    keepPolling: (s) => s.status !== 'complete',
  })
  const [urls, setUrls] = useState<SegmentUrl[] | null>(null)
  const [urlTotal, setUrlTotal] = useState(0)
  const [urlError, setUrlError] = useState<Error | null>(null)
  const [tab, setTab] = useState<Tab>('urls')
  const download = useAction(downloadCsv)
  const built = seg.data?.processed_date ? (seg.data.last_updated_date ?? seg.data.processed_date) : null

  useEffect(() => {
    if (!seg.data || !built) return
    let live = true
    loadUrls(seg.data.id, (u, total) => {
      if (!live) return
      setUrls(u)
      setUrlTotal(total)
    }).catch((e: Error) => live && setUrlError(e))
    return () => {
      live = false
    }
  }, [seg.data?.id, built])

  const byCategory = useMemo(() => (urls ? tally(urls, (u) => u.level1_name ?? 'Unclassified') : []), [urls])
  const byDomain = useMemo(() => (urls ? tally(urls, (u) => u.tld) : []), [urls])

  if (seg.error && !seg.data) {
    return (
      <Page title="Segment">
        <ErrorBox error={seg.error} />
        <a href={`${base}/segments`}>All segments</a>
      </Page>
    )
  }
  if (!seg.data) return <Loading what="segment" />
  const s = seg.data
  return (
    <Page
      title={s.name ?? `Segment ${s.id}`}
      actions={
        s.processed_date ? (
          <>
            <button type="button" class="secondary" disabled={download.busy} onClick={() => download.run(s)}>
              Download CSV
            </button>
            <a class="button" href={`${base}/activations/new?segment=${s.id}`}>
              Activate
            </a>
          </>
        ) : null
      }
    >
      <BuildState seg={s} />
      {s.interpretation ? <PromptReading reading={s.interpretation} /> : null}
      <ErrorBox error={download.error ?? urlError} />
      {s.processed_date ? (
        <>
          <div class="tabs" role="tablist" aria-label="Segment views">
            {tabs.map(([t, label]) => (
              <button type="button" role="tab" key={t} id={`tab-${t}`} aria-selected={tab === t} aria-controls={`panel-${t}`} onClick={() => setTab(t)}>
                {label}
              </button>
            ))}
          </div>
          <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
            {tab === 'urls' ? urls ? <UrlTable urls={urls} total={urlTotal} /> : <Loading what="URLs" /> : null}
            {tab === 'breakdown' ? (
              <div class="grid2">
                <BarChart title="URLs by category" bars={byCategory} />
                <BarChart title="URLs by domain (top 15)" bars={byDomain} />
              </div>
            ) : null}
            {tab === 'exclusions' ? <Exclusions id={s.id} /> : null}
            {tab === 'optimize' ? <Optimize seg={s} onApplied={seg.reload} /> : null}
            {tab === 'manage' ? <Manage seg={s} onChanged={seg.reload} /> : null}
          </div>
        </>
      ) : null}
    </Page>
  )
}
