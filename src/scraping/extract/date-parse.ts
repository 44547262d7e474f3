// Parses the date formats pages actually use (ISO 8601 and near-ISO, compact, slashed, RFC 2822, English
// month names, Unix epochs) into ISO 8601. The local date and offset are kept as written: converting to
// UTC would move late-evening articles to the next day.

const MONTHS: Record<string, number> = {
  jan: 1, january: 1, feb: 2, february: 2, mar: 3, march: 3, apr: 4, april: 4, may: 5, jun: 6, june: 6,
  jul: 7, july: 7, aug: 8, august: 8, sep: 9, sept: 9, september: 9, oct: 10, october: 10, nov: 11,
  november: 11, dec: 12, december: 12,
}

/** Earliest plausible web publication (as htmldate uses); anything older is a parsing accident. */
const MIN_YEAR = 1995

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0')
}

function validDay(y: number, m: number, d: number): boolean {
  if (y < MIN_YEAR || m < 1 || m > 12 || d < 1 || d > 31) return false
  const probe = new Date(Date.UTC(y, m - 1, d))
  if (probe.getUTCDate() !== d) return false
  // Not in the future (two days' slack for time zones and pre-dated articles).
  return probe.getTime() <= Date.now() + 2 * 86_400_000
}

function offsetOf(raw: string | undefined): string {
  if (raw === undefined || raw === '') return ''
  const u = raw.toUpperCase()
  if (u === 'Z' || u === 'UTC' || u === 'GMT') return 'Z'
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(raw)
  return m ? `${m[1]}${m[2]}:${m[3]}` : ''
}

function build(y: number, m: number, d: number, time?: { h: number; mi: number; s: number; frac?: string; off?: string }): string | null {
  if (!validDay(y, m, d)) return null
  const day = `${y}-${pad(m)}-${pad(d)}`
  if (time === undefined) return day
  if (time.h > 23 || time.mi > 59 || time.s > 60) return day
  const frac = time.frac ? '.' + time.frac.slice(1, 4).padEnd(3, '0') : ''
  return `${day}T${pad(time.h)}:${pad(time.mi)}:${pad(time.s)}${frac}${offsetOf(time.off)}`
}

const ISO =
  /^(\d{4})-?(\d{1,2})-?(\d{1,2})(?:[T\s]+(\d{1,2}):(\d{2})(?::(\d{2})(\.\d+)?)?\s*(Z|UTC|GMT|[+-]\d{2}:?\d{2})?)?/i
const SLASHED = /^(\d{4})[/.](\d{1,2})[/.](\d{1,2})\b/
const DMY_NUMERIC = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})\b/
const MONTH_NAME = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?'
const MDY = new RegExp(`\\b${MONTH_NAME}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'i')
const DMY = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH_NAME},?\\s+(\\d{4})\\b`, 'i')
const TIME_AFTER = /^[,\s]*(?:at\s+)?(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(am|pm)?\s*(Z|UTC|GMT|[+-]\d{2}:?\d{2})?/i

function monthNumber(name: string): number {
  return MONTHS[name.toLowerCase().replace(/\.$/, '')] ?? 0
}

function timeAfter(rest: string): { h: number; mi: number; s: number; off?: string } | undefined {
  const t = TIME_AFTER.exec(rest)
  if (!t) return undefined
  let h = Number(t[1])
  const ampm = t[4]?.toLowerCase()
  if (ampm === 'pm' && h < 12) h += 12
  if (ampm === 'am' && h === 12) h = 0
  return { h, mi: Number(t[2]), s: Number(t[3] ?? 0), off: t[5] }
}

/** ISO 8601 for a date string, or null when it holds no plausible date. */
export function parseDate(input: string): string | null {
  const raw = input.trim()
  if (raw === '' || raw.length > 200) return null

  if (/^\d{10}(\d{3})?$/.test(raw)) {
    const ms = raw.length === 13 ? Number(raw) : Number(raw) * 1000
    const d = new Date(ms)
    return validDay(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()) ? d.toISOString().replace('.000Z', 'Z') : null
  }

  const iso = ISO.exec(raw)
  if (iso && (raw.includes('-') || /^\d{8}(?:T|$)/.test(raw))) {
    const [, y, m, d, h, mi, s, frac, off] = iso
    const time = h !== undefined ? { h: Number(h), mi: Number(mi), s: Number(s ?? 0), frac, off } : undefined
    return build(Number(y), Number(m), Number(d), time)
  }

  const slashed = SLASHED.exec(raw)
  if (slashed) return build(Number(slashed[1]), Number(slashed[2]), Number(slashed[3]))

  const mdy = MDY.exec(raw)
  if (mdy) {
    const rest = raw.slice((mdy.index ?? 0) + mdy[0].length)
    return build(Number(mdy[3]), monthNumber(mdy[1] as string), Number(mdy[2]), timeAfter(rest))
  }
  const dmy = DMY.exec(raw)
  if (dmy) {
    const rest = raw.slice((dmy.index ?? 0) + dmy[0].length)
    return build(Number(dmy[3]), monthNumber(dmy[2] as string), Number(dmy[1]), timeAfter(rest))
  }

  const numeric = DMY_NUMERIC.exec(raw)
  if (numeric) {
    const a = Number(numeric[1])
    const b = Number(numeric[2])
    // Day-first unless that is impossible; an ambiguous pair (both <= 12) is rejected.
    if (a > 12 && b <= 12) return build(Number(numeric[3]), b, a)
    if (b > 12 && a <= 12) return build(Number(numeric[3]), a, b)
    return null
  }
  return null
}
