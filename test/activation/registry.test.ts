import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

import { describe, expect, it } from 'vitest'

import dspsData from '../../src/activation/data/dsps.json' with { type: 'json' }
import { dsps, notADsp, resolveDsp } from '../../src/activation/registry.ts'

const tsvPath = fileURLToPath(new URL('../../fixtures/dsp/dsp_candidates.tsv', import.meta.url))

// The research TSV is a fixture (fixtures/dsp, see fixtures/README.md).
describe('DSP registry matches the research TSV (fixtures/dsp/dsp_candidates.tsv)', () => {
  const rows = readFileSync(tsvPath, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => {
      const [slug, name, aliases, , notes] = line.split('\t')
      return {
        slug: slug!.trim(),
        name: name!.trim(),
        aliases: (aliases ?? '')
          .split(';')
          .map((a) => a.trim())
          .filter(Boolean),
        notes: notes?.trim() ?? '',
      }
    })

  it('holds every TSV row not flagged "not a DSP", with its name and aliases: the spec’s 93', () => {
    const expected = rows.filter((r) => !r.notes.toLowerCase().startsWith('not a dsp'))
    expect(expected).toHaveLength(93)
    expect(dsps.map(({ slug, name, aliases }) => ({ slug, name, aliases }))).toEqual(expected.map(({ slug, name, aliases }) => ({ slug, name, aliases })))
    expect(dspsData.count).toBe(93)
  })

  it('leaves out exactly the rows flagged "not a DSP" (BidSwitch), and says why', () => {
    const flagged = rows.filter((r) => r.notes.toLowerCase().startsWith('not a dsp')).map((r) => r.slug)
    expect(flagged).toEqual(['bidswitch'])
    expect(dspsData.not_dsps.map((n) => n.slug)).toEqual(flagged)
    expect(resolveDsp('bidswitch')).toBeNull()
    expect(notADsp('BSW')).toMatchObject({ name: 'BidSwitch (routing layer)', reason: expect.stringMatching(/^not a DSP/) })
  })
})

describe('DSP lookup', () => {
  it('matches slugs and aliases whatever their case, and trims', () => {
    for (const v of ['THE-TRADE-DESK', 'the-trade-desk', 'The-Trade-Desk', 'TTD', '  tradedesk ']) expect(resolveDsp(v)?.slug, v).toBe('the-trade-desk')
    expect(resolveDsp('GOOGLE-DV360')?.slug).toBe('google-dv360')
    expect(resolveDsp('XANDR')?.slug).toBe('microsoft-invest')
    expect(resolveDsp('the trade desk')).toBeNull()
  })

  it('flags Microsoft Invest as deprecated but still accepts it', () => {
    expect(resolveDsp('microsoft-invest')?.deprecated).toMatch(/shutdown effective 2026-02-28/)
    expect(dsps.filter((d) => d.deprecated).map((d) => d.slug)).toEqual(['microsoft-invest'])
  })

  it('never lets a slug or alias name two DSPs', () => {
    const owner = new Map<string, Set<string>>()
    for (const d of dsps) for (const k of [d.slug, ...d.aliases]) owner.set(k.toLowerCase(), (owner.get(k.toLowerCase()) ?? new Set()).add(d.slug))
    expect([...owner].filter(([, o]) => o.size > 1)).toEqual([])
    expect(owner.size).toBeGreaterThan(dsps.length)
  })
})
