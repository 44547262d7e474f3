import { useEffect, useState } from 'preact/hooks'

import { ApiError, get, post, qs } from '../api.ts'
import { base, navigate } from '../router.ts'
import type { ScrapeJob, ScrapeResult } from '../types.ts'
import { tally } from '../ui/bars.tsx'
import { ErrorBox, Field, fieldError, fmt, Loading, lines, Page, Status, saveFile } from '../ui/common.tsx'
import { toCsv } from '../ui/date-range.tsx'
import { useAction, useApi } from '../ui/use-api.ts'

/** URLs from pasted or uploaded text: one per line, or the first cell of each CSV row that looks like a URL. */
export function urlsFromText(text: string): string[] {
  return lines(text)
    .map((l) => {
      const cell = l
        .split(/[,;\t]/, 1)[0]!
        .trim()
        .replace(/^"|"$/g, '')
      return cell
    })
    .filter((c) => c && !/^url$/i.test(c))
}

function Lookup() {
  const [url, setUrl] = useState('')
  const search = useAction((u: string) => get<ScrapeResult & { status?: string }>(`/v1/scraping/search${qs({ url: u })}`))
  const [found, setFound] = useState<(ScrapeResult & { status?: string }) | null>(null)
  return (
    <form
      class="panel"
      onSubmit={async (e) => {
        e.preventDefault()
        setFound((await search.run(url.trim())) ?? null)
      }}
    >
      <h2>Look up one URL</h2>
      <Field label="URL" id="lookup-url">
        <input id="lookup-url" type="url" required value={url} onInput={(e) => setUrl((e.target as HTMLInputElement).value)} />
      </Field>
      <button type="submit" disabled={search.busy}>
        Look up
      </button>
      {search.error instanceof ApiError && search.error.status === 404 ? <p>Not in the index yet.</p> : <ErrorBox error={search.error} />}
      {found ? (
        <dl class="facts">
          <dt>URL</dt>
          <dd>{found.url}</dd>
          <dt>Title</dt>
          <dd>{found.content?.title || '—'}</dd>
          <dt>Language</dt>
          <dd>{found.content?.language || '—'}</dd>
          <dt>Words</dt>
          <dd>{found.content ? fmt.int(found.content.word_count) : '—'}</dd>
          <dt>Errors</dt>
          <dd>{found.errors.join(', ') || 'none'}</dd>
        </dl>
      ) : null}
    </form>
  )
}

