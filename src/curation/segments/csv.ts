import type { UrlReasons } from '../quality/filters.ts'

/** A URL's reasons in one CSV cell: "categories: Sports 0.91, Tennis 0.6; terms: tennis; theme: … 0.9; meaning: 0.41; example: https://… 0.82". */
export function reasonsText(r: UrlReasons | null | undefined): string {
  if (!r) return ''
  const parts: string[] = []
  if (r.categories?.length) parts.push(`categories: ${r.categories.map((c) => `${c.name} ${c.score}`).join(', ')}`)
  if (r.terms?.length) parts.push(`terms: ${r.terms.join(', ')}`)
  if (r.theme) parts.push(`theme: ${r.theme.name} ${r.theme.similarity}`)
  if (r.meaning) parts.push(`meaning: ${r.meaning.similarity}`)
  if (r.example) parts.push(`example: ${r.example.url} ${r.example.similarity}`)
  if (r.taxonomy) parts.push(`taxonomy ${r.taxonomy.taxonomy_id}: ${r.taxonomy.score}`)
  return parts.join('; ')
}

/** RFC 4180 CSV: fields with a comma, quote or line break are quoted, quotes doubled; CRLF line ends. */
export function toCsv(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  const cell = (v: unknown): string => {
    if (v === null || v === undefined) return ''
    let s = typeof v === 'string' ? v : String(v)
    // A cell starting with = + - @ would run as a formula in a spreadsheet: prefix it with a quote.
    if (/^[=+\-@\t\r]/.test(s) && typeof v === 'string') s = `'${s}`
    return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s
  }
  const lines = [columns.join(',')]
  for (const r of rows) lines.push(columns.map((c) => cell(r[c])).join(','))
  return lines.join('\r\n') + '\r\n'
}

/** True when the client asks for CSV (Accept: text/csv) rather than JSON. */
export function wantsCsv(accept: string | undefined): boolean {
  if (!accept) return false
  let csv = -1
  let json = -1
  for (const part of accept.toLowerCase().split(',')) {
    const [type, ...params] = part.trim().split(';')
    const q = Number(
      params
        .map((p) => p.trim())
        .find((p) => p.startsWith('q='))
        ?.slice(2) ?? '1',
    )
    const weight = Number.isFinite(q) ? q : 0
    if (type === 'text/csv') csv = Math.max(csv, weight)
    if (type === 'application/json' || type === '*/*' || type === 'application/*') json = Math.max(json, type === 'application/json' ? weight : weight - 0.001)
  }
  return csv > 0 && csv >= json
}
