// Parses the date formats pages actually use into ISO 8601: ISO 8601 and near-ISO, compact, slashed,
// RFC 2822, day-first numeric (European), written-out dates in the major European languages, Unix epochs.
// The local date and offset are kept as written: converting to UTC would move late-evening articles to
// the next day. Whether a date is plausible for a page (not after the fetch, not before the web) is
// decided by the caller (dates.ts), which records why a date was rejected.
import { MONTH_ALTERNATION, monthNumber } from './date-words.ts'

export const DAY_MS = 86_400_000

/** Outside these years a match is a parsing accident, not a date a page could carry. */
const MIN_YEAR = 1990
const MAX_YEAR = 2100

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0')
}

function validDay(y: number, m: number, d: number): boolean {
  if (y < MIN_YEAR || y > MAX_YEAR || m < 1 || m > 12 || d < 1 || d > 31) return false
  return new Date(Date.UTC(y, m - 1, d)).getUTCDate() === d
}

function offsetOf(raw: string | undefined): string {
  if (raw === undefined || raw === '') return ''
  const u = raw.toUpperCase()
  if (u === 'Z' || u === 'UTC' || u === 'GMT') return 'Z'
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(raw)
  return m ? `${m[1]}${m[2]}:${m[3]}` : ''
}

interface Clock {
  h: number
  mi: number
  s: number
  frac?: string | undefined
  off?: string | undefined
}

function build(y: number, m: number, d: number, time?: Clock): string | null {
  if (!validDay(y, m, d)) return null
  const day = `${y}-${pad(m)}-${pad(d)}`
  if (time === undefined) return day
  if (time.h > 23 || time.mi > 59 || time.s > 60) return day
  const frac = time.frac ? '.' + time.frac.slice(1, 4).padEnd(3, '0') : ''
  return `${day}T${pad(time.h)}:${pad(time.mi)}:${pad(time.s)}${frac}${offsetOf(time.off)}`
}

const ISO = /^(\d{4})-?(\d{1,2})-?(\d{1,2})(?:[T\s]+(\d{1,2}):(\d{2})(?::(\d{2})(\.\d+)?)?\s*(Z|UTC|GMT|[+-]\d{2}:?\d{2})?)?/i
const TIME_AFTER =
  /^[,\s]*(?:at\s+|um\s+|à\s+|a las\s+|alle\s+|om\s+|-\s*)?(\d{1,2})[:.h](\d{2})(?::(\d{2}))?\s*(a\.?m\.?|p\.?m\.?)?\s*(Z|UTC|GMT|[+-]\d{2}:?\d{2})?/i

function timeAfter(rest: string): Clock | undefined {
  const t = TIME_AFTER.exec(rest)
  if (!t) return undefined
  let h = Number(t[1])
  const ampm = t[4]?.toLowerCase().replace(/\./g, '')
  if (ampm === 'pm' && h < 12) h += 12
  if (ampm === 'am' && h === 12) h = 0
  return { h, mi: Number(t[2]), s: Number(t[3] ?? 0), off: t[5] }
}

/** A date found in running text: its ISO form and where it stood. */
export interface DateMatch {
  iso: string
  index: number
  end: number
}

const M = `(${MONTH_ALTERNATION})\\.?`
const NOT_LETTER_BEFORE = '(?<![\\p{L}\\d])'
const NOT_LETTER_AFTER = '(?![\\p{L}])'

/**
 * [day, month] of a numeric pair: month first when only that can be, day first when only that can be or
 * when `dayFirst`; null when it reads both ways and the order is unknown.
 */
function dayMonth(a: number, b: number, dayFirst: boolean): [number, number] | null {
  if (a <= 12 && b > 12) return [b, a]
  return a > 12 || dayFirst ? [a, b] : null
}

interface Pattern {
  re: RegExp
  /** `dayFirst`: the page's language writes a slashed pair day first (dayFirstLocale). */
  read: (m: RegExpExecArray, rest: string, dayFirst: boolean) => string | null
}

