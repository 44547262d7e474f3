import { useMemo, useState } from 'preact/hooks'

import type { SegmentUrl, UrlReasons } from '../types.ts'

const pageSize = 50
type Sort = 'rank' | 'score-desc' | 'score-asc' | 'domain'

const category = (u: SegmentUrl) => u.level1_name ?? 'Unclassified'

const n2 = (x: number) => x.toFixed(2)

/** The URL's reasons in a line (docs/curation.md, "Reading the URLs"): what the score rests on. */
export function why(r: UrlReasons | undefined): string {
  if (!r) return '—'
  const parts: string[] = []
  if (r.categories?.length) parts.push(r.categories.map((c) => `${c.name} ${n2(c.score)}`).join(', '))
  if (r.terms?.length) parts.push(`words: ${r.terms.join(', ')}`)
  if (r.theme) parts.push(`theme: ${r.theme.name} ${n2(r.theme.similarity)}`)
  if (r.meaning) parts.push(`meaning ${n2(r.meaning.similarity)}`)
  if (r.example) parts.push(`like ${r.example.url} ${n2(r.example.similarity)}`)
  if (r.taxonomy) parts.push(`requested category ${n2(r.taxonomy.score)}`)
  return parts.join(' · ') || '—'
}

/** The URL's host name (the domain filter matches it as well as the registrable domain). */
const host = (url: string) => /^[a-z]+:\/\/([^/:?#]+)/i.exec(url)?.[1]?.toLowerCase() ?? ''

/**
 * The segment's URLs, all held in memory (a segment holds at most CURATION_MAX_SEGMENT_URLS,
 * 10,000 by default), so sorting and filtering by domain and category answer without a round trip;
 * 50 rows are rendered at a time.
 */
export function UrlTable(props: { urls: SegmentUrl[]; total: number }) {
  const [domain, setDomain] = useState('')
  const [cat, setCat] = useState('')
  const [sort, setSort] = useState<Sort>('rank')
  const [page, setPage] = useState(0)
  const categories = useMemo(() => [...new Set(props.urls.map(category))].sort(), [props.urls])

  const rows = useMemo(() => {
    const d = domain.trim().toLowerCase()
    const out = props.urls.filter((u) => (!d || u.tld.includes(d) || host(u.url).includes(d)) && (!cat || category(u) === cat))
    if (sort === 'score-desc') out.sort((a, b) => b.score - a.score || a.rank - b.rank)
    else if (sort === 'score-asc') out.sort((a, b) => a.score - b.score || a.rank - b.rank)
    else if (sort === 'domain') out.sort((a, b) => a.tld.localeCompare(b.tld) || a.rank - b.rank)
    return out
  }, [props.urls, domain, cat, sort])

  const pages = Math.max(1, Math.ceil(rows.length / pageSize))
  const current = Math.min(page, pages - 1)
  const shown = rows.slice(current * pageSize, (current + 1) * pageSize)
  const scoreSort = sort === 'score-desc' ? 'descending' : sort === 'score-asc' ? 'ascending' : 'none'

  return (
    <div>
      <div class="row">
        <div class="field">
          <label for="url-domain">Filter by domain</label>
          <input
            id="url-domain"
            type="search"
            value={domain}
            onInput={(e) => {
              setDomain((e.target as HTMLInputElement).value)
              setPage(0)
            }}
          />
        </div>
        <div class="field">
          <label for="url-category">Category</label>
          <select
            id="url-category"
            value={cat}
            onChange={(e) => {
              setCat((e.target as HTMLSelectElement).value)
              setPage(0)
            }}
          >
            <option value="">All categories</option>
            {categories.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="url-sort">Sort</label>
          <select id="url-sort" value={sort} onChange={(e) => setSort((e.target as HTMLSelectElement).value as Sort)}>
            <option value="rank">Rank</option>
            <option value="score-desc">Score, highest first</option>
            <option value="score-asc">Score, lowest first</option>
            <option value="domain">Domain</option>
          </select>
        </div>
      </div>
      <p class="muted" role="status">
        <span data-testid="url-count">
          {rows.length.toLocaleString('en-US')} of {props.urls.length.toLocaleString('en-US')} URLs
        </span>
        {props.urls.length < props.total ? ` (loading: ${props.urls.length.toLocaleString('en-US')} of ${props.total.toLocaleString('en-US')} so far)` : ''}
      </p>
      {/* On a narrow screen each URL is a card of labelled fields (styles.css, table.stacked). */}
      <div class="table-wrap">
        <table class="stacked">
          <caption class="sr-only">Segment URLs</caption>
          <thead>
            <tr>
              <th scope="col" class="num">
                Rank
              </th>
              <th scope="col">URL</th>
              <th scope="col">Domain</th>
              <th scope="col">Category</th>
              <th scope="col" class="num" aria-sort={scoreSort}>
                <button type="button" class="sort" onClick={() => setSort(sort === 'score-desc' ? 'score-asc' : 'score-desc')}>
                  Score {sort === 'score-desc' ? '▼' : sort === 'score-asc' ? '▲' : ''}
                </button>
              </th>
              <th scope="col">Source</th>
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((u) => (
              <tr key={u.rank}>
                <td class="num" data-label="Rank">
                  {u.rank}
                </td>
                <td class="url" data-label="URL">
                  {u.url}
                </td>
                <td data-label="Domain">{u.tld}</td>
                <td data-label="Category">{[u.level1_name, u.level2_name, u.level3_name].filter(Boolean).join(' › ') || '—'}</td>
                <td class="num" data-label="Score">
                  {u.score.toFixed(3)}
                </td>
                <td data-label="Source">{u.source}</td>
                <td class="why" data-label="Why">
                  {why(u.reasons)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <nav class="pager" aria-label="URL pages">
        <button type="button" class="secondary" disabled={current === 0} onClick={() => setPage(current - 1)}>
          Previous
        </button>
        <span>
          Page {current + 1} of {pages}
        </span>
        <button type="button" class="secondary" disabled={current >= pages - 1} onClick={() => setPage(current + 1)}>
          Next
        </button>
      </nav>
    </div>
  )
}
