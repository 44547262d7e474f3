import { describe, expect, it } from 'vitest'
import { compound, compoundParts } from '../../../src/content/topics/compounds.ts'

// A small list standing for a language's: the words it knows.
const known = (list: string): ((w: string) => boolean) => {
  const set = new Set(list.split(' '))
  return (w) => set.has(w)
}

describe('compoundParts', () => {
  it.each([
    ['fußballfans', 'fußball fans', ['fußball', 'fans']],
    // The longest first part: Fußball, not Fuß.
    ['fußballergebnisse', 'fuß fußball', ['fußball', 'ergebnisse']],
    // A linking -s- the second part's knowledge, or the first part's suffix, calls for.
    ['gesundheitstipps', 'gesundheit', ['gesundheit', 'tipps']],
    ['versicherungsvergleich', 'versicherung vergleich', ['versicherung', 'vergleich']],
    // No linking letters otherwise: Sport + Nachrichten, not Sport + (n)achrichten.
    ['sportnachrichten', 'sport', ['sport', 'nachrichten']],
    // A verb stem stands first without its ending.
    ['kochrezepte', 'kochen', ['kochen', 'rezepte']],
    ['voetbalnieuws', 'voetbal', ['voetbal', 'nieuws']],
    // The lists know inflected forms: "fußballs" is known, but its -s- belongs to "schuhe".
    ['fußballschuhe', 'fußball fußballs', ['fußball', 'schuhe']],
    // Letters no word begins with: a linking -s- before "ziele", a linking -n- before "nachrichten".
    ['urlaubsziele', 'urlaub urlaubs', ['urlaub', 'ziele']],
    ['borsennachrichten', 'borse', ['borse', 'nachrichten']],
    // A short first part needs a known second.
    ['reistips', 'reis tips', ['reis', 'tips']],
  ])('splits %j (knowing %j) into %j', (word, list, parts) => {
    expect(compoundParts(word, known(list))).toEqual(parts)
  })

  it.each([
    ['fußball', 'fußball'], // known whole
    ['schumacher', 'sport'], // no known first part
    ['tennis', 'tenn'], // too short to hold two parts
    ['fuß-ball', 'fuß'], // not one word
    ['europameisterschaft', 'euro meisterschaft'], // a short first part before an unknown second: Euro|pameisterschaft
    ['marseille', 'mars'],
    ['fußball'.repeat(5), 'fußball'], // too long to be a compound a buyer writes
  ])('leaves %j whole', (word, list) => {
    expect(compoundParts(word, known(list))).toBeNull()
  })

  it("lets a short first part stand before a short unknown second only when it is the language's own word", () => {
    expect(compoundParts('reistips', known('reis'))).toBeNull()
    expect(compoundParts('reistips', known('reis'), (w) => w === 'reis')).toEqual(['reis', 'tips'])
    // Not otherwise, however long the second: "Auto|immunerkrankungen" is not about cars.
    expect(compoundParts('autoimmunerkrankungen', known('auto'))).toBeNull()
  })

  it('does not cut where a known word starts a letter or three further on: Euro|pameisterschaft', () => {
    expect(compoundParts('europameisterschaft', known('euro meisterschaft'))).toBeNull()
  })

  it('reaches further with a first part written whole than with a verb stem', () => {
    // Dutch "reis" + "tips" against German "reis(en)" + "tips": the same letters, written whole counts more.
    expect(compound('reistips', known('reis tips'))!.reach).toBeGreaterThan(compound('reistips', known('reisen tips'))!.reach)
  })
})