const PATTERNS: Pattern[] = [
  {
    // 2019-05-12, 2019-05-12T10:00:00+02:00, 2019-05-12 10:00
    re: /(?<![\d/.-])(\d{4})-(\d{1,2})-(\d{1,2})(?:[T\s]+(\d{1,2}):(\d{2})(?::(\d{2})(\.\d+)?)?\s*(Z|UTC|GMT|[+-]\d{2}:?\d{2})?)?(?![\d-])/giu,
    read: (m) => {
      const time = m[4] !== undefined ? { h: Number(m[4]), mi: Number(m[5]), s: Number(m[6] ?? 0), frac: m[7], off: m[8] } : undefined
      return build(Number(m[1]), Number(m[2]), Number(m[3]), time)
    },
  },
  {
    // 2019/05/12, 2019.05.12
    re: /(?<![\d/.])(\d{4})([/.])(\d{1,2})\2(\d{1,2})(?![\d/])/gu,
    read: (m) => build(Number(m[1]), Number(m[3]), Number(m[4])),
  },
  {
    // 12.05.2019, 12-05-2019, 12/05/2019 (day first; a slashed pair that could be either way is refused,
    // unless the page's language writes it day first; a pair that can only be month first, 11.14.2019
    // or 11/14/2019, is read so)
    re: /(?<![\d/.-])(\d{1,2})\s?([./-])\s?(\d{1,2})\s?\2\s?(\d{4})(?![\d/])/gu,
    read: (m, rest, dayFirst) => {
      // Dots and dashes are day first wherever the pair could be; slashes only where the locale says so.
      const order = dayMonth(Number(m[1]), Number(m[3]), dayFirst || m[2] !== '/')
      return order === null ? null : build(Number(m[4]), order[1], order[0], timeAfter(rest))
    },
  },
  {
    // 12 May 2019, 12. Mai 2019, 12th of May, 2019, 12 de mayo de 2019, 1er mai 2019, 29 / Dezember / 2022
    re: new RegExp(
      `${NOT_LETTER_BEFORE}(\\d{1,2})(?:st|nd|rd|th|er|e|º|°|\\.)?\\s*(?:of\\s+|de\\s+|\\/\\s*)?${M}${NOT_LETTER_AFTER},?\\s*(?:de\\s+|del\\s+|r\\.\\s*|\\/\\s*)?(\\d{4})(?!\\d)`,
      'giu',
    ),
    read: (m, rest) => build(Number(m[3]), monthNumber(m[2] as string), Number(m[1]), timeAfter(rest)),
  },
  {
    // 2020年10月7日, 2020년 10월 7일 (Chinese, Japanese, Korean)
    re: /(?<!\d)(\d{4})\s*[年년]\s*(\d{1,2})\s*[月월]\s*(\d{1,2})\s*[日일]/gu,
    read: (m, rest) => build(Number(m[1]), Number(m[2]), Number(m[3]), timeAfter(rest)),
  },
  {
    // 2020. október 7. (Hungarian: year first, with its dot)
    re: new RegExp(`(?<!\\d)(\\d{4})\\.\\s*${M}${NOT_LETTER_AFTER}\\s*(\\d{1,2})\\.?(?!\\d)`, 'giu'),
    read: (m, rest) => build(Number(m[1]), monthNumber(m[2] as string), Number(m[3]), timeAfter(rest)),
  },
  {
    // May 12, 2019; Mon Jan 13 13:37:49 UTC 2020 (Date#toString and Unix date)
    re: new RegExp(
      `${NOT_LETTER_BEFORE}${M}${NOT_LETTER_AFTER}\\s*(\\d{1,2})(?:st|nd|rd|th)?(?:,?\\s+|\\s+(\\d{1,2}):(\\d{2}):(\\d{2})\\s+(?:[A-Z]{3,4}\\s+)?)(\\d{4})(?!\\d)`,
      'giu',
    ),
    read: (m, rest) => {
      const time = m[3] !== undefined ? { h: Number(m[3]), mi: Number(m[4]), s: Number(m[5]) } : timeAfter(rest)
      return build(Number(m[6]), monthNumber(m[1] as string), Number(m[2]), time)
    },
  },
]

function matchAll(text: string, from: number, to: number, found: DateMatch[], limit: number, dayFirst: boolean): void {
  const slice = text.slice(from, to)
  for (const { re, read } of PATTERNS) {
    re.lastIndex = 0
    let m: RegExpExecArray | null
    let n = 0
    while ((m = re.exec(slice)) !== null && n < limit) {
      // A match at the very start of a window cut from a longer text could not see what precedes it.
      if (from > 0 && m.index === 0) continue
      const end = from + m.index + m[0].length
      const iso = read(m, text.slice(end, end + 40), dayFirst)
      if (iso !== null) {
        found.push({ iso, index: from + m.index, end })
        n++
      }
    }
  }
}

const EASTERN_DIGIT = /[\u0660-\u0669\u06f0-\u06f9]/
const EASTERN_DIGITS = /[\u0660-\u0669\u06f0-\u06f9]/g

/** Every date pattern holds a four-digit year; long texts are only searched around one. */
const YEAR = /(?:19|20)\d{2}/g
const BEFORE_YEAR = 48
const AFTER_YEAR = 44

/** Every date expression in `text`, in order of position (at most `limit`). */
export function findDates(input: string, limit = 50, dayFirst = false): DateMatch[] {
  const found: DateMatch[] = []
  // Arabic-Indic and Persian digits read as ASCII ones (one character for one: positions stay).
  const text = EASTERN_DIGIT.test(input) ? input.replace(EASTERN_DIGITS, (d) => String((d.codePointAt(0) as number) & 0xf)) : input
  if (text.length <= 4 * (BEFORE_YEAR + AFTER_YEAR)) {
    matchAll(text, 0, text.length, found, limit, dayFirst)
  } else {
    // Windows around each year, merged where they overlap; running the month-name patterns over every
    // position of a long page text is what would cost.
    YEAR.lastIndex = 0
    let m: RegExpExecArray | null
    let start = -1
    let end = -1
    let windows = 0
    while ((m = YEAR.exec(text)) !== null && windows < 4 * limit) {
      const from = Math.max(0, m.index - BEFORE_YEAR - 1)
      const to = Math.min(text.length, m.index + 4 + AFTER_YEAR)
      if (start >= 0 && from <= end) {
        end = to
        continue
      }
      if (start >= 0) {
        matchAll(text, start, end, found, limit, dayFirst)
        windows++
      }
      start = from
      end = to
    }
    if (start >= 0) matchAll(text, start, end, found, limit, dayFirst)
  }
  found.sort((a, b) => a.index - b.index)
  // Drop matches inside an earlier one (the time part of an ISO date read as something else).
  const out: DateMatch[] = []
  for (const f of found) if (out.length === 0 || f.index >= (out[out.length - 1] as DateMatch).end) out.push(f)
  return out.slice(0, limit)
}

