import { describe, expect, it } from 'vitest'
import { agents, classifyUserAgent } from '../../../src/pixel/agents/classify.ts'
import { assessRisk } from '../../../src/pixel/agents/risk.ts'
import { HEADLESS_UAS, HUMAN_UAS, LIBRARY_UAS, LLM_RETRIEVAL_UAS, LLM_TRAINING_UAS, SCRAPER_UAS, SEARCH_UAS } from './fixtures.ts'

describe('classifyUserAgent: humans', () => {
  it.each(HUMAN_UAS)('%s -> human', (ua) => {
    expect(classifyUserAgent(ua)).toEqual({ agent: null, operator: null, type: 'human', declared: false })
  })
})

describe.each([
  ['search', SEARCH_UAS],
  ['llm_training', LLM_TRAINING_UAS],
  ['llm_retrieval', LLM_RETRIEVAL_UAS],
  ['scraper', SCRAPER_UAS],
] as const)('classifyUserAgent: %s', (type, cases) => {
  it('has at least 5 real UAs', () => expect(cases.length).toBeGreaterThanOrEqual(5))
  it.each(cases)('%s -> %s', (ua, name) => {
    const c = classifyUserAgent(ua)
    expect(c).toMatchObject({ agent: name, type, declared: true })
    expect(c.operator === null || typeof c.operator === 'string').toBe(true)
  })
})

describe('classifyUserAgent: libraries and headless browsers are scrapers', () => {
  it.each(LIBRARY_UAS)('%s -> %s (declared)', (ua, name) => {
    expect(classifyUserAgent(ua)).toMatchObject({ agent: name, type: 'scraper', declared: true })
  })
  it.each(HEADLESS_UAS)('%s -> %s (not declared)', (ua, name) => {
    expect(classifyUserAgent(ua)).toEqual({ agent: name, operator: null, type: 'scraper', declared: false })
  })
})

describe('classifyUserAgent: precedence', () => {
  it('OpenAI agents keep their own types', () => {
    expect(classifyUserAgent(LLM_TRAINING_UAS[0]![0]).agent).toBe('GPTBot')
    expect(classifyUserAgent('ChatGPT-User/1.0').type).toBe('llm_retrieval')
    expect(classifyUserAgent('OAI-SearchBot/1.0').type).toBe('llm_retrieval')
    expect(classifyUserAgent('GPTBot/1.2').type).toBe('llm_training')
  })
  it('the longer token wins at one position', () => {
    expect(classifyUserAgent('Mozilla/5.0 (compatible; AdsBot-Google-Mobile; +http://www.google.com/mobile/adsbot.html)').agent).toBe('AdsBot-Google')
    expect(classifyUserAgent('Googlebot-News').agent).toBe('Googlebot-News')
    expect(classifyUserAgent('Mozilla/5.0 (compatible; GoogleOther-Image/1.0)').agent).toBe('GoogleOther-Image')
    expect(classifyUserAgent('SemrushBot-SWA/1.0').agent).toBe('SemrushBot-SWA')
  })
  it('a named agent beats the library or headless browser it runs on, which beat the heuristics', () => {
    expect(classifyUserAgent('Mozilla/5.0 (compatible; Googlebot/2.1) HeadlessChrome/120.0.0.0').agent).toBe('Googlebot')
    expect(classifyUserAgent('python-requests/2.31 (compatible; MyCoolBot/1.0; +https://example.com)').agent).toBe('python-requests')
    expect(classifyUserAgent('Mozilla/5.0 (compatible; MyCoolBot/1.0)').agent).toBe('Unidentified bot')
    expect(classifyUserAgent('Mozilla/5.0 (compatible; Acme Link Checker; +https://acme.example/checker)').agent).toBe('Unidentified bot')
  })
  it('needs whole words', () => {
    expect(classifyUserAgent('Mozilla/5.0 (compatible; XGooglebot/2.1)').agent).toBe('Unidentified bot')
    expect(classifyUserAgent('Mozilla/5.0 (compatible; GooglebotX/2.1)').agent).toBe('Unidentified bot')
    expect(classifyUserAgent('Mozilla/5.0 (Linux) Curlyfries/1.0').type).toBe('human')
  })
  it('is case-insensitive', () => {
    expect(classifyUserAgent('mozilla/5.0 (compatible; GOOGLEBOT/2.1)').agent).toBe('Googlebot')
    expect(classifyUserAgent('CURL/7.0').agent).toBe('curl')
  })
})

