// Builds the reference data the activation feature ships: the DSP registry (from the research TSV,
// fixtures/dsp/dsp_candidates.tsv), ISO 3166-1 alpha-2 country codes and ISO 4217 currency
// codes (from ICU via Intl, minus codes ICU still knows but ISO no longer assigns). Run:
//   node --import tsx scripts/build-activation-data.ts
import { readFileSync, writeFileSync } from 'node:fs'

const tsv = readFileSync(new URL('../fixtures/dsp/dsp_candidates.tsv', import.meta.url), 'utf8')
const rows = tsv
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const [slug, name, aliases, sources, notes] = line.split('\t')
    return {
      slug: slug!.trim(),
      name: name!.trim(),
      aliases: (aliases ?? '')
        .split(';')
        .map((a) => a.trim())
        .filter(Boolean),
      sources: (sources ?? '')
        .split(';')
        .map((s) => s.trim())
        .filter(Boolean),
      notes: notes?.trim() ?? '',
    }
  })
// Rows the research flags "not a DSP" in the notes column (BidSwitch: a routing layer DSPs buy
// through) are kept out: a deal is activated on the DSP behind it. What is left is the spec's 93.
const isDsp = (r: (typeof rows)[number]) => !/^not a DSP\b/i.test(r.notes)
// DSPs being retired (docs/activation.md, DSP registry): still accepted for existing
// seats, flagged in GET /v1/curation/dsps.
const deprecated: Record<string, string> = {
  'microsoft-invest': 'Microsoft announced the Invest DSP shutdown effective 2026-02-28 (Microsoft Curate and Monetize continue); kept for existing seats',
}
const entry = ({ notes, ...r }: (typeof rows)[number]) => ({
  ...r,
  ...(deprecated[r.slug] ? { deprecated: deprecated[r.slug] } : {}),
  ...(notes ? { notes } : {}),
})
const dsps = rows.filter(isDsp).map(entry)
const notDsps = rows.filter((r) => !isDsp(r)).map(({ slug, name, aliases, notes }) => ({ slug, name, aliases, reason: notes }))
for (const slug of Object.keys(deprecated)) {
  if (!dsps.some((d) => d.slug === slug)) throw new Error(`deprecated DSP ${slug} is not in the TSV`)
}

// Exceptionally/transitionally reserved, withdrawn or user-assigned codes that ICU can still name.
const notAssigned = new Set('AC AN BU CP CQ CS DD DG DY EA EU EZ FX HV IC NH QO RH SU TA TP UK UN VD XA XB XK YD YU ZR ZZ'.split(' '))
const names = new Intl.DisplayNames(['en'], { type: 'region' })
const countries: { code: string; name: string }[] = []
for (let a = 65; a <= 90; a++) {
  for (let b = 65; b <= 90; b++) {
    const code = String.fromCharCode(a, b)
    const name = names.of(code)
    if (name && name !== code && !notAssigned.has(code)) countries.push({ code, name })
  }
}
// Withdrawn (HRK 2023, CUC 2021, ZWL 2024, ANG 2025, SLL 2024) or not spendable (XDR, XSU).
const withdrawn = new Set(['HRK', 'CUC', 'ZWL', 'ANG', 'SLL', 'XDR', 'XSU'])
const currencies = Intl.supportedValuesOf('currency').filter((c) => !withdrawn.has(c))

const out = (name: string, data: unknown) =>
  writeFileSync(new URL(`../src/activation/data/${name}.json`, import.meta.url), JSON.stringify(data, null, 1) + '\n')
out('dsps', { source: 'fixtures/dsp/dsp_candidates.tsv', count: dsps.length, dsps, not_dsps: notDsps })
out('countries', { standard: 'ISO 3166-1 alpha-2', count: countries.length, countries })
out('currencies', { standard: 'ISO 4217', count: currencies.length, currencies })
console.log(`${dsps.length} DSPs (${notDsps.length} not-DSP rows left out), ${countries.length} countries, ${currencies.length} currencies`)
