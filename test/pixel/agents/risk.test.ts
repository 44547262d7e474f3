import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { classifyUserAgent } from '../../../src/pixel/agents/classify.ts'
import shipped from '../../../src/pixel/agents/ip-ranges.json' with { type: 'json' }
import type { RiskInput } from '../../../src/pixel/agents/risk.ts'
import { assessRisk } from '../../../src/pixel/agents/risk.ts'
import type { RangesDocument } from '../../../src/pixel/agents/verify.ts'
import { loadOperatorRanges } from '../../../src/pixel/agents/verify.ts'

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
const CHROME_CH = '"Chromium";v="124", "Google Chrome";v="124", "Not-A.Brand";v="99"'
const SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Mobile/15E148 Safari/604.1'
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0'
const HEADLESS = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/124.0.6367.60 Safari/537.36'
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
const PPLX_USER = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)'

const risk = (ua: string, ip: string | null, headers?: RiskInput['headers']) => assessRisk({ classification: classifyUserAgent(ua), ua, ip, headers })

describe('spoofed_verified_bot', () => {
  beforeEach(() => {
    // What a refresh produces: complete lists.
    const doc = structuredClone(shipped) as RangesDocument
    for (const l of Object.values(doc.lists)) {
      l.complete = true
      if (l.prefixes.length === 0) l.prefixes = ['192.0.2.0/24']
    }
    loadOperatorRanges(doc)
  })
  afterEach(() => loadOperatorRanges(shipped as RangesDocument))

  it('Googlebot from Google ranges is verified', () => {
    expect(risk(GOOGLEBOT, '66.249.66.1')).toEqual({ highRisk: false, reasons: [], verified: true })
    expect(risk(GOOGLEBOT, '2001:4860:4801:10::7')).toEqual({ highRisk: false, reasons: [], verified: true })
  })
  it('Googlebot from elsewhere is spoofed (IPv4, IPv6, IPv4-mapped)', () => {
    for (const ip of ['203.0.113.9', '2a00:1450::1', '::ffff:203.0.113.9']) {
      expect(risk(GOOGLEBOT, ip)).toEqual({ highRisk: true, reasons: ['spoofed_verified_bot'], verified: false })
    }
  })
  it('unknown when the IP was not kept', () => {
    expect(risk(GOOGLEBOT, null)).toEqual({ highRisk: false, reasons: [], verified: null })
    expect(risk(GOOGLEBOT, '203.0.113.0/24')).toEqual({ highRisk: false, reasons: [], verified: null })
  })
  it('agents without published ranges are never "spoofed"', () => {
    expect(risk('Mozilla/5.0 (compatible; YandexBot/3.0)', '203.0.113.9').verified).toBeNull()
    expect(risk(CHROME, '203.0.113.9', { acceptLanguage: 'en', secChUa: CHROME_CH }).verified).toBeNull()
  })
  it('a spoofed agent that also ignores robots.txt carries both reasons', () => {
    expect(risk(PPLX_USER, '203.0.113.9')).toEqual({ highRisk: true, reasons: ['spoofed_verified_bot', 'ignores_robots'], verified: false })
  })
})

describe('spoofing with the shipped seed ranges', () => {
  it('outside a partial seed is not called spoofed', () => {
    expect(risk(GOOGLEBOT, '203.0.113.9')).toEqual({ highRisk: false, reasons: [], verified: null })
    expect(risk(GOOGLEBOT, '66.249.66.1').verified).toBe(true)
  })
})

describe('undeclared_automation (browser UA plus two signal groups)', () => {
  it('Chrome without Accept-Language and without client hints', () => {
    expect(risk(CHROME, '203.0.113.9', { acceptLanguage: null, secChUa: null })).toMatchObject({ highRisk: true, reasons: ['undeclared_automation'] })
  })
  it('a normal Chrome, Safari or Firefox request is not', () => {
    expect(risk(CHROME, '203.0.113.9', { acceptLanguage: 'en-US,en;q=0.9', secChUa: CHROME_CH }).highRisk).toBe(false)
    expect(risk(SAFARI, '203.0.113.9', { acceptLanguage: 'en-US', secChUa: null }).highRisk).toBe(false)
    expect(risk(FIREFOX, '203.0.113.9', { acceptLanguage: 'de', secChUa: undefined }).highRisk).toBe(false)
  })
  it('one signal alone is not enough', () => {
    expect(risk(CHROME, null, { acceptLanguage: '', secChUa: CHROME_CH }).highRisk).toBe(false)
    expect(risk(CHROME, null, { acceptLanguage: 'en', webdriver: true, secChUa: CHROME_CH }).highRisk).toBe(false)
    expect(risk(HEADLESS, null).highRisk).toBe(false)
  })
  it('headless marker plus a missing header', () => {
    expect(risk(HEADLESS, null, { acceptLanguage: null }).reasons).toEqual(['undeclared_automation'])
  })
  it('Safari UA sending Chromium client hints, driven by webdriver', () => {
    expect(risk(SAFARI, null, { acceptLanguage: 'en', secChUa: CHROME_CH, webdriver: true }).reasons).toEqual(['undeclared_automation'])
  })
  it('client hints whose version contradicts the UA, with no Accept-Language', () => {
    expect(risk(CHROME, null, { acceptLanguage: null, secChUa: '"Chromium";v="120", "Not_A Brand";v="8"' }).highRisk).toBe(true)
  })
  it('HeadlessChrome brand in Sec-CH-UA counts as the automation marker', () => {
    expect(risk(CHROME, null, { acceptLanguage: null, secChUa: '"HeadlessChrome";v="124", "Chromium";v="124"' }).highRisk).toBe(true)
  })
  it('declared automation is not "undeclared"', () => {
    expect(risk('curl/8.4.0', null, { acceptLanguage: null, secChUa: null, webdriver: true }).highRisk).toBe(false)
    expect(risk(GOOGLEBOT, null, { acceptLanguage: null, secChUa: null }).highRisk).toBe(false)
  })
})

describe('ignores_robots', () => {
  it.each([
    'Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)',
    'meta-externalfetcher/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)',
    'Mozilla/5.0 (compatible; DeepSeekBot/1.0)',
  ])('%s', (ua) => {
    expect(risk(ua, null)).toEqual({ highRisk: true, reasons: ['ignores_robots'], verified: null })
  })
  it('agents that honour robots.txt are not flagged', () => {
    expect(risk('Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)', null).highRisk).toBe(false)
  })
})

describe('junk input', () => {
  it('never throws', () => {
    const bad = [null, undefined, '', '\u0000\uffff', 'x'.repeat(10_000)] as unknown as string[]
    for (const ua of bad) {
      for (const ip of [null, '', 'not an ip', '::ffff:999.1.1.1', ua]) {
        expect(() => assessRisk({ classification: classifyUserAgent(ua), ua, ip, headers: { secChUa: ua, acceptLanguage: ua } })).not.toThrow()
      }
    }
  })
})
