import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { agents } from '../../../src/pixel/agents/classify.ts'
import { compileMatcher } from '../../../src/pixel/agents/matcher.ts'

const m = compileMatcher([
  { token: 'Googlebot', id: 1, tier: 0 },
  { token: 'Googlebot-Image', id: 2, tier: 0 },
  { token: 'curl', id: 3, tier: 1 },
  { token: '^node$', id: 4, tier: 1 },
  { token: '^Java/', id: 5, tier: 1 },
  { token: '*bot', id: 6, tier: 2 },
  { token: '!cubot', id: 6, tier: 2 },
  { token: 'http://', id: 6, tier: 2 },
  { token: 'Sogou web spider', id: 7, tier: 0 },
])

describe('compileMatcher', () => {
  it('matches word tokens case-insensitively at word boundaries', () => {
    expect(m('Mozilla/5.0 (compatible; googlebot/2.1)')).toBe(1)
    expect(m('Googlebot')).toBe(1)
    expect(m('xGooglebot')).toBe(6) // only the generic suffix rule
    expect(m('xGooglebotz')).toBe(-1)
    expect(m('Googlebotx')).toBe(-1)
    expect(m('Googlebot-Video/1.0')).toBe(1)
  })
  it('prefers the longer token at a position, then the lower tier anywhere', () => {
    expect(m('Googlebot-Image/1.0')).toBe(2)
    expect(m('curl/8 Googlebot/2.1')).toBe(1)
    expect(m('curl/8 SomeBot/1')).toBe(3)
  })
  it('anchors', () => {
    expect(m('node')).toBe(4)
    expect(m('NODE')).toBe(4)
    expect(m('node/20')).toBe(-1)
    expect(m('Java/17.0.2')).toBe(5)
    expect(m('Mozilla Java/17')).toBe(-1)
  })
  it('suffix words, with exclusions', () => {
    expect(m('FooBot/1.0')).toBe(6)
    expect(m('Android 10; CUBOT X30')).toBe(-1)
    expect(m('Android 10; CUBOT_X30')).toBe(-1)
    expect(m('foo_Googlebot/1')).toBe(6) // "_" is a word character (RegExp \\w): only the suffix rule applies
    expect(m('(+http://example.com)')).toBe(6)
    expect(m('Bots are fun')).toBe(-1)
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
  })
})

describe('the prefilter never drops a match', () => {
  const patterns = agents.flatMap((a, id) => (a.robots_only ? [] : a.tokens.map((token) => ({ token, id, tier: a.tier ?? 0 }))))
  const fast = compileMatcher(patterns)
  const exact = compileMatcher(patterns, { prefilter: false })
  const sample = [...new Set(patterns.map((p) => p.token.replace(/^[*^!]|\$$/g, '')))]
  it('on strings built from tokens, separators and browser words (property)', () => {
    const part = fc.oneof(fc.constantFrom(...sample), fc.constantFrom(' ', '/', '_', '-', ';', '(', ')', '1.0', 'Mozilla/5.0', 'Chrome/124', 'x', 'É'))
    fc.assert(fc.property(fc.array(part, { maxLength: 12 }), (parts) => {
      const ua = parts.join('')
      expect(fast(ua)).toBe(exact(ua))
    }), { numRuns: 5_000 })
  })
  it('on arbitrary strings (property)', () => {
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (ua) => { expect(fast(ua)).toBe(exact(ua)) }), { numRuns: 2_000 })
  })
})
