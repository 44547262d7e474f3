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
