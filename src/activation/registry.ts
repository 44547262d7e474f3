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

export function resolveDsp(value: string): Dsp | null {
  return bySlugOrAlias.get(value.trim().toLowerCase()) ?? null
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
