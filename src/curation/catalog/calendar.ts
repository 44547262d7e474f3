/**
 * The seasonal calendar behind the seasonal catalog (docs/curation.md, "Catalogs").
 * Each moment has a date rule and an advertising window around it; its segment is built from a
 * prompt. Lunar holidays and one-off events come from fixed tables (extend them yearly).
 */

export interface SeasonalMoment {
  slug: string
  name: string
  /** What the segment is about: the ranker's prompt. */
  prompt: string
  /** The advertising window of the moment in a year, as UTC dates; null when it has none that year. */
  window(year: number): { start: Date; end: Date } | null
}

const utc = (y: number, m: number, d: number): Date => new Date(Date.UTC(y, m - 1, d))
const addDays = (d: Date, n: number): Date => new Date(d.getTime() + n * 86_400_000)

/** The n-th weekday (0 = Sunday) of a month; n = -1 for the last one. */
export function nthWeekday(year: number, month: number, weekday: number, n: number): Date {
  if (n > 0) {
    const first = utc(year, month, 1)
    return addDays(first, ((weekday - first.getUTCDay() + 7) % 7) + (n - 1) * 7)
  }
  const last = utc(year, month + 1, 0)
  return addDays(last, -((last.getUTCDay() - weekday + 7) % 7))
}

/** Western Easter Sunday (anonymous Gregorian computus). */
export function easter(year: number): Date {
  const a = year % 19
  const b = Math.floor(year / 100)
  const c = year % 100
  const d = Math.floor(b / 4)
  const e = b % 4
  const f = Math.floor((b + 8) / 25)
  const g = Math.floor((b - f + 1) / 3)
  const h = (19 * a + b - d - g + 15) % 30
  const i = Math.floor(c / 4)
  const k = c % 4
  const l = (32 + 2 * e + 2 * i - h - k) % 7
  const m = Math.floor((a + 11 * h + 22 * l) / 451)
  const month = Math.floor((h + l - 7 * m + 114) / 31)
  const day = ((h + l - 7 * m + 114) % 31) + 1
  return utc(year, month, day)
}

export const thanksgiving = (year: number): Date => nthWeekday(year, 11, 4, 4)

const around =
  (day: (y: number) => Date | null, before: number, after = 0) =>
  (y: number) => {
    const d = day(y)
    return d ? { start: addDays(d, -before), end: addDays(d, after) } : null
  }
const fixed = (m1: number, d1: number, m2: number, d2: number) => (y: number) => ({ start: utc(y, m1, d1), end: utc(y, m2, d2) })
const table =
  (dates: Record<number, string>) =>
  (y: number): Date | null =>
    dates[y] ? new Date(`${dates[y]}T00:00:00Z`) : null
const once = (year: number, start: string, end: string) => (y: number) =>
  y === year ? { start: new Date(`${start}T00:00:00Z`), end: new Date(`${end}T00:00:00Z`) } : null

