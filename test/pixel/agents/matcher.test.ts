import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { agents } from '../../../src/pixel/agents/classify.ts'
import { compileMatcher, patternsOf } from '../../../src/pixel/agents/matcher.ts'

const m = compileMatcher([
  { token: 'Googlebot', id: 1, tier: 0 },
  { token: 'Googlebot-Image', id: 2, tier: 0 },
  { token: 'curl', id: 3, tier: 1 },
  { token: '^node$', id: 4, tier: 1 },
  { token: '^Java/', id: 5, tier: 1 },
  { token: '=Spider', id: 6, tier: 0 },
  { token: 'Sogou web spider', id: 7, tier: 0 },
])

describe('compileMatcher', () => {
  it('matches word tokens case-insensitively at word boundaries', () => {
    expect(m('Mozilla/5.0 (compatible; googlebot/2.1)')).toBe(1)
    expect(m('Googlebot')).toBe(1)
    expect(m('xGooglebot')).toBe(-1)
    expect(m('xGooglebotz')).toBe(-1)
    expect(m('Googlebotx')).toBe(-1)
    expect(m('Googlebot-Video/1.0')).toBe(1)
  })
  it('prefers the longer token at a position, then the lower tier anywhere', () => {
    expect(m('Googlebot-Image/1.0')).toBe(2)
    expect(m('curl/8 Googlebot/2.1')).toBe(1)
    expect(m('curl/8 SomeBot/1')).toBe(3)
    expect(m('Spider/1.0 curl/8')).toBe(6)
  })
  it('anchors', () => {
    expect(m('node')).toBe(4)
    expect(m('NODE')).toBe(4)
    expect(m('node/20')).toBe(-1)
    expect(m('Java/17.0.2')).toBe(5)
    expect(m('Mozilla Java/17')).toBe(-1)
  })
  it('declared products (=): UA start, after "compatible;", first in a non-platform comment', () => {
    expect(m('Spider/1.0')).toBe(6)
    expect(m('Spider')).toBe(6)
    expect(m('Mozilla/5.0 (compatible; Spider; +https://example.com)')).toBe(6)
    expect(m('Mozilla/5.0 (compatible;Spider/2)')).toBe(6)
    expect(m('http.rb/5.1 (Spider/4.2; +https://example.com)')).toBe(6)
    expect(m('Mozilla/5.0 (Spider; Linux)')).toBe(-1) // a Mozilla UA's first comment is its platform
    expect(m('Mozilla/5.0 (Linux; Android 9; Spider)')).toBe(-1)
    expect(m('Mozilla/5.0 (X11) AppleWebKit/537.36 Spider/1.0 Chrome/1')).toBe(-1)
    expect(m('Foo (http://example.com/spider.html)')).toBe(-1)
    expect(m('Foo (spider@example.com)')).toBe(-1)
    expect(m('Foo (compatible; Spider-Man/1)')).toBe(-1)
    expect(m('Speedy Spider (http://example.com)')).toBe(-1)
    expect(m('Snapchat/10.77.5.59 (Spider; Android 10#5a5e5f7#29; gzip)')).toBe(-1) // an app's device comment
  })
  it('tokens with spaces and non-ASCII or truncated input', () => {
    expect(m('Sogou web spider/4.0')).toBe(7)
    expect(m('Sogou web spide')).toBe(-1)
    expect(m('ünïcödé Googlebot ✓')).toBe(1)
    expect(m('G')).toBe(-1)
    expect(m('')).toBe(-1)
  })
  it('stops scanning at maxScan', () => {
    const ua = `${'a '.repeat(100)}Googlebot`
    expect(m(ua)).toBe(1)
    expect(m(ua, 100)).toBe(-1)
  })
  it('rejects malformed patterns', () => {
    expect(() => compileMatcher([{ token: '-x', id: 0, tier: 0 }])).toThrow()
    expect(() => compileMatcher([{ token: 'a', id: 0, tier: 0 }])).toThrow()
    expect(() => compileMatcher([{ token: 'bötbot', id: 0, tier: 0 }])).toThrow()
    expect(() => compileMatcher([{ token: '=^x$', id: 0, tier: 0 }])).toThrow()
  })
})

describe('the prefilter never drops a match', () => {
  const patterns = patternsOf(agents)
  const fast = compileMatcher(patterns)
  const exact = compileMatcher(patterns, { prefilter: false })
  const sample = [...new Set(patterns.map((p) => p.token.replace(/^=?\^?|\$$/g, '')))]
  it('on strings built from tokens, separators and browser words (property)', () => {
    const part = fc.oneof(
      fc.constantFrom(...sample),
      fc.constantFrom(' ', '/', '_', '-', ';', '(', ')', '1.0', 'Mozilla/5.0', 'Chrome/124', 'x', 'É', 'compatible; '),
    )
    fc.assert(
      fc.property(fc.array(part, { maxLength: 12 }), (parts) => {
        const ua = parts.join('')
        expect(fast(ua)).toBe(exact(ua))
      }),
      { numRuns: 5_000 },
    )
  })
  it('on arbitrary strings (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (ua) => {
        expect(fast(ua)).toBe(exact(ua))
      }),
      { numRuns: 2_000 },
    )
  })
})
