import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { classifyUserAgent } from '../../../src/pixel/agents/classify.ts'
import { AGENT_TYPES } from '../../../src/pixel/agents/schema.ts'
import { isInOperatorRanges } from '../../../src/pixel/agents/verify.ts'

const TYPES = [...AGENT_TYPES, 'human']

function wellFormed(ua: unknown): void {
  const c = classifyUserAgent(ua as string)
  expect(TYPES).toContain(c.type)
  expect(c.agent === null).toBe(c.type === 'human')
}

describe('junk never throws', () => {
  it.each([
    ['empty', ''],
    ['null', null],
    ['undefined', undefined],
    ['binary', '\u0000\u0001\u00ff\ud800\udfff\ufffd'.repeat(50)],
    ['10 KB of letters', 'a'.repeat(10_240)],
    ['10 KB of word starts', 'Go '.repeat(3_500)],
    ['10 KB with a bot past the scan window', `${'x '.repeat(5_000)}Googlebot/2.1`],
    ['number', 42],
    ['object', { toString: () => 'Googlebot' }],
  ])('%s', (_label, ua) => wellFormed(ua))

  it('arbitrary strings (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 600 }), (ua) => {
        wellFormed(ua)
      }),
      { numRuns: 2_000 },
    )
  })
  it('strings built from real token fragments (property)', () => {
    const part = fc.constantFrom('Mozilla/5.0 ', '(compatible; ', 'Googlebot', 'bot', '-', '/', 'Chrome/1', ' ', 'http://', 'CUBOT', 'node', '^', '$', '*')
    fc.assert(
      fc.property(fc.array(part, { maxLength: 40 }), (parts) => {
        wellFormed(parts.join(''))
      }),
      { numRuns: 2_000 },
    )
  })
  it('IP verification never throws on junk', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), fc.string({ maxLength: 20 }), (ip, key) => {
        const r = isInOperatorRanges(key, ip)
        expect(r === null || typeof r === 'boolean').toBe(true)
      }),
      { numRuns: 2_000 },
    )
  })
})
