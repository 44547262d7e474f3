import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'

import rangesDoc from '../../src/pixel/agents/ip-ranges.json' with { type: 'json' }
import type { RangesDocument } from '../../src/pixel/agents/verify.ts'
import { loadOperatorRanges } from '../../src/pixel/agents/verify.ts'
import { createTokenBucket } from '../../src/pixel/collector/token-bucket.ts'
import { isPageLoad, parseLogLine, pathOf } from '../../src/pixel/ingest/access-log.ts'
import { aiReferrer } from '../../src/pixel/ingest/ai-referrers.ts'
import type { Observation } from '../../src/pixel/ingest/event.ts'
import { buildEvent } from '../../src/pixel/ingest/event.ts'
import { abuseKey, ipPrefix } from '../../src/pixel/ingest/ip-prefix.ts'
import { PIXEL_PARAMS, parsePixelParams, readBeaconBody } from '../../src/pixel/ingest/params.ts'
import { parseHttpUrl, readQuery } from '../../src/pixel/ingest/url.ts'
import { decodeEventLine, eventLine } from '../../src/pixel/ingest/writer.ts'

describe('URL reading', () => {
  const cases = [
    'https://news.example/world/story?id=1#top',
    'HTTPS://News.Example:443/A/b',
    'http://news.example:8080',
    'http://news.example:80/x',
    'https://user:pw@news.example/p',
    'https://[2001:db8::1]/p',
    'https://news.example/a/../b',
    'https://news.example/%2e%2e/b',
    'https://news.example\\evil.example/p',
    'https://127.1/p',
    'https://0x7f.0.0.1/',
    'https://news.example/a b',
    'https://news.example/ü',
    'https://xn--bcher-kva.example/',
    'https://bücher.example/',
    'https://news.example/a|b',
    'https://news.example/?q=a b',
    'https://news.example:99999/',
    'ftp://news.example/',
    'javascript:alert(1)',
    'https://news.example.:0443/x',
  ]
  it('gives what the WHATWG URL parser gives, on the fast path or not', () => {
    for (const v of cases) {
      let expected: { origin: string; hostname: string; pathname: string } | null = null
      try {
        const u = new URL(v)
        expected = /^https?:$/.test(u.protocol) ? { origin: u.origin, hostname: u.hostname, pathname: u.pathname } : null
      } catch {
        expected = null
      }
      const got = parseHttpUrl(v)
      expect([v, got && { origin: got.origin, hostname: got.hostname, pathname: got.pathname }]).toEqual([v, expected])
    }
    // Stricter than URL on purpose: a page URL is written out in full.
    expect(parseHttpUrl('https:/news.example/')).toBeNull()
  })

  it('reads query strings like URLSearchParams', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom('u', 'd', 'x', 'price', 'u%20', '+u'), fc.string()), { maxLength: 6 }), (pairs) => {
        const q = pairs.map(([k, v]) => `${k}=${encodeURIComponent(v).replace(/%20/g, '+')}`).join('&')
        const expected: Record<string, string> = {}
        for (const [k, v] of new URLSearchParams(q)) if (PIXEL_PARAMS.has(k)) expected[k] = v
        expect(readQuery(q, PIXEL_PARAMS)).toEqual(expected)
      }),
    )
    expect(readQuery('u=%E0%A4%A&d=a%2', PIXEL_PARAMS)).toEqual({ u: '%E0%A4%A', d: 'a%2' })
  })
})

describe('pixel parameters', () => {
  it('flags unexpanded macros and AUDIT, and calls malformed values junk', () => {
    const p = parsePixelParams({
      u: '%%TTD_SITE_WITH_PATH%%',
      d: 'news.example',
      deal: '${DEAL_ID}',
      price: 'AUDIT',
      cb: '{cachebuster}',
      imp: '[IMP]',
      cur: 'EUR',
    })
    expect(p.flags.sort()).toEqual(['audit:price', 'unexpanded:cb', 'unexpanded:deal', 'unexpanded:imp', 'unexpanded:u'])
    expect(p.bad).toBe(false)
    expect(p.pageUrl).toBeNull()
    expect(p.domain).toBe('news.example')
    expect(p.macros).toEqual({ deal: '${DEAL_ID}', price: 'AUDIT', cb: '{cachebuster}', imp: '[IMP]', cur: 'EUR' })

    const junk = parsePixelParams({ u: 'not a url', d: 'bad domain!', price: '12,5' })
    expect(junk.flags.sort()).toEqual(['bad:d', 'bad:price', 'bad:u'])
    expect(junk.bad).toBe(true)
    // A partly expanded URL still holds a macro.
    expect(parsePixelParams({ u: 'https://a.example/${PATH}' }).flags).toEqual(['unexpanded:u'])
    // An exchange-encrypted price is a price.
    expect(parsePixelParams({ price: 'WEp8wQAHPtsAAAAAAAAAAJ1Yzl3CgN8M' }).bad).toBe(false)
    expect(parsePixelParams({ price: '1.20' }).bad).toBe(false)
  })

  it('reads beacon bodies as query strings or flat JSON', () => {
    const a: Record<string, string> = {}
    expect(readBeaconBody('u=https%3A%2F%2Fa.example%2F&r=&wd=1&other=x', a)).toBe(true)
    expect(a).toEqual({ u: 'https://a.example/', r: '', wd: '1' })
    const b: Record<string, string> = {}
    expect(readBeaconBody('{"u":"https://a.example/","price":1.5,"__proto__":{"x":1},"nested":{}}', b)).toBe(true)
    expect(b).toEqual({ u: 'https://a.example/', price: '1.5' })
    expect(readBeaconBody('{broken', {})).toBe(false)
    expect(readBeaconBody('{"u":1}x', {})).toBe(false)
    const c: Record<string, string> = {}
    expect(readBeaconBody('[1,2]', c)).toBe(true) // read as a query string: nothing known in it
    expect(c).toEqual({})
  })
})

