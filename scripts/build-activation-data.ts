// Builds the reference data the activation feature ships: the DSP registry (from the research TSV,
// ../shared/data/dsp/dsp_candidates.tsv), ISO 3166-1 alpha-2 country codes and ISO 4217 currency
// codes (from ICU via Intl, minus codes ICU still knows but ISO no longer assigns). Run:
//   node --import tsx scripts/build-activation-data.ts
import { readFileSync, writeFileSync } from 'node:fs'

const tsv = readFileSync(new URL('../../shared/data/dsp/dsp_candidates.tsv', import.meta.url), 'utf8')
const dsps = tsv
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const [slug, name, aliases, sources, notes] = line.split('\t')
    return {
      slug: slug!.trim(),
      name: name!.trim(),
      aliases: (aliases ?? '').split(';').map((a) => a.trim()).filter(Boolean),
      sources: (sources ?? '').split(';').map((s) => s.trim()).filter(Boolean),
      ...(notes?.trim() ? { notes: notes.trim() } : {}),
    }
  })

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
out('dsps', { source: 'research: shared/data/dsp/dsp_candidates.tsv', dsps })
out('countries', { standard: 'ISO 3166-1 alpha-2', count: countries.length, countries })
out('currencies', { standard: 'ISO 4217', count: currencies.length, currencies })
console.log(`${dsps.length} DSPs, ${countries.length} countries, ${currencies.length} currencies`)
