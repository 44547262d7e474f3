import { useState } from 'preact/hooks'

import { post } from '../api.ts'
import { base, navigate } from '../router.ts'
import type { PromptReading as Reading, Segment } from '../types.ts'
import { ErrorBox, Field, fieldError, fmt, Loading, lines, Page, Status } from '../ui/common.tsx'
import { useAction, useApi } from '../ui/use-api.ts'
import { PromptReading } from './prompt-reading.tsx'

export function SegmentList() {
  const list = useApi<Segment[]>('/v1/curation/segment-requests', { pollMs: 2000, keepPolling: (rows) => rows.some((s) => s.status !== 'complete') })
  const rows = list.data ? [...list.data].reverse() : null
  return (
    <Page
      title="Segments"
      actions={
        <a class="button" href={`${base}/segments/new`}>
          New segment
        </a>
      }
    >
      <ErrorBox error={list.error} />
      {!rows ? (
        <Loading what="segments" />
      ) : rows.length === 0 ? (
        <p>No segment yet: create one from a prompt or from example URLs.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <caption class="sr-only">Your segments, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Segment</th>
                <th scope="col">Status</th>
                <th scope="col" class="num">
                  URLs
                </th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((s) => (
                <tr key={s.id}>
                  <td>
                    <a href={`${base}/segments/${s.id}`}>{s.name ?? s.prompt ?? `Segment ${s.id}`}</a>
                    <div class="muted">#{s.id}</div>
                  </td>
                  <td>
                    <Status value={s.status} />
                  </td>
                  <td class="num">{s.url_count === null ? '—' : fmt.int(s.url_count)}</td>
                  <td>{fmt.date(s.created_date)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Page>
  )
}

const numberOrNull = (s: string) => (s.trim() === '' ? null : Number(s))

export function SegmentNew() {
  const [f, setF] = useState({ name: '', prompt: '', example_urls: '', taxonomy_id: '', block_tlds: '', block_keywords: '', extra_hops_count: '0' })
  const set = (k: keyof typeof f) => (e: Event) => setF({ ...f, [k]: (e.target as HTMLInputElement).value })
  const create = useAction((body: Record<string, unknown>) => post<Segment>('/v1/curation/segment-requests', body))
  const read = useAction((prompt: string) => post<Reading>('/v1/curation/prompt-interpretations', { prompt }))
  const [reading, setReading] = useState<Reading | null>(null)
  const err = (path: string) => fieldError(create.error, `body.${path}`)
  return (
    <Page title="New segment">
      <form
        class="panel"
        onSubmit={async (e) => {
          e.preventDefault()
          const urls = lines(f.example_urls)
          const body: Record<string, unknown> = {
            name: f.name.trim() || null,
            prompt: f.prompt.trim() || null,
            example_urls: urls.length ? urls : null,
            taxonomy_id: numberOrNull(f.taxonomy_id),
            block_tlds: lines(f.block_tlds).length ? lines(f.block_tlds) : null,
            block_keywords: lines(f.block_keywords).length ? lines(f.block_keywords) : null,
            extra_hops_count: urls.length ? Number(f.extra_hops_count) : null,
          }
          const s = await create.run(body)
          if (s) navigate(`${base}/segments/${s.id}`)
        }}
      >
        <Field label="Name" id="seg-name" hint="Optional; shown in lists." error={err('name')}>
          <input id="seg-name" value={f.name} onInput={set('name')} maxLength={200} />
        </Field>
        <Field label="Prompt" id="seg-prompt" hint="Describe the audience, e.g. “trail running shoes and race training”." error={err('prompt')}>
          <textarea
            id="seg-prompt"
            value={f.prompt}
            onInput={(e) => {
              set('prompt')(e)
              setReading(null)
            }}
            maxLength={2000}
          />
        </Field>
        <div class="row reading-check">
          <button type="button" class="secondary" disabled={read.busy || !f.prompt.trim()} onClick={async () => setReading((await read.run(f.prompt)) ?? null)}>
            {read.busy ? 'Reading…' : 'Check the reading'}
          </button>
        </div>
        <ErrorBox error={read.error} />
        <div aria-live="polite">
          {reading?.message ? <div class="notice">{reading.message}</div> : null}
          {reading ? <PromptReading reading={reading.interpretation} /> : null}
        </div>
        <Field label="Example URLs" id="seg-urls" hint="One per line, up to 100. Pages like these are added." error={err('example_urls')}>
          <textarea id="seg-urls" value={f.example_urls} onInput={set('example_urls')} />
        </Field>
        <div class="row">
          <Field label="Link hops from the examples" id="seg-hops" error={err('extra_hops_count')}>
            <select id="seg-hops" value={f.extra_hops_count} onChange={set('extra_hops_count')}>
              <option value="0">0</option>
              <option value="1">1</option>
              <option value="2">2</option>
            </select>
          </Field>
          <Field label="Taxonomy id" id="seg-tax" hint="Optional category (see /v1/curation/taxonomy)." error={err('taxonomy_id')}>
            <input id="seg-tax" inputMode="numeric" value={f.taxonomy_id} onInput={set('taxonomy_id')} />
          </Field>
        </div>
        <div class="row">
          <Field label="Blocked domains" id="seg-block-tlds" hint="One per line; their subdomains too." error={err('block_tlds')}>
            <textarea id="seg-block-tlds" value={f.block_tlds} onInput={set('block_tlds')} />
          </Field>
          <Field label="Blocked keywords" id="seg-block-kw" hint="One per line; pages containing one are left out." error={err('block_keywords')}>
            <textarea id="seg-block-kw" value={f.block_keywords} onInput={set('block_keywords')} />
          </Field>
        </div>
        <ErrorBox error={create.error} />
        <button type="submit" disabled={create.busy}>
          {create.busy ? 'Creating…' : 'Create segment'}
        </button>
      </form>
    </Page>
  )
}