describe('access-log lines', () => {
  it('reads the combined format, escapes and time zones included', () => {
    const l = parseLogLine(
      '203.0.113.9 - bob [21/Nov/2026:09:15:00 +0200] "GET /a/b?x=1 HTTP/2.0" 200 512 "https://chatgpt.com/" "Mozilla/5.0 \\"quoted\\" \\x41"',
    )
    expect(l).toEqual({
      time: new Date('2026-11-21T07:15:00Z'),
      ip: '203.0.113.9',
      method: 'GET',
      target: '/a/b?x=1',
      host: null,
      status: 200,
      userAgent: 'Mozilla/5.0 "quoted" A',
      referer: 'https://chatgpt.com/',
    })
    expect(parseLogLine('203.0.113.9 - - [21/Nov/2026:09:15:00 +0000] "GET / HTTP/1.1" 200 1 "-" "-"')).toMatchObject({ userAgent: undefined, referer: null })
    expect(parseLogLine('203.0.113.9 - - [21/Nov/2026:09:15:00 +0000] "GET / HTTP/1.1" 200 1')).toBeNull() // common format: no UA
    expect(parseLogLine('x'.repeat(20_000))).toBeNull()
  })

  it('reads JSON lines and their time formats', () => {
    const t = '2026-11-21T09:00:00.000Z'
    for (const time of [
      t,
      '2026-11-21 09:00:00Z',
      Date.parse(t) / 1000,
      Date.parse(t),
      Date.parse(t) * 1000,
      String(Date.parse(t) / 1000),
      '21/Nov/2026:09:00:00 +0000',
    ]) {
      expect([time, parseLogLine(JSON.stringify({ time, path: '/' }))?.time.toISOString()]).toEqual([time, t])
    }
    expect(parseLogLine('{"time":"2026-11-21","path":"/"}')).toBeNull()
    expect(parseLogLine('{"time":"yesterday","path":"/"}')).toBeNull()
    expect(parseLogLine('{"time":"2026-11-21T09:00:00Z"}')).toBeNull()
  })

  it('counts only GETs of pages answered 2xx or 304', () => {
    const line = (method: string, target: string, status: number | null) =>
      isPageLoad({ time: new Date(), ip: null, method, target, host: null, status, userAgent: undefined, referer: null })
    expect(line('GET', '/story', 200)).toBe(true)
    expect(line('GET', '/story', 304)).toBe(true)
    expect(line('GET', '/story', null)).toBe(true)
    expect(line('GET', 'https://news.example/story?x=1', 200)).toBe(true)
    expect(line('HEAD', '/story', 200)).toBe(false)
    expect(line('POST', '/story', 200)).toBe(false)
    expect(line('GET', '/story', 301)).toBe(false)
    expect(line('GET', '/story', 404)).toBe(false)
    for (const asset of ['/a.css', '/b.JS', '/robots.txt', '/sitemap.xml', '/i.webp?v=2', '/favicon.ico', '/feed.rss'])
      expect(line('GET', asset, 200)).toBe(false)
    expect(pathOf('https://h.example')).toBe('/')
    expect(pathOf('/a?b#c')).toBe('/a')
  })
})

