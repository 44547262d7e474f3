import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createFetcher } from '../../../src/scraping/fetch/fetcher.ts'
import { parseRobots, patternMatches, productToken } from '../../../src/scraping/fetch/robots.ts'
import { hangUp, redirect } from '../fixtures/hostile-handlers.ts'
import type { Handler, WebServer } from '../fixtures/web-server.ts'
import { closedPort, html, reply, startRoutes, testConfig } from '../fixtures/web-server.ts'

const UA = 'CurataBot/0.1 (+https://curata.example/bot)'

describe('robots.txt rules (RFC 9309)', () => {
  it('takes the product token of our user agent', () => {
    expect(productToken(UA)).toBe('curatabot')
  })

  it('matches * anywhere and $ at the end only', () => {
    expect(patternMatches('/fish', '/fish.html')).toBe(true)
    expect(patternMatches('/fish', '/Fish')).toBe(false)
    expect(patternMatches('/*.php', '/a/b/index.php?x=1')).toBe(true)
    expect(patternMatches('/*.php$', '/a/index.php')).toBe(true)
    expect(patternMatches('/*.php$', '/a/index.php?x=1')).toBe(false)
    expect(patternMatches('/fish*$', '/fishy')).toBe(true)
    expect(patternMatches('/$', '/')).toBe(true)
    expect(patternMatches('/$', '/a')).toBe(false)
    expect(patternMatches('/a*b*c$', '/abcbc')).toBe(true)
    expect(patternMatches('/a*b*c$', '/abcb')).toBe(false)
    expect(patternMatches('*', '/anything')).toBe(true)
  })

  it('does not hang on patterns built to backtrack (exponential matching would take minutes)', () => {
    const pattern = '/' + 'a*'.repeat(2_000) + 'b$'
    const path = '/' + 'a'.repeat(5_000)
    const started = performance.now()
    expect(patternMatches(pattern, path)).toBe(false)
    expect(performance.now() - started).toBeLessThan(2_000)
  })

  it('uses the longest match, and allow wins a tie', () => {
    const p = parseRobots('User-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /a/b/c\nAllow: /x\nDisallow: /x\nDisallow: /*.pdf$\nAllow: /*.PDF$', UA)
    expect(p.isAllowed('/a')).toBe(false)
    expect(p.isAllowed('/a/b')).toBe(true)
    expect(p.isAllowed('/a/b/c/d')).toBe(false)
    expect(p.isAllowed('/x/y')).toBe(true)
    expect(p.isAllowed('/doc.pdf')).toBe(false)
    expect(p.isAllowed('/doc.pdf?dl=1')).toBe(true)
    expect(p.isAllowed('/elsewhere')).toBe(true)
  })

  it('prefers our own groups (merged, case-insensitive) over *', () => {
    const text = [
      'User-agent: *',
      'Disallow: /',
      '',
      'User-agent: CURATABOT',
      'Disallow: /private',
      '',
      'User-agent: otherbot',
      'User-agent: curatabot/2.0',
      'Disallow: /tmp',
      '# comment',
      'Sitemap: https://x.test/s.xml',
      'Allow: /tmp/ok',
    ].join('\r\n')
    const p = parseRobots(text, UA)
    expect(p.isAllowed('/')).toBe(true)
    expect(p.isAllowed('/private/x')).toBe(false)
    expect(p.isAllowed('/tmp/a')).toBe(false)
    expect(p.isAllowed('/tmp/ok')).toBe(true)
  })

  it('falls back to * and allows everything without a matching group', () => {
    expect(parseRobots('User-agent: *\nDisallow: /', UA).isAllowed('/page')).toBe(false)
    expect(parseRobots('User-agent: googlebot\nDisallow: /', UA).isAllowed('/page')).toBe(true)
    expect(parseRobots('', UA).isAllowed('/page')).toBe(true)
  })

  it('reads an empty Disallow as no rule and ignores rules before any user-agent', () => {
    expect(parseRobots('Disallow: /\nUser-agent: *\nDisallow:', UA).isAllowed('/page')).toBe(true)
  })

  it('always allows /robots.txt itself', () => {
    expect(parseRobots('User-agent: *\nDisallow: /', UA).isAllowed('/robots.txt')).toBe(true)
  })

  it('compares percent-encoded and raw non-ASCII paths alike', () => {
    const p = parseRobots('User-agent: *\nDisallow: /café\nDisallow: /a%2fb', UA)
    expect(p.isAllowed(new URL('http://x.test/café/menu').pathname)).toBe(false)
    expect(p.isAllowed('/a%2Fb')).toBe(false)
    expect(p.isAllowed('/a/b')).toBe(true)
  })
})

