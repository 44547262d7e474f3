// Published / last-updated dates from all the evidence a page carries (date-evidence.ts), chosen by a
// fixed preference order, checked for plausibility against the fetch time, and recorded with where they
// came from (docs/extraction.md, "Dates"). The order prefers what a publisher states on purpose
// (structured data, meta tags) over what is merely written on the page (markup, text) or implied (URL).
import type { DateEvidence, EvidenceInputs, EvidenceSource } from './date-evidence.ts'
import { bodyEvidence, headerEvidence } from './date-evidence.ts'
import { DAY_MS } from './date-parse.ts'

/**
 * No page a crawler meets today was published before the web reached the public; an earlier date is a
 * historical mention. htmldate uses the same floor.
 */
export const WEB_BEGINS = '1995-01-01'
/** Clock skew and pre-dated articles allowed past the fetch time. */
const FUTURE_SLACK_MS = 15 * 60_000

export interface ChosenDate {
  source: EvidenceSource
  field: string
  value: string
}

export type RejectionReason = 'after_fetch_time' | 'before_web'

export interface RejectedDate extends ChosenDate {
  kind: 'published' | 'modified'
  reason: RejectionReason
}

/** Why the page's dates are what they are: stored in the page metadata as `date_evidence`. */
export interface DateEvidenceRecord {
  published: ChosenDate | null
  last_updated: ChosenDate | null
  /** Dates the page carries that failed a plausibility rule (at most a few). */
  rejected: RejectedDate[]
  /** Adjustments made between pieces of evidence, e.g. an update stamped earlier than the publication. */
  notes: string[]
}

export interface PageDates {
  published: string | null
  modified: string | null
  evidence: DateEvidenceRecord
}

export interface DateInputs extends EvidenceInputs {
  /** When the page was fetched: no date of the page can be later. */
  fetchedAt: Date
}

/** Below a date at the headline and the first <time>, above a date found anywhere in the text. */
const SCRIPT_RANK = 7.6
const GENERIC_META = new Set(['date', 'dc:date', 'dcterms:date', 'created', 'creation_date'])

/** Lower is preferred. */
function rank(e: DateEvidence): number {
  switch (e.source) {
    case 'json-ld':
      return e.field === 'datePublished' || e.field === 'dateModified' ? 0 : 2
    case 'meta':
      // A bare "date" does not say which date it is; a <time> or itemprop in the article does.
      // A date in a script's serialised state is a last resort (date-script.ts).
      return e.field.startsWith('script:') ? SCRIPT_RANK : GENERIC_META.has(e.field) ? 3.5 : 1
    case 'markup':
      // A date-classed element at the headline says less than itemprop or a named <time>. The first
      // <time> anywhere on the page is a guess (a sidebar, a teaser, a comment): below a date written at
      // the headline.
      return e.field === 'first time[datetime]' ? 7.5 : e.field.startsWith('class=') ? 4 : 3
    case 'text':
      return e.field === 'labelled' ? 5 : e.field === 'near headline' ? 7 : 8
    case 'url':
      return 6
  }
}

const day = (iso: string): string => iso.slice(0, 10)

function instantOf(iso: string): number {
  // A bare day is taken at its earliest moment anywhere (UTC+14), so a same-day date is never "future".
  if (iso.length === 10) return Date.parse(`${iso}T00:00:00+14:00`)
  const hasOffset = /(?:Z|[+-]\d{2}:\d{2})$/.test(iso)
  return Date.parse(hasOffset ? iso : `${iso}+14:00`)
}

function rejection(e: DateEvidence, fetchedAt: number): RejectionReason | null {
  if (day(e.value) < WEB_BEGINS) return 'before_web'
  const t = instantOf(e.value)
  if (Number.isFinite(t) && t > fetchedAt + FUTURE_SLACK_MS) return 'after_fetch_time'
  return null
}

/** Fallbacks that may pick up any date on the page: never used to correct a stated one. */
const WEAK_FIELDS = new Set(['first time[datetime]', 'nearest in text'])
const isWeak = (e: DateEvidence): boolean => WEAK_FIELDS.has(e.field) || e.field.startsWith('script:')
const UTC_STAMP = /T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|\+00:00)$/

