import { describe, expect, it } from 'vitest'
import { agents, classifyUserAgent } from '../../../src/pixel/agents/classify.ts'
import {
  HEADLESS_UAS, HUMAN_UAS, LIBRARY_UAS, LLM_RETRIEVAL_UAS, LLM_TRAINING_UAS, SCRAPER_UAS, SEARCH_UAS,
} from './fixtures.ts'

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
    expect(classifyUserAgent('Mozilla/5.0 (compatible; GooglebotX/2.1)').type).toBe('human')
    expect(classifyUserAgent('Mozilla/5.0 (Linux) Curlyfries/1.0').type).toBe('human')
  })
  it('is case-insensitive', () => {
    expect(classifyUserAgent('mozilla/5.0 (compatible; GOOGLEBOT/2.1)').agent).toBe('Googlebot')
    expect(classifyUserAgent('CURL/7.0').agent).toBe('curl')
  })
})

describe('classifyUserAgent: robots.txt-only tokens never count as seen', () => {
  const robotsOnly = agents.filter((a) => a.robots_only)
  it('includes Google-Extended and Applebot-Extended', () => {
    expect(robotsOnly.map((a) => a.name)).toEqual(expect.arrayContaining(['Google-Extended', 'Applebot-Extended']))
  })
  it.each(robotsOnly.flatMap((a) => a.tokens.map((t) => [a.name, t] as const)))('%s (%s)', (name, token) => {
    for (const ua of [token, `Mozilla/5.0 (compatible; ${token}/1.0)`, `Mozilla/5.0 (compatible; ${token})`]) {
      expect(classifyUserAgent(ua).agent).not.toBe(name)
    }
  })
})

describe('every listed token reaches its own agent', () => {
  const cases = agents.flatMap((a) =>
    a.robots_only || a.tier === 2 ? [] : a.tokens.filter((t) => /^[A-Za-z0-9]/.test(t)).map((t) => [a.name, t] as const),
  )
  it.each(cases)('%s <- %s', (name, token) => {
    expect(classifyUserAgent(`Mozilla/5.0 (compatible; ${token}/1.0; +https://example.com/about)`).agent).toBe(name)
  })
})

describe('missing user-agent', () => {
  it.each([undefined, null, '', '   ', '-'])('%j -> Empty user-agent', (ua) => {
    expect(classifyUserAgent(ua)).toEqual({ agent: 'Empty user-agent', operator: null, type: 'scraper', declared: false })
  })
})
