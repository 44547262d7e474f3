import countriesData from './data/countries.json' with { type: 'json' }
import currenciesData from './data/currencies.json' with { type: 'json' }
import dspsData from './data/dsps.json' with { type: 'json' }

/** The supported DSPs (slug, display name, aliases), matched case-insensitively on slug or alias. */
export interface Dsp {
  slug: string
  name: string
  aliases: string[]
  /** Set for a DSP being retired: still accepted, with this explanation in the list. */
  deprecated?: string
}

export const dsps: readonly Dsp[] = dspsData.dsps.map((d) => ({
  slug: d.slug,
  name: d.name,
  aliases: d.aliases,
  ...('deprecated' in d ? { deprecated: d.deprecated } : {}),
}))

const bySlugOrAlias = new Map<string, Dsp>()
for (const d of dsps) {
  for (const key of [d.slug, ...d.aliases]) {
    const k = key.toLowerCase()
    const prior = bySlugOrAlias.get(k)
    if (prior && prior !== d) throw new Error(`DSP alias ${key} names both ${prior.slug} and ${d.slug}`)
    bySlugOrAlias.set(k, d)
  }
}

/**
 * A deal for a DSP not in the list: a Deal ID is an SSP-side object any DSP that takes deal IDs
 * can target, so it is issued for the seat without a DSP-specific sync. Not listed in GET
 * /v1/curation/dsps (it is no DSP); named by its slug, or chosen by AdCP for an unknown platform.
 */
export const anyDsp: Dsp = { slug: 'any-dsp', name: 'any DSP that takes deal IDs', aliases: [] }

export function resolveDsp(value: string): Dsp | null {
  const k = value.trim().toLowerCase()
  return bySlugOrAlias.get(k) ?? (k === anyDsp.slug ? anyDsp : null)
}

/** Slugs, aliases and names with every non-alphanumeric dropped ("trade-desk" finds "tradedesk"). */
const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '')
const bySquashed = new Map<string, Dsp>()
for (const d of dsps) {
  for (const key of [d.slug, ...d.aliases, d.name.replace(/\(.*\)/, '')]) {
    const k = squash(key)
    if (k && !bySquashed.has(k)) bySquashed.set(k, d)
  }
}

/**
 * resolveDsp, generously: also ignoring case, punctuation and spacing, a leading "the" and a
 * trailing "dsp" ("Trade Desk", "trade-desk", "Amazon DSP"). Null for a DSP the list lacks.
 */
export function matchDsp(value: string): Dsp | null {
  const exact = resolveDsp(value)
  if (exact) return exact
  const k = squash(value)
  const bare = k.replace(/^the/, '').replace(/dsp$/, '')
  return bySquashed.get(k) ?? bySquashed.get(bare) ?? bySquashed.get(`the${bare}`) ?? bySquashed.get(`${bare}dsp`) ?? null
}

/** Names the research lists next to DSPs but that are not one (BidSwitch), with why. */
const notDsps = new Map<string, { name: string; reason: string }>()
for (const n of dspsData.not_dsps) {
  for (const key of [n.slug, ...n.aliases]) notDsps.set(key.toLowerCase(), { name: n.name, reason: n.reason })
}

/** Why value is not a DSP, when it names something the research knows is not one. */
export function notADsp(value: string): { name: string; reason: string } | null {
  return notDsps.get(value.trim().toLowerCase()) ?? null
}

const countries = new Set(countriesData.countries.map((c) => c.code))
const currencies = new Set(currenciesData.currencies)

/** ISO 3166-1 alpha-2, upper case. */
export const isCountry = (code: string) => countries.has(code)
/** ISO 4217, upper case. */
export const isCurrency = (code: string) => currencies.has(code)

const byCountryName = new Map(countriesData.countries.map((c) => [c.name.toLowerCase(), c.code]))
/** The ISO 3166-1 alpha-2 code of a country named in English ("Germany"), or null. */
export const countryCode = (name: string): string | null => byCountryName.get(name.trim().toLowerCase()) ?? null
/** Every country name the list has, lower case (for reading them in free text). */
export const countryNames = (): string[] => [...byCountryName.keys()]