describe('fetchPage obeys robots.txt', () => {
  const servers: WebServer[] = []
  const start = async (robots: Handler): Promise<WebServer> => {
    const s = await startRoutes({
      '/robots.txt': robots,
      '/page': html('<p>ok</p>'),
      '/private/page': html('<p>secret</p>'),
      '/to-private': redirect('/private/page'),
    })
    servers.push(s)
    return s
  }
  let clock = Date.parse('2026-01-01T00:00:00Z')
  const fetcher = createFetcher(testConfig({ respectRobots: true, now: () => clock }))
  const robotsHits = (s: WebServer): number => s.hits.filter((h) => h.path === '/robots.txt').length

  let rules: WebServer
  beforeAll(async () => {
    rules = await start(reply(200, { 'content-type': 'text/plain' }, 'User-agent: *\nDisallow: /private\n'))
  })
  afterAll(async () => {
    await fetcher.close()
    await Promise.all(servers.map((s) => s.close()))
  })

  it('fetches allowed pages and refuses disallowed ones (E002) without requesting them', async () => {
    expect((await fetcher.fetchPage(rules.url('/page'))).error).toBeNull()
    const out = await fetcher.fetchPage(rules.url('/private/page'))
    expect(out.error).toEqual({ code: 'E002', reason: `disallowed by ${rules.origin}/robots.txt` })
    expect(rules.hits.some((h) => h.path === '/private/page')).toBe(false)
  })

  it('checks robots.txt again on a redirect hop', async () => {
    const out = await fetcher.fetchPage(rules.url('/to-private'))
    expect(out.error?.reason).toMatch(/disallowed by/)
    expect(rules.hits.some((h) => h.path === '/private/page')).toBe(false)
  })

  it('fetches robots.txt once per origin and again after the cache expires (≤ 24 h)', async () => {
    const s = await start(reply(200, { 'content-type': 'text/plain' }, 'User-agent: *\nDisallow: /private\n'))
    await Promise.all([fetcher.fetchPage(s.url('/page')), fetcher.fetchPage(s.url('/page?2')), fetcher.fetchPage(s.url('/private/page'))])
    expect(robotsHits(s)).toBe(1)
    clock += 23 * 3600_000
    await fetcher.fetchPage(s.url('/page'))
    expect(robotsHits(s)).toBe(1)
    clock += 2 * 3600_000
    await fetcher.fetchPage(s.url('/page'))
    expect(robotsHits(s)).toBe(2)
  })

  it('caps a configured robots.txt lifetime above 24 h at 24 h', async () => {
    const s = await start(reply(200, { 'content-type': 'text/plain' }, 'User-agent: *\nDisallow: /private\n'))
    const t0 = Date.parse('2026-02-01T00:00:00Z')
    let now = t0
    const longLived = createFetcher(testConfig({ respectRobots: true, robotsTtlMs: 7 * 24 * 3600_000, now: () => now }))
    await longLived.fetchPage(s.url('/page'))
    now = t0 + 24 * 3600_000 - 1
    await longLived.fetchPage(s.url('/page'))
    expect(robotsHits(s)).toBe(1)
    now = t0 + 24 * 3600_000 + 1
    await longLived.fetchPage(s.url('/page'))
    await longLived.close()
    expect(robotsHits(s)).toBe(2)
  })

  it.each([404, 403, 410])('treats a %s robots.txt as "allow everything"', async (status) => {
    const s = await start(reply(status, { 'content-type': 'text/plain' }, 'Disallow: /'))
    expect((await fetcher.fetchPage(s.url('/private/page'))).error).toBeNull()
  })

  it.each([500, 503, 429])('treats a %s robots.txt as "disallow everything"', async (status) => {
    const s = await start(reply(status, { 'content-type': 'text/plain' }, ''))
    const out = await fetcher.fetchPage(s.url('/page'))
    expect(out.error).toEqual({ code: 'E002', reason: `disallowed: ${s.origin}/robots.txt unavailable (HTTP ${status})` })
    expect(s.hits.some((h) => h.path === '/page')).toBe(false)
  })

  it('treats an unreachable robots.txt as "disallow everything", and asks again after 10 minutes', async () => {
    const s = await start(hangUp)
    expect((await fetcher.fetchPage(s.url('/page'))).error?.reason).toMatch(/^disallowed: .+ unavailable \((other side closed|socket hang up|read ECONNRESET)/)
    clock += 11 * 60_000
    await fetcher.fetchPage(s.url('/page'))
    expect(robotsHits(s)).toBe(2)
  })

  it('treats a closed port as unreachable: the page fails without a robots verdict of allow', async () => {
    const port = await closedPort()
    expect((await fetcher.fetchPage(`http://127.0.0.1:${port}/page`)).error?.reason).toMatch(/^disallowed: .+ unavailable \(connect ECONNREFUSED/)
  })

  it('follows robots.txt redirects', async () => {
    const target = await start(reply(200, { 'content-type': 'text/plain' }, 'User-agent: curatabot\nDisallow: /page'))
    const s = await start(redirect(target.url('/robots.txt'), 301))
    expect((await fetcher.fetchPage(s.url('/page'))).error?.reason).toMatch(/disallowed by/)
    expect((await fetcher.fetchPage(s.url('/private/page'))).error).toBeNull()
  })
})