describe('addresses', () => {
  it('keeps only the /24 or /48', () => {
    expect(ipPrefix('203.0.113.77')).toBe('203.0.113.0/24')
    expect(ipPrefix('::ffff:203.0.113.77')).toBe('203.0.113.0/24')
    expect(ipPrefix('2001:db8:1:2::5')).toBe('2001:db8:1::/48')
    expect(ipPrefix('2001:0db8:0000:ffff::')).toBe('2001:db8:0::/48')
    expect(ipPrefix('not an ip')).toBeNull()
    expect(ipPrefix(null)).toBeNull()
  })

  it('bounds an IPv4 address alone and an IPv6 address by its /64', () => {
    expect(abuseKey('2001:db8:1:2::5')).toBe(abuseKey('2001:db8:1:2:ffff::1'))
    expect(abuseKey('2001:db8:1:3::5')).not.toBe(abuseKey('2001:db8:1:2::5'))
    expect(abuseKey('203.0.113.1')).not.toBe(abuseKey('203.0.113.2'))
  })

  it('refills the bucket over time, and sweeps full buckets', () => {
    let now = 0
    const b = createTokenBucket({ ratePerSec: 2, burst: 3, now: () => now })
    expect([b.take(1), b.take(1), b.take(1), b.take(1)]).toEqual([true, true, true, false])
    expect(b.take(2)).toBe(true)
    now += 500 // one token back
    expect([b.take(1), b.take(1)]).toEqual([true, false])
    now += 10_000
    b.sweep()
    expect(b.size).toBe(0)
    expect(createTokenBucket({ ratePerSec: 0, burst: 1 }).take(1)).toBe(true)
  })
})

describe('events', () => {
  const base: Observation = {
    time: new Date('2026-11-22T23:59:59.500Z'),
    source: 'pixel',
    campaign: { id: 7, clientId: 3 },
    campaignRef: '7',
    ip: '66.249.66.1',
    userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    secChUa: null,
    secChUaMobile: null,
    secChUaPlatform: null,
    acceptLanguage: null,
    hintsObserved: false,
    languageObserved: false,
    webdriver: undefined,
    pageUrl: 'https://News.Example/a?utm_source=chatgpt.com',
    referrer: null,
    domain: null,
    macros: null,
    flags: [],
    bad: false,
  }
  afterEach(() => loadOperatorRanges(rangesDoc as RangesDocument))

  it('classifies, keeps the UTC day, and verifies declared crawlers', () => {
    const e = buildEvent(base)
    expect(e).toMatchObject({
      day: '2026-11-22',
      agent: 'Googlebot',
      agentType: 'search',
      highRisk: false,
      verified: true,
      domain: 'news.example',
      pageUrl: 'https://news.example/a',
      urlPath: '/a',
      aiReferrer: null,
    })
    expect(e.flags).toEqual(['verified'])
  })

  it('calls a crawler spoofed when its address is outside the complete published list', () => {
    loadOperatorRanges({ lists: { googlebot: { operator: 'Google', source: 'test', fetched_at: null, complete: true, prefixes: ['66.249.64.0/19'] } } })
    const e = buildEvent({ ...base, ip: '198.51.100.4' })
    expect(e).toMatchObject({ agent: 'Googlebot (spoofed)', agentType: 'scraper', highRisk: true, riskReasons: ['spoofed_verified_bot'], verified: false })
    expect(e.flags).toEqual(['risk:spoofed_verified_bot', 'unverified'])
  })

  it('counts AI referrals of humans only, from the referrer or utm_source', () => {
    const human = { ...base, userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0' }
    expect(buildEvent(human).aiReferrer).toBe('ChatGPT')
    expect(buildEvent({ ...human, pageUrl: 'https://news.example/a', referrer: 'https://www.perplexity.ai/search' }).aiReferrer).toBe('Perplexity')
    expect(buildEvent(base).aiReferrer).toBeNull() // Googlebot is no referral
    expect(aiReferrer('gemini.google.com:443')?.source).toBe('Gemini')
    expect(aiReferrer('google.com')).toBeNull()
  })

  it('reads a stored row back as the event it was written from (the write-one-by-one fallback)', () => {
    const human = { ...base, userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0' }
    const spoofed = buildEvent({ ...base, ip: '198.51.100.4' })
    for (const e of [buildEvent(base), buildEvent(human), spoofed]) expect(decodeEventLine(eventLine(e))).toEqual(e)
    // Any text, COPY's special characters and array quoting included.
    const text = fc.string({ unit: 'grapheme', maxLength: 40 }).map((v) => v.replaceAll('\u0000', ''))
    fc.assert(
      fc.property(
        text,
        text,
        fc.array(text, { maxLength: 3 }),
        fc.option(fc.dictionary(fc.constantFrom('deal', 'price', 'cb'), text), { nil: null }),
        (ua, path, flags, macros) => {
          const e = { ...buildEvent({ ...human, userAgent: ua, macros }), urlPath: path, flags: flags.map((f) => `p:${f}`) }
          expect(decodeEventLine(eventLine(e))).toEqual({ ...e, riskReasons: [], verified: null, aiReferrer: null })
        },
      ),
    )
  })

  it('drops NUL characters PostgreSQL cannot store', () => {
    const e = buildEvent({ ...base, userAgent: 'bad\u0000agent', acceptLanguage: 'en\u0000' })
    expect(e.userAgent).toBe('badagent')
    expect(e.acceptLanguage).toBe('en')
  })
})
