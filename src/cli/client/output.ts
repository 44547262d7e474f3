/** What the client commands print: JSON with --json (stdout, one document), otherwise tables. */
import Table from 'cli-table3'

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`)
}

const cell = (v: unknown): string => (v === null || v === undefined ? '-' : typeof v === 'object' ? JSON.stringify(v) : String(v))

/** Rows as a table with the given columns (key → heading). */
export function printTable(rows: Record<string, unknown>[], columns: Record<string, string>): void {
  if (!rows.length) {
    process.stdout.write('(none)\n')
    return
  }
  const table = new Table({ head: Object.values(columns), style: { head: [], border: [] } })
  for (const r of rows) table.push(Object.keys(columns).map((k) => cell(r[k])))
  process.stdout.write(`${table.toString()}\n`)
}

/** One record as a two-column table of its fields. */
export function printRecord(record: Record<string, unknown>): void {
  const table = new Table({ style: { head: [], border: [] } })
  for (const [k, v] of Object.entries(record)) table.push({ [k]: cell(v) })
  process.stdout.write(`${table.toString()}\n`)
}

/** A note for the person at the terminal: stderr, so stdout stays the data. */
export function note(text: string): void {
  process.stderr.write(`${text}\n`)
}