describe('classifyUserAgent: robots.txt-only tokens are typed as named but never verified', () => {
  const robotsOnly = agents.filter((a) => a.robots_only)
  it('includes Google-Extended and Applebot-Extended', () => {
    expect(robotsOnly.map((a) => a.name)).toEqual(expect.arrayContaining(['Google-Extended', 'Applebot-Extended']))
  })
  it.each(robotsOnly.flatMap((a) => a.tokens.map((t) => [a.name, t, a.type] as const)))('%s (%s)', (name, token, type) => {
    for (const ua of [token, `Mozilla/5.0 (compatible; ${token}/1.0)`, `Mozilla/5.0 (compatible; ${token})`]) {
      const classification = classifyUserAgent(ua)
      expect(classification).toMatchObject({ agent: name, type })
      // Google inside its own ranges still did not send this name: the claim is spoofed wherever it comes from.
      expect(assessRisk({ classification, ua, ip: '66.249.66.1' })).toMatchObject({ highRisk: true, verified: false, reasons: ['spoofed_verified_bot'] })
    }
  })
})

describe('every listed token reaches its own agent', () => {
  const cases = agents.flatMap((a) => a.tokens.filter((t) => /^=?[A-Za-z0-9]/.test(t)).map((t) => [a.name, t.replace(/^=/, '')] as const))
  it.each(cases)('%s <- %s', (name, token) => {
    expect(classifyUserAgent(`Mozilla/5.0 (compatible; ${token}/1.0; +https://example.com/about)`).agent).toBe(name)
  })
})

describe('ordinary words name an agent only where a client names itself', () => {
  const VS_CODE =
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Code/1.85.0 Chrome/114.0.5735.289 Electron/25.9.7 Safari/537.36'
  it('Spider: the declared product, not the word in names, URLs or e-mail addresses', () => {
    expect(classifyUserAgent('Mozilla/5.0 (compatible; Spider; +https://www.spider.com/)').agent).toBe('Spider')
    expect(classifyUserAgent('Spider/1.0').agent).toBe('Spider')
    expect(classifyUserAgent('Gigabot/2.0 (http://www.gigablast.com/spider.html)')).toMatchObject({ agent: 'Gigablast', type: 'search' })
    expect(classifyUserAgent('Speedy Spider (http://www.entireweb.com/about/search_tech/speedy_spider/)')).toMatchObject({ type: 'search' })
    expect(classifyUserAgent('Sogou News Spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)')).toMatchObject({
      agent: 'Sogou Spider',
      type: 'search',
    })
    expect(classifyUserAgent('NutchCVS/0.7.1 (Nutch; http://lucene.apache.org/nutch/bot.html; nutch-agent@lucene.apache.org)').type).toBe('search')
    expect(classifyUserAgent('Mozilla/5.0 (compatible; Foo/1.0; mailto:spider@example.org)').agent).toBe('Unidentified bot')
  })
  it('Code: not code.google.com in a comment, not the VS Code desktop app', () => {
    expect(classifyUserAgent('AppEngine-Google; (+http://code.google.com/appengine; appid: example)').agent).toBe('Google App Engine')
    expect(classifyUserAgent(VS_CODE)).toMatchObject({ agent: null, type: 'human' })
    expect(classifyUserAgent('Code/1.0 (GitHub Copilot)').agent).toBe('Code')
  })
  it('Expanse: the scanner, not a phone model', () => {
    expect(classifyUserAgent('Expanse, a Palo Alto Networks company, searches across the global IPv4 space').agent).toBe('Expanse')
    expect(
      classifyUserAgent('Mozilla/5.0 (Linux; Android 10; Expanse) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36').type,
    ).toBe('human')
    expect(
      classifyUserAgent(
        'Mozilla/5.0 (Linux; Android 12; Bot 5 Build/SKQ1.211006.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.6099.43 Mobile Safari/537.36',
      ).type,
    ).toBe('human')
  })
  it('an e-mail address or a URL inside a comment marks a bot, a device comment does not', () => {
    expect(classifyUserAgent('Mozilla/5.0 (compatible; um-LN/1.0; mailto: techinfo@ubermetrics-technologies.com)').agent).toBe('Unidentified bot')
    expect(classifyUserAgent('Mozilla/5.0 (compatible; Foo/1.0; +https://foo.example/bot)').agent).toBe('Unidentified bot')
    expect(
      classifyUserAgent(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Mobile/15E148 Safari/604.1 (Ecosia ios@9.2.3.1367)',
      ).type,
    ).toBe('human')
  })
})

describe('missing user-agent', () => {
  it.each([undefined, null, '', '   ', '-'])('%j -> Empty user-agent', (ua) => {
    expect(classifyUserAgent(ua)).toEqual({ agent: 'Empty user-agent', operator: null, type: 'scraper', declared: false })
  })
})