export function Scraping() {
  const jobs = useApi<ScrapeJob[]>('/v1/scraping/jobs?limit=50', {
    pollMs: 2000,
    keepPolling: (rows) => rows.some((j) => j.status === 'pending' || j.status === 'processing'),
  })
  const [text, setText] = useState('')
  const create = useAction((urls: string[]) => post<ScrapeJob>('/v1/scraping/jobs', { urls }))
  const urls = urlsFromText(text)
  return (
    <Page title="Scraping">
      <div class="grid2">
        <form
          class="panel"
          onSubmit={async (e) => {
            e.preventDefault()
            const job = await create.run(urls)
            if (job) navigate(`${base}/scraping/${job.id}`)
          }}
        >
          <h2>New scrape job</h2>
          <Field
            label="URLs"
            id="scrape-urls"
            hint="One per line (or a CSV whose first column is the URL), up to 1,000,000."
            error={fieldError(create.error, 'body.urls')}
          >
            <textarea id="scrape-urls" value={text} onInput={(e) => setText((e.target as HTMLTextAreaElement).value)} />
          </Field>
          <Field label="Or upload a file" id="scrape-file" hint="CSV or text.">
            <input
              id="scrape-file"
              type="file"
              accept=".csv,.txt,text/csv,text/plain"
              onChange={async (e) => {
                const file = (e.target as HTMLInputElement).files?.[0]
                if (file) setText(await file.text())
              }}
            />
          </Field>
          <p class="muted">{fmt.int(urls.length)} URLs ready</p>
          <ErrorBox error={create.error} />
          <button type="submit" disabled={create.busy || urls.length === 0}>
            Start scraping
          </button>
        </form>
        <Lookup />
      </div>
      <h2>Jobs</h2>
      <ErrorBox error={jobs.error} />
      {!jobs.data ? (
        <Loading what="jobs" />
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Job</th>
                <th scope="col">Status</th>
                <th scope="col" class="num">
                  Progress
                </th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {jobs.data.map((j) => (
                <tr key={j.id}>
                  <td>
                    <a href={`${base}/scraping/${j.id}`}>Job #{j.id}</a>
                  </td>
                  <td>
                    <Status value={j.status} />
                  </td>
                  <td class="num">
                    {fmt.int(j.progress.done)} / {fmt.int(j.progress.total)}
                  </td>
                  <td>{fmt.date(j.created_date)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Page>
  )
}

const resultsPage = 100

export function ScrapeJobScreen(props: { id: string }) {
  const [offset, setOffset] = useState(0)
  const job = useApi<ScrapeJob>(`/v1/scraping/jobs/${encodeURIComponent(props.id)}${qs({ limit: resultsPage, offset })}`, {
    pollMs: 1000,
    keepPolling: (j) => j.status === 'pending' || j.status === 'processing',
  })
  const [download, setDownload] = useState<Error | null>(null)
  const [codes, setCodes] = useState<{ label: string; value: number }[] | null>(null)
  const j = job.data
  const finished = j && (j.status === 'complete' || j.status === 'cancelled')

  // Counts by error code over every result, read once the job is finished (pages of 1,000).
  useEffect(() => {
    if (!finished || !j) return
    let live = true
    ;(async () => {
      const all: ScrapeResult[] = []
      for (let o = 0; o < j.url_count && o < 100_000; o += 1000) {
        const page = await get<ScrapeJob>(`/v1/scraping/jobs/${j.id}${qs({ limit: 1000, offset: o })}`)
        all.push(...(page.results ?? []))
        if ((page.results ?? []).length < 1000) break
      }
      if (live) setCodes(tally(all, (r) => (r.errors.length ? r.errors.join('+') : 'ok')))
    })().catch((e: Error) => live && setDownload(e))
    return () => {
      live = false
    }
  }, [finished, j?.id])

  if (job.error && !j)
    return (
      <Page title="Scrape job">
        <ErrorBox error={job.error} />
      </Page>
    )
  if (!j) return <Loading what="job" />
  const pct = j.progress.total ? Math.round((j.progress.done / j.progress.total) * 100) : 100
  return (
    <Page
      title={`Scrape job #${j.id}`}
      actions={
        finished ? (
          <button
            type="button"
            class="secondary"
            onClick={async () => {
              try {
                const rows: string[][] = []
                for (let o = 0; o < j.url_count; o += 1000) {
                  const page = await get<ScrapeJob>(`/v1/scraping/jobs/${j.id}${qs({ limit: 1000, offset: o })}`)
                  for (const r of page.results ?? []) rows.push([r.url, r.tld, r.errors.join(' '), r.content?.title ?? '', r.content?.language ?? ''])
                  if ((page.results ?? []).length < 1000) break
                }
                saveFile(`scrape-job-${j.id}.csv`, toCsv(['url', 'tld', 'errors', 'title', 'language'], rows))
              } catch (e) {
                setDownload(e as Error)
              }
            }}
          >
            Download results
          </button>
        ) : null
      }
    >
      <div class="panel">
        <p>
          <Status value={j.status} /> {fmt.int(j.progress.done)} of {fmt.int(j.progress.total)} URLs settled ({j.submitted_count} submitted,{' '}
          {j.invalid_url_count} invalid)
        </p>
        <div class="progress" role="progressbar" aria-label="Scrape progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct}>
          <div class="progress-bar" style={{ width: `${pct}%` }} />
        </div>
        <p data-testid="scrape-pct">{pct}%</p>
        {j.failure_reason ? <p class="field-error">{j.failure_reason}</p> : null}
      </div>
      <ErrorBox error={download} />
      {codes ? (
        <div class="panel">
          <h2>Results by error code</h2>
          <ul data-testid="error-codes">
            {codes.map((c) => (
              <li key={c.label}>
                {c.label}: {fmt.int(c.value)}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {j.results ? (
        <>
          <h2>Results</h2>
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">Title</th>
                  <th scope="col">Language</th>
                  <th scope="col" class="num">
                    Words
                  </th>
                  <th scope="col">Errors</th>
                </tr>
              </thead>
              <tbody>
                {j.results.map((r, i) => (
                  <tr key={`${offset + i}`}>
                    <td class="url">{r.url}</td>
                    <td>{r.content?.title ?? ''}</td>
                    <td>{r.content?.language ?? ''}</td>
                    <td class="num">{r.content ? fmt.int(r.content.word_count) : ''}</td>
                    <td>{r.errors.join(', ')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav class="pager" aria-label="Result pages">
            <button type="button" class="secondary" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - resultsPage))}>
              Previous
            </button>
            <span>
              {fmt.int(offset + 1)}–{fmt.int(offset + j.results.length)} of {fmt.int(j.url_count)}
            </span>
            <button type="button" class="secondary" disabled={offset + resultsPage >= j.url_count} onClick={() => setOffset(offset + resultsPage)}>
              Next
            </button>
          </nav>
        </>
      ) : null}
    </Page>
  )
}