function shiftDay(iso: string, days: number): string {
  const d = new Date(`${day(iso)}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}

function chosen(e: DateEvidence | undefined): ChosenDate | null {
  return e === undefined ? null : { source: e.source, field: e.field, value: e.value }
}

/**
 * A timestamp written in UTC can fall on the next (or previous) day of the publisher's own calendar; a
 * local day stated elsewhere on the page (URL, another tag, a visible date) one day apart, on the side
 * the hour allows, is the publisher's day.
 */
function publishersDay(published: DateEvidence, ordered: DateEvidence[], notes: string[]): DateEvidence {
  if (!UTC_STAMP.test(published.value)) return published
  const hour = Number(published.value.slice(11, 13))
  const localDay = hour < 12 ? shiftDay(published.value, -1) : shiftDay(published.value, 1)
  const local = ordered.find((e) => e.kind === 'published' && !UTC_STAMP.test(e.value) && !isWeak(e) && day(e.value) === localDay)
  if (local === undefined) return published
  notes.push(`published ${published.value} (UTC) is ${localDay} in the publisher's time (${local.source} ${local.field})`)
  return { ...published, value: day(local.value), field: `${published.field} (day from ${local.source})` }
}

/** Kinds of evidence that do not copy one another: what the publisher's metadata says, what the page shows, the URL. */
type Witness = 'metadata' | 'visible' | 'url'

function witnessOf(e: DateEvidence): Witness | null {
  if (isWeak(e)) return null
  // A <meta itemprop> in the body is metadata too: nothing of it is shown.
  if (e.source === 'json-ld' || e.source === 'meta' || e.field.startsWith('meta[')) return 'metadata'
  return e.source === 'url' ? 'url' : 'visible'
}

function witnessesByDay(evidence: DateEvidence[]): Map<string, Set<Witness>> {
  const byDay = new Map<string, Set<Witness>>()
  for (const e of evidence) {
    const w = witnessOf(e)
    if (w === null) continue
    const set = byDay.get(day(e.value)) ?? new Set<Witness>()
    set.add(w)
    byDay.set(day(e.value), set)
  }
  return byDay
}

/**
 * When the evidence disagrees, a day two independent kinds of evidence give (metadata and the visible
 * page, or the URL and the visible page) beats a day only one of them gives: e.g. JSON-LD datePublished
 * against a "Stand: …" update the page shows and a meta tag repeats.
 */
function agreedDay(published: DateEvidence, all: DateEvidence[], notes: string[]): DateEvidence {
  const byDay = witnessesByDay(all)
  const own = byDay.get(day(published.value))?.size ?? 0
  if (own >= 2) return published
  // A day some evidence calls an update, before the publication, is a scheduled post's edit: no candidate.
  const editsBefore = new Set(all.filter((e) => e.kind === 'modified' && day(e.value) < day(published.value)).map((e) => day(e.value)))
  let best: DateEvidence | undefined
  let bestCount = own
  for (const e of all) {
    const n = byDay.get(day(e.value))?.size ?? 0
    if (witnessOf(e) !== null && n > bestCount && !editsBefore.has(day(e.value))) {
      best = e
      bestCount = n
    }
  }
  if (best === undefined || bestCount < 2) return published
  notes.push(`published ${day(published.value)} (${published.source} ${published.field}) has one witness; ${day(best.value)} has ${bestCount}: taken`)
  return best
}

/** Days a stated publication may stand from the URL's day (time zones, a post that went out after midnight). */
const URL_TOLERANCE_DAYS = 2

/**
 * A CMS writes the date into the URL when the post is first published and never rewrites it (a changed URL
 * would break every link to it), whereas a site migration or a re-publication rewrites the structured
 * data. A stated publication day more than two days from the URL's day is such a rewrite: the URL's day is
 * the original. A canonical URL's day counts as the page's own (an AMP or syndicated copy's original).
 */
function urlsDay(published: DateEvidence, evidence: DateEvidence[], notes: string[]): DateEvidence {
  const url = evidence.find((e) => e.source === 'url')
  if (url === undefined || published.source === 'url') return published
  const apart = Math.abs(Date.parse(day(url.value)) - Date.parse(day(published.value))) / DAY_MS
  if (!(apart > URL_TOLERANCE_DAYS)) return published
  const whose = url.field === 'canonical path' ? "canonical URL's" : "URL's"
  notes.push(
    `published ${day(published.value)} (${published.source} ${published.field}) is ${Math.round(apart)} days from the ${whose} ${day(url.value)}: the ${whose} taken`,
  )
  return url
}

/**
 * The abstain rule: a page whose only publication evidence is guesses (the first <time>, a script's state,
 * a date somewhere in the text) that name different days has no date we can defend, and a wrong date
 * costs more than none (a wrong date misfiles the page; none leaves it to the fetch time).
 */
function guessesDisagree(published: DateEvidence, ordered: DateEvidence[], notes: string[]): boolean {
  if (!isWeak(published)) return false
  const other = ordered.find((e) => e.kind === 'published' && isWeak(e) && day(e.value) !== day(published.value))
  if (other === undefined) return false
  notes.push(`only guesses, which disagree (${day(published.value)} ${published.field}, ${day(other.value)} ${other.field}): no publication date`)
  return true
}

export function extractDates(input: DateInputs): PageDates {
  const fetchedAt = input.fetchedAt.getTime()
  const rejected: RejectedDate[] = []
  const notes: string[] = []
  const plausible = (list: DateEvidence[]): DateEvidence[] =>
    list.filter((e) => {
      const reason = rejection(e, fetchedAt)
      if (reason !== null && rejected.length < 5 && !rejected.some((r) => r.value === e.value && r.kind === e.kind)) {
        rejected.push({ kind: e.kind, source: e.source, field: e.field, value: e.value, reason })
      }
      return reason === null
    })
  const order = (list: DateEvidence[]): DateEvidence[] =>
    list
      .map((e, i) => ({ e, i }))
      .sort((a, b) => rank(a.e) - rank(b.e) || a.i - b.i)
      .map((x) => x.e)

  let evidence = plausible(headerEvidence(input))
  // The page body is read only when the header has no stated publication date, or one in UTC whose local
  // day the body may tell (and the URL does not).
  const stated = order(evidence).find((e) => e.kind === 'published' && rank(e) <= 3)
  const urlDay = evidence.some((e) => e.source === 'url')
  const bodyRead = stated === undefined || (UTC_STAMP.test(stated.value) && !urlDay)
  if (bodyRead) evidence = evidence.concat(plausible(bodyEvidence(input)))
  const ordered = order(evidence)
  let published = ordered.find((e) => e.kind === 'published')
  let modified = ordered.find((e) => e.kind === 'modified')
  if (modified !== undefined && (published === undefined || published.field === 'nearest in text')) {
    // A page that states only when it was last changed ("Stand: …") was published no later than that,
    // and that statement says more than an unlabelled date found somewhere in its text.
    notes.push(
      published === undefined
        ? 'no publication date on the page: the last-updated date stands in'
        : `only a date somewhere in the text (${day(published.value)}) against a stated update: the update stands in`,
    )
    published = modified
  }

  // A day that could outvote the chosen one needs a header witness (metadata or URL) for another day; only
  // then is the body read to see which day the page shows.
  const pick = published
  if (pick !== undefined && evidence.some((e) => witnessOf(e) !== null && day(e.value) !== day(pick.value))) {
    published = agreedDay(pick, bodyRead ? ordered : order(evidence.concat(plausible(bodyEvidence(input)))), notes)
  }

  if (published !== undefined) published = urlsDay(published, evidence, notes)
  if (published !== undefined && guessesDisagree(published, ordered, notes)) published = undefined

  // Kept for the published <= updated check below, which compares dates as the page wrote them.
  const asStated = published?.value
  if (published !== undefined) published = publishersDay(published, ordered, notes)

  // An update cannot precede the publication. Scheduled posts are edited before they go out, so the
  // publication date stands and the earlier "update" is dropped rather than taken as the original.
  if (published !== undefined && modified !== undefined && day(modified.value) < day(asStated ?? published.value)) {
    notes.push(`updated ${day(modified.value)} (${modified.source} ${modified.field}) is before published ${day(published.value)}: dropped`)
    modified = undefined
  }
  return {
    published: published?.value ?? null,
    modified: modified?.value ?? null,
    evidence: { published: chosen(published), last_updated: chosen(modified), rejected, notes },
  }
}
