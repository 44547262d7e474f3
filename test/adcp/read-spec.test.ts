import { describe, expect, it } from 'vitest'
import { readSpec } from '../../src/adcp/read-spec.ts'

describe('readSpec', () => {
  it.each([
    // Who and where are read before the exclusion, which would otherwise run on into them.
    ['news readers excluding politics women 25-54', 'news readers', ['25-54', 'women'], [], ['politics']],
    ['car buyers no luxury cars men 35+ in Germany', 'car buyers', ['35+', 'men'], ['DE'], ['luxury cars']],
    // A negated trait or place is excluded, not read as who or where.
    ['sports fans, not teens', 'sports fans', [], [], ['teens']],
    ['sports fans, not in the US', 'sports fans', [], [], []],
    ['outdoor enthusiasts, age 25-54, US', 'outdoor enthusiasts', ['age 25-54'], ['US'], []],
    // A list of exclusions runs over its commas to the and/or that closes it.
    ['football fans, excluding betting, gambling and alcohol, men 25-54', 'football fans', ['25-54', 'men'], [], ['betting', 'gambling', 'alcohol']],
  ])('reads %j: topic %j, traits %j, countries %j, excluded %j', (spec, topic, traits, countries, excluded) => {
    const r = readSpec(spec)
    expect(r.topic).toBe(topic)
    expect(r.traits).toEqual(traits)
    expect(r.countries).toEqual(countries)
    expect(r.excluded.terms).toEqual(excluded)
  })

  it('reads an exclusion written in full-width letters (NFKC)', () => {
    expect(readSpec('sports fans, ｎｏｔ politics').excluded.terms).toEqual(['politics'])
  })
})
