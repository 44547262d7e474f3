import { useEffect, useState } from 'preact/hooks'

import { api, post } from '../api.ts'
import { base, navigate } from '../router.ts'
import type { PixelCampaign as Campaign, PixelTag } from '../types.ts'
import { CopyButton, ErrorBox, Field, fieldError, fmt, Loading, Page } from '../ui/common.tsx'
import { useAction, useApi } from '../ui/use-api.ts'

const useCases = ['campaign_optimization', 'campaign_reporting', 'publisher_bot_detection', 'publisher_agent_targeting', 'other']

function CampaignForm(props: { initial?: Campaign; onSaved: (c: Campaign) => void }) {
  const [f, setF] = useState({
    name: props.initial?.name ?? '',
    use_case: props.initial?.use_case ?? 'publisher_bot_detection',
    description: props.initial?.description ?? '',
  })
  const save = useAction((body: unknown) =>
    props.initial ? api<Campaign>('PUT', `/v1/pixel/campaigns/${props.initial.id}`, body) : post<Campaign>('/v1/pixel/campaigns', body),
  )
  const err = (p: string) => fieldError(save.error, `body.${p}`)
  return (
    <form
      class="panel"
      onSubmit={async (e) => {
        e.preventDefault()
        const c = await save.run({ name: f.name.trim(), use_case: f.use_case, description: f.description.trim() || null })
        if (c) props.onSaved(c)
      }}
    >
      <h2>{props.initial ? 'Edit campaign' : 'New campaign'}</h2>
      <div class="row">
        <Field label="Name" id="px-name" error={err('name')}>
          <input id="px-name" required maxLength={200} value={f.name} onInput={(e) => setF({ ...f, name: (e.target as HTMLInputElement).value })} />
        </Field>
        <Field label="Use case" id="px-use" error={err('use_case')}>
          <select id="px-use" value={f.use_case} onChange={(e) => setF({ ...f, use_case: (e.target as HTMLSelectElement).value })}>
            {useCases.map((u) => (
              <option key={u} value={u}>
                {u.replaceAll('_', ' ')}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <Field label="Description" id="px-desc" error={err('description')}>
        <textarea id="px-desc" value={f.description} onInput={(e) => setF({ ...f, description: (e.target as HTMLTextAreaElement).value })} />
      </Field>
      <ErrorBox error={save.error} />
      <button type="submit" disabled={save.busy}>
        {props.initial ? 'Save' : 'Create campaign'}
      </button>
    </form>
  )
}

interface LiveHits {
  window_seconds: number
  hits: number
  capped: boolean
  by_agent_type: Record<string, number>
  last_hit_date: string | null
}

/** A live count of the hits arriving, read every few seconds from the API. */
function Live(props: { id: number }) {
  const live = useApi<LiveHits>(`/v1/pixel/campaigns/${props.id}/hits`, { pollMs: 3000, keepPolling: () => true })
  const d = live.data
  return (
    <div class="panel">
      <h2>Hits arriving</h2>
      <ErrorBox error={live.error} />
      {d ? (
        <p aria-live="polite" data-testid="live-hits">
          <strong class="card-count">
            {fmt.int(d.hits)}
            {d.capped ? '+' : ''}
          </strong>{' '}
          in the last {Math.round(d.window_seconds / 60)} minutes
          {Object.keys(d.by_agent_type).length
            ? ` (${Object.entries(d.by_agent_type)
                .map(([t, n]) => `${t.replaceAll('_', ' ')} ${fmt.int(n)}`)
                .join(', ')})`
            : ''}
          {d.last_hit_date ? `; last at ${fmt.date(d.last_hit_date)}` : ''}
        </p>
      ) : (
        <Loading what="hits" />
      )}
    </div>
  )
}

export function PixelCampaigns() {
  const list = useApi<Campaign[]>('/v1/pixel/campaigns')
  return (
    <Page title="Pixel campaigns">
      <ErrorBox error={list.error} />
      {!list.data ? (
        <Loading what="campaigns" />
      ) : list.data.length === 0 ? (
        <p>No campaign yet.</p>
      ) : (
        <ul>
          {list.data.map((c) => (
            <li key={c.id}>
              <a href={`${base}/pixel/${c.id}`}>{c.name}</a>{' '}
              <span class="muted">
                #{c.id}, {c.use_case.replaceAll('_', ' ')}
              </span>
            </li>
          ))}
        </ul>
      )}
      <CampaignForm onSaved={(c) => navigate(`${base}/pixel/${c.id}`)} />
    </Page>
  )
}

export function PixelCampaign(props: { id: string }) {
  const c = useApi<Campaign>(`/v1/pixel/campaigns/${encodeURIComponent(props.id)}`)
  const tag = useApi<PixelTag>(c.data ? `/v1/pixel/campaigns/${c.data.id}/tag` : null)
  const [saved, setSaved] = useState(false)
  useEffect(() => setSaved(false), [props.id])
  if (c.error && !c.data)
    return (
      <Page title="Pixel campaign">
        <ErrorBox error={c.error} />
      </Page>
    )
  if (!c.data) return <Loading what="campaign" />
  return (
    <Page title={c.data.name}>
      <p class="muted">
        Campaign #{c.data.id}, created {fmt.date(c.data.created_date)}
      </p>
      {saved ? <p role="status">Saved.</p> : null}
      <Live id={c.data.id} />
      <CampaignForm
        key={c.data.last_updated_date}
        initial={c.data}
        onSaved={() => {
          setSaved(true)
          c.reload()
        }}
      />
      <h2>Tag code</h2>
      <ErrorBox error={tag.error} />
      {tag.data ? (
        <div class="panel">
          <h3>Image tag</h3>
          <pre>{tag.data.image_tag}</pre>
          <CopyButton text={tag.data.image_tag} label="Copy image tag" />
          <h3>JavaScript tag</h3>
          <pre>{tag.data.javascript_tag}</pre>
          <CopyButton text={tag.data.javascript_tag} label="Copy JavaScript tag" />
          <h3>Impression URL per DSP</h3>
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">DSP</th>
                  <th scope="col">Impression URL (with the DSP's macros)</th>
                  <th scope="col">
                    <span class="sr-only">Copy</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {Object.entries(tag.data.impression_urls).map(([dsp, url]) => (
                  <tr key={dsp}>
                    <td>{dsp}</td>
                    <td class="url mono">{url}</td>
                    <td>
                      <CopyButton text={url} label={`Copy ${dsp} URL`} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ) : (
        <Loading what="tag" />
      )}
      <p>
        <a href={`${base}/publisher`}>Run a publisher report</a> on this campaign's hits.
      </p>
    </Page>
  )
}
