import { afterEach, describe, expect, it } from 'vitest'
import { parseCidr, parseIp } from '../../../src/pixel/agents/ip.ts'
import shipped from '../../../src/pixel/agents/ip-ranges.json' with { type: 'json' }
import type { RangesDocument } from '../../../src/pixel/agents/verify.ts'
import { isInOperatorRanges, loadOperatorRanges } from '../../../src/pixel/agents/verify.ts'

const words = (ip: string) => {
  const out = new Uint32Array(4)
  return parseIp(ip, out) ? [...out].map((w) => w.toString(16)) : null
}

describe('parseIp', () => {
  it('IPv4 becomes IPv4-mapped IPv6', () => {
    expect(words('66.249.66.1')).toEqual(['0', '0', 'ffff', '42f94201'])
    expect(words('::ffff:66.249.66.1')).toEqual(words('66.249.66.1'))
    expect(words('::ffff:42f9:4201')).toEqual(words('66.249.66.1'))
    expect(words('[::ffff:66.249.66.1]')).toEqual(words('66.249.66.1'))
  })
  it('IPv6 forms', () => {
    expect(words('2001:4860:4801:10::1')).toEqual(['20014860', '48010010', '0', '1'])
    expect(words('2001:4860:4801:0010:0000:0000:0000:0001')).toEqual(words('2001:4860:4801:10::1'))
    expect(words('::')).toEqual(['0', '0', '0', '0'])
    expect(words('::1')).toEqual(['0', '0', '0', '1'])
    expect(words('1::')).toEqual(['10000', '0', '0', '0'])
    expect(words('fe80::1%eth0')).toEqual(['fe800000', '0', '0', '1'])
    expect(words('2001:DB8::A')).toEqual(['20010db8', '0', '0', 'a'])
  })
  it.each([
    '',
    '1.2.3',
    '1.2.3.4.5',
    '256.1.1.1',
    '01.2.3.4',
    '1.2.3.4 ',
    'a.b.c.d',
    '1:2:3:4:5:6:7:8:9',
    '1::2::3',
    ':1:2',
    '1:2:3:4:5:6:7:8::',
    '12345::',
    'g::1',
    '::ffff:1.2.3',
    '1:2:3:4:5:6:7:1.2.3.4',
    'hello',
    '1.2.3.4/24',
  ])('rejects %j', (ip) => expect(words(ip)).toBeNull())
})

describe('parseCidr', () => {
  it('masks host bits and computes the last address', () => {
    const r = parseCidr('66.249.66.77/27')!
    expect([...r.first].map((w) => w.toString(16))).toEqual(['0', '0', 'ffff', '42f94240'])
    expect([...r.last].map((w) => w.toString(16))).toEqual(['0', '0', 'ffff', '42f9425f'])
    expect(parseCidr('0.0.0.0/0')!.last[3]).toBe(0xffffffff)
    expect([...parseCidr('2001:db8::/32')!.last].map((w) => w.toString(16))).toEqual(['20010db8', 'ffffffff', 'ffffffff', 'ffffffff'])
  })
  it.each(['1.2.3.4', '1.2.3.4/33', '::/129', '1.2.3.4/x', 'x/8', '1.2.3.4/-1'])('rejects %j', (c) => expect(parseCidr(c)).toBeNull())
})

describe('isInOperatorRanges with the shipped seed (partial lists)', () => {
  it('inside a published range is true, for list keys and operators alike', () => {
    expect(isInOperatorRanges('googlebot', '66.249.66.1')).toBe(true)
    expect(isInOperatorRanges('Google', '66.249.66.1')).toBe(true)
    expect(isInOperatorRanges('google', '66.249.87.9')).toBe(true) // special-crawlers list
    expect(isInOperatorRanges('googlebot', '::ffff:66.249.66.1')).toBe(true)
    expect(isInOperatorRanges('googlebot', '2001:4860:4801:10::1234')).toBe(true)
    expect(isInOperatorRanges('gptbot', '20.171.206.10')).toBe(true)
    expect(isInOperatorRanges('OpenAI', '40.84.221.210')).toBe(true)
  })
  it('outside a partial seed is unknown, not spoofed', () => {
    expect(isInOperatorRanges('googlebot', '8.8.8.8')).toBeNull()
  })
  it('null for unknown operators, unpublished lists and non-addresses', () => {
    expect(isInOperatorRanges('NoSuchOperator', '66.249.66.1')).toBeNull()
    expect(isInOperatorRanges('ccbot', '1.2.3.4')).toBeNull()
    expect(isInOperatorRanges('googlebot', '66.249.66.0/24')).toBeNull()
    expect(isInOperatorRanges('googlebot', 'a1b2c3d4e5')).toBeNull()
  })
})

describe('isInOperatorRanges with complete lists', () => {
  afterEach(() => loadOperatorRanges(shipped as RangesDocument))
  const complete: RangesDocument = {
    lists: {
      googlebot: {
        operator: 'Google',
        source: 'x',
        fetched_at: null,
        complete: true,
        prefixes: ['66.249.64.0/27', '66.249.64.16/28', '66.249.66.0/27', '2001:4860:4801:10::/64'],
      },
      other: { operator: 'Google', source: 'x', fetched_at: null, complete: false, prefixes: ['192.0.2.0/24'] },
    },
  }
  it('IPv4 edges in and out', () => {
    loadOperatorRanges(complete)
    expect(isInOperatorRanges('googlebot', '66.249.64.0')).toBe(true)
    expect(isInOperatorRanges('googlebot', '66.249.64.31')).toBe(true)
    expect(isInOperatorRanges('googlebot', '66.249.64.32')).toBe(false)
    expect(isInOperatorRanges('googlebot', '66.249.63.255')).toBe(false)
    expect(isInOperatorRanges('googlebot', '66.249.66.5')).toBe(true)
  })
  it('IPv6 and IPv4-mapped in and out', () => {
    loadOperatorRanges(complete)
    expect(isInOperatorRanges('googlebot', '2001:4860:4801:10:ffff:ffff:ffff:ffff')).toBe(true)
    expect(isInOperatorRanges('googlebot', '2001:4860:4801:11::')).toBe(false)
    expect(isInOperatorRanges('googlebot', '::ffff:66.249.64.7')).toBe(true)
    expect(isInOperatorRanges('googlebot', '::ffff:8.8.8.8')).toBe(false)
    expect(isInOperatorRanges('googlebot', '::ffff:4242:4242')).toBe(false)
  })
  it('an operator is only conclusive when all its lists are complete', () => {
    loadOperatorRanges(complete)
    expect(isInOperatorRanges('Google', '192.0.2.7')).toBe(true)
    expect(isInOperatorRanges('Google', '8.8.8.8')).toBeNull()
  })
  it('rejects a bad prefix when loading', () => {
    expect(() => loadOperatorRanges({ lists: { x: { ...complete.lists.googlebot!, prefixes: ['nope'] } } })).toThrow(/bad prefix/)
  })
})

describe('ip-ranges.json', () => {
  const doc = shipped as RangesDocument
  it.each(Object.entries(doc.lists))('%s has provenance and valid prefixes', (_key, list) => {
    expect(list.operator).toMatch(/\S/)
    expect(list.source).toMatch(/^https:\/\/[^/]+\/.+\.json$/)
    expect(list.fetched_at === null || !Number.isNaN(Date.parse(list.fetched_at))).toBe(true)
    for (const p of list.prefixes) expect(parseCidr(p), p).not.toBeNull()
  })
})
