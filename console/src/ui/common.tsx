import type { ComponentChildren } from 'preact'
import { useEffect, useState } from 'preact/hooks'

import { ApiError } from '../api.ts'

export function Page(props: { title: string; actions?: ComponentChildren; children: ComponentChildren }) {
  useEffect(() => {
    document.title = `${props.title} · Curata Console`
  }, [props.title])
  return (
    <section class="page" aria-labelledby="page-title">
      <header class="page-head">
        <h1 id="page-title" tabIndex={-1}>
          {props.title}
        </h1>
        {props.actions ? <div class="actions">{props.actions}</div> : null}
      </header>
      {props.children}
    </section>
  )
}

export function Loading(props: { what?: string }) {
  return (
    <p class="muted" role="status">
      Loading{props.what ? ` ${props.what}` : ''}…
    </p>
  )
}

/** An API failure as the user should read it: what happened and what to do (401, 404, 429, 5xx). */
export function ErrorBox(props: { error: Error | null }) {
  const e = props.error
  if (!e) return null
  if (e instanceof ApiError) {
    const title =
      e.status === 404
        ? 'Not found'
        : e.status === 429
          ? 'Too many requests'
          : e.status >= 500
            ? 'Something went wrong on our side'
            : e.status === 401
              ? 'Signed out'
              : e.status === 403
                ? 'Not allowed'
                : 'The request was refused'
    const hint =
      e.status === 404
        ? 'It does not exist, or it belongs to another client.'
        : e.status === 429
          ? `Your key's request limit is reached${e.retryAfter !== null ? `: retry in ${e.retryAfter} s` : ''}.`
          : e.status >= 500
            ? 'Retry in a moment. If it persists, quote the request id to support.'
            : null
    return (
      <div class="error" role="alert" data-status={e.status}>
        <strong>{title}</strong>{' '}
        <span class="code">
          ({e.status} {e.code})
        </span>
        <p>{e.message}</p>
        {hint ? <p>{hint}</p> : null}
        {e.details.length > 0 ? (
          <ul>
            {e.details.map((d) => (
              <li key={d.path}>
                <code>{d.path}</code>: {d.message}
              </li>
            ))}
          </ul>
        ) : null}
        {e.requestId ? <p class="muted">Request id: {e.requestId}</p> : null}
      </div>
    )
  }
  return (
    <div class="error" role="alert">
      <strong>Error</strong>
      <p>{e.message}</p>
    </div>
  )
}

/** The message of a validation error for one field (`body.buyer_seat`), shown under that field. */
export function fieldError(error: Error | null, path: string): string | null {
  if (!(error instanceof ApiError)) return null
  const hits = error.details.filter((d) => d.path === path || d.path.startsWith(`${path}.`))
  return hits.length ? hits.map((d) => d.message).join('; ') : null
}

export function Field(props: { label: string; id: string; hint?: string; error?: string | null; children: ComponentChildren }) {
  return (
    <div class={`field${props.error ? ' invalid' : ''}`}>
      <label for={props.id}>{props.label}</label>
      {props.children}
      {props.hint ? (
        <small class="hint" id={`${props.id}-hint`}>
          {props.hint}
        </small>
      ) : null}
      {props.error ? (
        <small class="field-error" id={`${props.id}-error`} role="alert">
          {props.error}
        </small>
      ) : null}
    </div>
  )
}

const statusClass: Record<string, string> = {
  complete: 'ok',
  applied: 'ok',
  live: 'ok',
  failed: 'bad',
  cancelled: 'bad',
  ended: 'muted',
  shut_down: 'bad',
}

export function Status(props: { value: string }) {
  return <span class={`badge ${statusClass[props.value] ?? 'wait'}`}>{props.value.replace('_', ' ')}</span>
}

/** Copies text with the Clipboard API and says so (for Deal IDs and tag code). */
export function CopyButton(props: { text: string; label: string }) {
  const [done, setDone] = useState<'idle' | 'copied' | 'failed'>('idle')
  return (
    <button
      type="button"
      class="secondary"
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(props.text)
          setDone('copied')
        } catch {
          setDone('failed')
        }
      }}
    >
      {done === 'copied' ? 'Copied' : done === 'failed' ? 'Copy failed: select the text' : props.label}
    </button>
  )
}

export const fmt = {
  int: (n: number) => n.toLocaleString('en-US'),
  pct: (x: number, digits = 1) => `${(x * 100).toFixed(digits)}%`,
  date: (iso: string | null) => (iso ? new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) : '—'),
  money: (x: number, currency: string | null) => `${x.toFixed(2)}${currency ? ` ${currency}` : ''}`,
  duration(ms: number): string {
    const s = Math.max(0, Math.round(ms / 1000))
    return s < 60 ? `${s} s` : s < 3600 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`
  },
}

/** Lines of a textarea as a list: trimmed, empty lines dropped. */
export const lines = (text: string) =>
  text
    .split(/[\r\n]+/)
    .map((l) => l.trim())
    .filter(Boolean)

/** Saves text as a file through a temporary object URL (CSV exports). */
export function saveFile(name: string, text: string, type = 'text/csv'): void {
  const url = URL.createObjectURL(new Blob([text], { type }))
  const a = document.createElement('a')
  a.href = url
  a.download = name
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
