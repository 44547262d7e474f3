import { ErrorBox, Field } from './common.tsx'

export const today = () => new Date().toISOString().slice(0, 10)
export const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10)

/** Start and end date inputs with quick ranges (dates are UTC days, as the API counts them). */
export function DateRange(props: {
  start: string
  end: string
  onChange: (start: string, end: string) => void
  errors?: { start?: string | null; end?: string | null }
}) {
  return (
    <div class="row">
      <Field label="From" id="range-start" error={props.errors?.start ?? null}>
        <input id="range-start" type="date" required value={props.start} onInput={(e) => props.onChange((e.target as HTMLInputElement).value, props.end)} />
      </Field>
      <Field label="To" id="range-end" error={props.errors?.end ?? null}>
        <input id="range-end" type="date" required value={props.end} onInput={(e) => props.onChange(props.start, (e.target as HTMLInputElement).value)} />
      </Field>
      <div class="field">
        <span class="muted">Quick ranges</span>
        <div class="row">
          <button type="button" class="secondary" onClick={() => props.onChange(daysAgo(6), today())}>
            7 days
          </button>
          <button type="button" class="secondary" onClick={() => props.onChange(daysAgo(29), today())}>
            30 days
          </button>
        </div>
      </div>
    </div>
  )
}

/**
 * The end of a report form: its date range (with the API's field errors), the error of the last
 * attempt, and the submit button (disabled while the report is being created or when `disabled`).
 */
export function ReportRange(props: {
  range: { start: string; end: string }
  onChange: (range: { start: string; end: string }) => void
  fieldError: (field: string) => string | null
  action: { busy: boolean; error: Error | null }
  disabled: boolean
}) {
  return (
    <>
      <DateRange
        start={props.range.start}
        end={props.range.end}
        onChange={(start, end) => props.onChange({ start, end })}
        errors={{ start: props.fieldError('start_date'), end: props.fieldError('end_date') }}
      />
      <ErrorBox error={props.action.error} />
      <button type="submit" disabled={props.action.busy || props.disabled}>
        Run report
      </button>
    </>
  )
}

/** Every day from start to end inclusive, as YYYY-MM-DD. */
export function daysBetween(start: string, end: string): string[] {
  const out: string[] = []
  for (let t = Date.parse(`${start}T00:00:00Z`); t <= Date.parse(`${end}T00:00:00Z`) && out.length < 1000; t += 86_400_000)
    out.push(new Date(t).toISOString().slice(0, 10))
  return out
}

/** Rows as CSV text (RFC 4180 quoting). */
export function toCsv(header: string[], rows: (string | number | null | undefined)[][]): string {
  const cell = (v: string | number | null | undefined) => {
    const s = v === null || v === undefined ? '' : String(v)
    return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s
  }
  return [header, ...rows].map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n'
}
