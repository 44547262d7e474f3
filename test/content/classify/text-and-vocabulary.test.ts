import { describe, expect, it } from 'vitest'
import { model } from '../../../src/content/classify/model.ts'
import { contentTokens, isGeneric, searchPrefix, stem, urlTokens, words, writtenWords } from '../../../src/content/classify/text.ts'
import { EUROPEAN, parseEntries, VOCABULARY_PARTS } from '../../../src/content/classify/vocab/index.ts'
import { getNodeByUniqueId } from '../../../src/content/taxonomy/taxonomy.ts'

describe('text', () => {
  it('folds case, diacritics and links away', () => {
    expect(words('Café DÉJÀ-VU, Trump’s')).toEqual(['cafe', 'deja', 'vu', 'trump', 's'])
    expect(words('see https://t.co/abc123 and www.example.com/x now')).toEqual(['see', 'and', 'now'])
  })

  const expectSameStems = (pairs: readonly (readonly [string, string])[]): void => {
    for (const [a, b] of pairs) expect(stem(a)).toBe(stem(b))
  }

  it('stems plural and -ing/-ed forms to one token', () => {
    expectSameStems([
      ['companies', 'company'],
      ['movies', 'movie'],
      ['elections', 'election'],
      ['taxes', 'tax'],
      ['arrested', 'arrest'],
      ['shooting', 'shoot'],
      ['shopping', 'shops'],
    ])
  })

  it('reads -ed and -ing forms of a word that lost its e to the ending as one (-ing)', () => {
    expectSameStems([
      ['voted', 'voting'],
      ['cared', 'caring'],
      ['baked', 'baking'],
      ['scored', 'scoring'],
    ])
    expect(stem('caring')).toBe('caring')
  })

  it('searches such a stem in page text by its root, other stems as they are', () => {
    expect(searchPrefix(stem('hiking'))).toBe('hik')
    expect(searchPrefix(stem('voted'))).toBe('vot')
    expect(searchPrefix(stem('shopping'))).toBe('shop')
    expect(searchPrefix(stem('training'))).toBe('train')
    expect(searchPrefix('string')).toBe('string')
    // too short for stem() to strip: searched whole, not as "ag" (again, agency) or "us"
    expect(searchPrefix(stem('aging'))).toBe('aging')
    expect(searchPrefix(stem('using'))).toBe('using')
  })

  it('does not merge different words', () => {
    expect(stem('care')).not.toBe(stem('car'))
    expect(stem('wine')).not.toBe(stem('win'))
    expect(stem('wedding')).not.toBe(stem('wed'))
    // An ending that took a word's "e" with it leaves a stem of another word: such a word reads as -ing.
    for (const [word, other] of [
      ['caring', 'car'],
      ['cared', 'cars'],
      ['coding', 'cod'],
      ['hated', 'hat'],
      ['fired', 'fir'],
      ['stared', 'star'],
    ])
      expect(stem(word ?? '')).not.toBe(stem(other ?? ''))
    expect(stem('news')).toBe('news')
    expect(stem('tennis')).toBe('tennis')
  })

  it('keeps generic words for phrases but marks them', () => {
    expect(contentTokens('The World Cup in 2026')).toEqual(['world', 'cup'])
    expect(isGeneric('world')).toBe(true)
    expect(isGeneric('cup')).toBe(false)
  })

  it('reads sub-domains and paths of URLs, not ids or the domain name', () => {
    expect(urlTokens('https://sports.example.com/football/2019/11/arsenal-beat-chelsea-123.html')).toEqual(['sport', 'football', 'arsenal', 'beat', 'chelsea'])
    expect(urlTokens('not a url')).toEqual([])
    expect(urlTokens(undefined)).toEqual([])
  })
})

describe('curated vocabulary', () => {
  it('uses known IAB ids, each once across the lists', () => {
    const seen = new Set<string>()
    for (const part of VOCABULARY_PARTS) {
      for (const uid of Object.keys(part)) {
        expect(getNodeByUniqueId(uid), uid).toBeDefined()
        expect(seen.has(uid), `${uid} listed twice`).toBe(false)
        seen.add(uid)
      }
    }
  })

  it('has entries that survive tokenising, with positive weights', () => {
    for (const part of VOCABULARY_PARTS) {
      for (const [uid, list] of Object.entries(part)) {
        for (const e of parseEntries(list)) {
          const toks = contentTokens(e.term)
          expect(e.weight, `${uid} ${e.term}`).toBeGreaterThan(0)
          expect(toks.length === 0 || (toks.length === 1 && isGeneric(toks[0] ?? '')), `${uid} "${e.term}" is never matched`).toBe(false)
        }
      }
    }
  })

  it('parses weights', () => {
    expect(parseEntries('a^2, b c ,d^0.5,')).toEqual([
      { term: 'a', weight: 2 },
      { term: 'b c', weight: 1 },
      { term: 'd', weight: 0.5 },
    ])
  })

  it('builds a model where phrases and ancestors are indexed', () => {
    const m = model()
    expect(m.postings.get('world cup')?.ids).toContain(483)
    expect(m.phraseStarts.has('world')).toBe(true)
    const soccer = m.postings.get('striker')
    expect(soccer?.ids).toContain(483)
    expect(m.topicalRoots.size).toBe(35)
  })
})

describe('European vocabulary', () => {
  it('uses known IAB ids and terms that survive tokenising, in every language', () => {
    for (const [lang, part] of Object.entries(EUROPEAN)) {
      for (const [uid, list] of Object.entries(part)) {
        expect(getNodeByUniqueId(uid), `${lang} ${uid}`).toBeDefined()
        for (const e of parseEntries(list)) {
          const toks = contentTokens(e.term)
          expect(e.weight, `${lang} ${e.term}`).toBeGreaterThan(0)
          expect(toks.length === 0 || (toks.length === 1 && isGeneric(toks[0] ?? '')), `${lang} "${e.term}" is never matched`).toBe(false)
        }
      }
    }
  })

  it('leaves the English model as it is', () => {
    expect(model('pt').postings.size).toBeGreaterThan(model().postings.size)
    expect(model('ru')).toBe(model())
    expect(model('en').postings.has('futebol')).toBe(false)
    // An English key keeps its English postings in every language's model.
    expect(model('de').postings.get('software')).toEqual(model().postings.get('software'))
  })
})

describe('writtenWords', () => {
  it('gives the words words() gives, with their case and what separates each from the one before', () => {
    for (const text of ['Dogs & cats, café crème: https://example.com/a,b real estate', 'U.S. politics. Sports!', 'हिन्दी समाचार, क्रिकेट', 'İstanbul / Ankara']) {
      expect(writtenWords(text).map((w) => w.word)).toEqual(words(text))
    }
    const read = writtenWords('Dogs & cats, US politics. Sports')
    expect(read.map((w) => [w.written, w.gap])).toEqual([
      ['Dogs', 'none'],
      ['cats', 'join'],
      ['US', 'break'],
      ['politics', 'none'],
      ['Sports', 'break'],
    ])
    // A full stop after a single letter is an abbreviation's, not a sentence's end.
    expect(writtenWords('U.S. politics').map((w) => w.gap)).toEqual(['none', 'none', 'none'])
  })
})