/** ISO 8601 for a date string (a value of markup, or a short text), or null when it holds no date. */
export function parseDate(input: string, dayFirst = false): string | null {
  const raw = input.trim()
  if (raw === '' || raw.length > 300) return null

  if (/^\d{10}(\d{3})?$/.test(raw)) {
    const ms = raw.length === 13 ? Number(raw) : Number(raw) * 1000
    const d = new Date(ms)
    return validDay(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()) ? d.toISOString().replace('.000Z', 'Z') : null
  }

  const iso = ISO.exec(raw)
  if (iso && (raw.includes('-') || /^\d{8}(?:T|$)/.test(raw))) {
    const [, y, m, d, h, mi, s, frac, off] = iso
    const time = h !== undefined ? { h: Number(h), mi: Number(mi), s: Number(s ?? 0), frac, off } : undefined
    const built = build(Number(y), Number(m), Number(d), time)
    if (built !== null) return built
  }
  return findDates(raw, 1, dayFirst)[0]?.iso ?? null
}

/** Where the US month-first order is not the convention: a US or unstated English locale writes 11/02 for November 2nd. */
const MONTH_FIRST_REGIONS = new Set(['us', 'ph', 'ca', 'fm', 'mh', 'pw'])

/**
 * Whether a page's declared locale (`<html lang>`, og:locale…: the first one given) writes an ambiguous
 * slashed date (02/11/2023) day first: every language but English does, and English outside the US and
 * a few places. Without a declared locale, or with bare "en", the order is unknown and such dates are refused.
 */
export function dayFirstLocale(tags: ReadonlyArray<string | null | undefined>): boolean {
  const tag = tags.find((t) => t && t.trim() !== '')
  if (!tag) return false
  const [language = '', region = ''] = tag.trim().toLowerCase().split(/[-_]/)
  if (!/^[a-z]{2,3}$/.test(language)) return false
  if (MONTH_FIRST_REGIONS.has(region)) return false
  return language !== 'en' || region !== ''
}

const SHORT_YEAR = /(?<![\d.])(\d{1,2})\.(\d{1,2})\.(\d{2})(?![\d.])/
const SHORT_YEAR_SLASHED = /(?<![\d/])(\d{1,2})\/(\d{1,2})\/(\d{2})(?![\d/])/

/** A two-digit year: 90–99 are the 1990s, the rest this century (MIN_YEAR is 1990). */
const fullYear = (yy: number): number => (yy >= 90 ? 1900 + yy : 2000 + yy)

/**
 * A date with a two-digit year: day first with dots ("30.10.23"); with slashes in the order that is
 * possible, else day first where the locale writes so, else month first ("11/19/19 06:56 AM EST" is 19
 * November 2019; "03/04/21" on an English page without a region is 4 March, where a four-digit year
 * would be refused). Only for text an element marks as a date: in running text "1.2.10" is as likely a
 * version or a section number.
 */
export function parseShortYearDate(text: string, dayFirst = false): string | null {
  const dotted = SHORT_YEAR.exec(text)
  if (dotted) return build(fullYear(Number(dotted[3])), Number(dotted[2]), Number(dotted[1]))
  const slashed = SHORT_YEAR_SLASHED.exec(text)
  if (!slashed) return null
  const [a, b] = [Number(slashed[1]), Number(slashed[2])]
  const [day, month] = dayMonth(a, b, dayFirst) ?? [b, a]
  return build(fullYear(Number(slashed[3])), month, day)
}

/**
 * A block holding a two-digit-year date and nothing else but a time: "02.12.19", "11/19/19 06:56 AM EST".
 * Day and month take two digits each: "1.2.10" or "2.4.18" alone under a heading is a version.
 */
const LONE_SHORT_YEAR = /^\s*(\d{2}([./])\d{2}\2\d{2})(?:,?\s+\d{1,2}:\d{2}(?::\d{2})?(?:\s*(?:[ap]\.?m\.?|uhr|h))?(?:\s+[a-z]{2,4})?)?\s*$/i
const LONE_BLOCK_CHARS = 60

/** The date of a block that holds a two-digit-year date alone (LONE_SHORT_YEAR), read as parseShortYearDate reads it. */
export function loneShortYearDate(block: string, dayFirst = false): string | null {
  if (block.length > LONE_BLOCK_CHARS) return null
  const m = LONE_SHORT_YEAR.exec(block)
  return m ? parseShortYearDate(m[1] as string, dayFirst) : null
}