export const seasonalMoments: readonly SeasonalMoment[] = [
  {
    slug: 'new-year',
    name: 'New Year & resolutions',
    prompt: 'New Year resolutions, fitness goals, healthy eating, diet and personal finance budgeting',
    window: (y) => ({ start: utc(y - 1, 12, 26), end: utc(y, 1, 31) }),
  },
  {
    slug: 'lunar-new-year',
    name: 'Lunar New Year',
    prompt: 'Lunar New Year celebrations, Chinese New Year food, family traditions and travel',
    window: around(table({ 2025: '2025-01-29', 2026: '2026-02-17', 2027: '2027-02-06' }), 21, 7),
  },
  {
    slug: 'super-bowl',
    name: 'Super Bowl',
    prompt: 'Super Bowl, NFL American football playoffs, game day parties and snacks',
    window: around((y) => nthWeekday(y, 2, 0, 2), 28),
  },
  {
    slug: 'valentines-day',
    name: "Valentine's Day",
    prompt: "Valentine's Day gifts, romantic dinners, dating, weddings, flowers and jewelry",
    window: fixed(1, 20, 2, 14),
  },
  {
    slug: 'winter-olympics-2026',
    name: 'Winter Olympics 2026',
    prompt: 'Winter Olympics, skiing, snowboarding, figure skating, ice hockey and Olympic medals',
    window: once(2026, '2026-01-16', '2026-02-22'),
  },
  { slug: 'st-patricks-day', name: "St. Patrick's Day", prompt: "St. Patrick's Day parties, Irish culture, beer and pubs", window: fixed(3, 1, 3, 17) },
  { slug: 'march-madness', name: 'March Madness', prompt: 'NCAA college basketball tournament, March Madness brackets and games', window: fixed(3, 10, 4, 8) },
  { slug: 'easter', name: 'Easter', prompt: 'Easter holiday, spring celebrations, family brunch recipes, chocolate and egg hunts', window: around(easter, 21) },
  {
    slug: 'tax-season',
    name: 'Tax season',
    prompt: 'tax season, filing income taxes, tax refunds, accounting and personal finance',
    window: fixed(2, 1, 4, 15),
  },
  {
    slug: 'mothers-day',
    name: "Mother's Day",
    prompt: "Mother's Day gifts, flowers, family celebrations, fashion and beauty",
    window: around((y) => nthWeekday(y, 5, 0, 2), 21),
  },
  {
    slug: 'memorial-day',
    name: 'Memorial Day',
    prompt: 'Memorial Day sales, summer kickoff, grilling, barbecue and road trips',
    window: around((y) => nthWeekday(y, 5, 1, -1), 14),
  },
  {
    slug: 'graduation-season',
    name: 'Graduation & prom season',
    prompt: 'graduation, prom, college admissions, gifts for graduates and first jobs',
    window: fixed(4, 15, 6, 30),
  },
  {
    slug: 'fathers-day',
    name: "Father's Day",
    prompt: "Father's Day gifts, grilling, sports, tools and gadgets for dads",
    window: around((y) => nthWeekday(y, 6, 0, 3), 21),
  },
  {
    slug: 'fifa-world-cup-2026',
    name: 'FIFA World Cup 2026',
    prompt: 'FIFA World Cup soccer football tournament, national teams, matches and fans',
    window: once(2026, '2026-05-21', '2026-07-19'),
  },
  {
    slug: 'independence-day',
    name: 'Independence Day (US)',
    prompt: 'Fourth of July, grilling, barbecue, fireworks, summer travel and outdoor parties',
    window: fixed(6, 20, 7, 4),
  },
  {
    slug: 'back-to-school',
    name: 'Back to school',
    prompt: 'back to school supplies, students, teachers, education, school shopping and college',
    window: fixed(7, 15, 9, 7),
  },
  {
    slug: 'labor-day',
    name: 'Labor Day',
    prompt: 'Labor Day sales, end of summer travel, barbecue and outdoor activities',
    window: around((y) => nthWeekday(y, 9, 1, 1), 14),
  },
  { slug: 'halloween', name: 'Halloween', prompt: 'Halloween costumes, candy, horror movies, decorations and parties', window: fixed(9, 15, 10, 31) },
  {
    slug: 'diwali',
    name: 'Diwali',
    prompt: 'Diwali festival of lights, Indian celebrations, sweets, gifts and family',
    window: around(table({ 2025: '2025-10-20', 2026: '2026-11-08', 2027: '2027-10-29' }), 21, 3),
  },
  {
    slug: 'thanksgiving',
    name: 'Thanksgiving',
    prompt: 'Thanksgiving dinner recipes, turkey, cooking, family gatherings and holiday travel',
    window: around(thanksgiving, 21),
  },
  {
    slug: 'black-friday-cyber-monday',
    name: 'Black Friday & Cyber Monday',
    prompt: 'Black Friday and Cyber Monday deals, holiday shopping, discounts, sales, coupons and gift ideas',
    window: (y) => ({ start: utc(y, 11, 1), end: addDays(thanksgiving(y), 4) }),
  },
  {
    slug: 'christmas',
    name: 'Christmas & holiday season',
    prompt: 'Christmas gifts, holiday shopping, decorations, recipes, toys and family celebrations',
    window: fixed(11, 15, 12, 25),
  },
]

export interface SeasonalWindow {
  moment: SeasonalMoment
  /** The year the moment falls in (part of the catalog id). */
  year: number
  start: Date
  end: Date
  active: boolean
}

/** Moments whose window contains `now`, or opens within leadDays (built ahead so buyers can plan). */
export function currentWindows(now: Date, leadDays: number): SeasonalWindow[] {
  const today = utc(now.getUTCFullYear(), now.getUTCMonth() + 1, now.getUTCDate())
  const out: SeasonalWindow[] = []
  for (const moment of seasonalMoments) {
    for (const year of [today.getUTCFullYear(), today.getUTCFullYear() + 1]) {
      const w = moment.window(year)
      if (!w) continue
      if (addDays(w.start, -leadDays) <= today && today <= w.end) {
        out.push({ moment, year, start: w.start, end: w.end, active: w.start <= today })
        break
      }
    }
  }
  return out
}

export const seasonalId = (slug: string, year: number): string => `seasonal:${slug}:${year}`
export const isoDate = (d: Date): string => d.toISOString().slice(0, 10)
