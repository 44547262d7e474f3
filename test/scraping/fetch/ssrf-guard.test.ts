import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Fetcher } from '../../../src/scraping/fetch/fetcher.ts'
import { createFetcher } from '../../../src/scraping/fetch/fetcher.ts'
import type { Resolver } from '../../../src/scraping/fetch/ssrf-guard.ts'
import { blockedRange } from '../../../src/scraping/fetch/ssrf-guard.ts'
import { redirect } from '../fixtures/hostile-handlers.ts'
import type { WebServer } from '../fixtures/web-server.ts'
import { html, startRoutes, testConfig } from '../fixtures/web-server.ts'

describe('blockedRange', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['198.18.0.1', 'reserved'],
    ['198.19.255.255', 'reserved'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['fd00::1', 'uniqueLocal'],
    ['fe80::1', 'linkLocal'],
    ['ff02::1', 'multicast'],
    ['::', 'unspecified'],
    ['2001:db8::1', 'reserved'],
    ['64:ff9b::a00:1', 'rfc6052'],
    ['2002:a00:1::', '6to4'],
    // IPv4-compatible ::/96 (deprecated): not mapped, so ipaddr.js alone calls it unicast.
    ['::7f00:1', 'ipv4Compatible'],
    ['::a00:1', 'ipv4Compatible'],
    ['::a9fe:a9fe', 'ipv4Compatible'],
    ['::808:808', 'ipv4Compatible'],
    // Outside 2000::/3 nothing is allocated as global unicast.
    ['::1:0:0:1', 'reserved'],
    ['1::1', 'reserved'],
    ['4000::1', 'reserved'],
    ['fe00::1', 'reserved'],
    ['100::1', 'discard'],
    ['::ffff:0:a00:1', 'rfc6145'],
    ['2001::1', 'teredo'],
    ['fec0::1', 'deprecatedSiteLocal'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['64:ff9b::a9fe:a9fe', 'rfc6052'],
    ['not-an-ip', 'invalid'],
  ])('refuses %s (%s)', (address, range) => {
    expect(blockedRange(address)).toBe(range)
  })

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '198.20.0.1', '2606:4700::1111', '2a00:1450:4001::1', '3ffe::1', '::ffff:8.8.8.8'])(
    'allows public %s',
    (address) => {
      expect(blockedRange(address)).toBeNull()
    },
  )
})

describe('the guard inside fetchPage (allowPrivate=false)', () => {
  let server: WebServer
  let guarded: Fetcher
  // Names a test can point anywhere; real DNS is never asked.
  const names: Record<string, string> = {
    'internal.test': '10.0.0.7',
    'metadata.test': '169.254.169.254',
    'loop.test': '127.0.0.1',
    'v6.test': '::1',
    'mapped.test': '::ffff:192.168.0.1',
  }
  const resolver: Resolver = async (host) => {
    const address = names[host]
    if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' })
    return [{ address, family: address.includes(':') ? 6 : 4 }]
  }

  beforeAll(async () => {
    server = await startRoutes({ '/page': html('<p>secret</p>') })
    guarded = createFetcher(testConfig({ allowPrivate: false, resolver }))
  })
  afterAll(async () => {
    await guarded.close()
    await server.close()
  })

  const refusedUrls = (port: number): string[] => [
    `http://127.0.0.1:${port}/page`,
    `http://2130706433:${port}/page`, // decimal
    `http://0x7f.0.0.1:${port}/page`, // hex
    `http://0177.0.0.1:${port}/page`, // octal
    `http://127.1:${port}/page`, // short form
    `http://[::1]:${port}/page`,
    `http://[::ffff:127.0.0.1]:${port}/page`,
    `http://[::127.0.0.1]:${port}/page`, // IPv4-compatible, parsed as [::7f00:1]
    `http://[::7f00:1]:${port}/page`,
    `http://[::a00:1]:${port}/page`,
    `http://loop.test:${port}/page`,
    `http://v6.test:${port}/page`,
    `http://internal.test:${port}/page`,
    `http://metadata.test/latest/meta-data/`,
    `http://mapped.test:${port}/page`,
    `http://169.254.169.254/latest/meta-data/`,
    `http://0.0.0.0:${port}/page`,
  ]

  it('refuses every spelling of a loopback or private target with E002, before any request', async () => {
    for (const url of refusedUrls(server.port)) {
      const out = await guarded.fetchPage(url)
      expect(out.error?.code, url).toBe('E002')
      expect(out.error?.reason, url).toMatch(/^refused to connect to .+ \((loopback|private|linkLocal|unspecified|ipv4Compatible) address\)$/)
      expect(out.status, url).toBeNull()
    }
    expect(server.hits).toHaveLength(0)
  })

  it('refuses localhost through the system resolver', async () => {
    const system = createFetcher(testConfig({ allowPrivate: false }))
    const out = await system.fetchPage(`http://localhost:${server.port}/page`)
    await system.close()
    expect(out.error?.reason).toMatch(/refused to connect to localhost → .+ \(loopback address\)/)
    expect(server.hits).toHaveLength(0)
  })

  it('names the guard as the reason when robots.txt is on, too', async () => {
    const polite = createFetcher(testConfig({ allowPrivate: false, respectRobots: true }))
    const out = await polite.fetchPage(`http://127.0.0.1:${server.port}/page`)
    await polite.close()
    expect(out.error).toEqual({
      code: 'E002',
      reason: `disallowed: ${server.origin}/robots.txt unavailable (refused to connect to 127.0.0.1 (loopback address))`,
    })
    expect(server.hits).toHaveLength(0)
  })

  it('lets the same URLs through only when allowPrivate is set', async () => {
    const open = createFetcher(testConfig({ allowPrivate: true, resolver }))
    const out = await open.fetchPage(`http://loop.test:${server.port}/page`)
    await open.close()
    expect(out).toMatchObject({ error: null, html: '<p>secret</p>' })
  })
})

describe('the guard on redirect hops', () => {
  // The fixture itself lives on loopback, so this suite lets exactly 127.0.0.1 count as public:
  // every other private target keeps the production verdict.
  const classify = (address: string): string | null => (address === '127.0.0.1' ? null : blockedRange(address))
  const resolver: Resolver = async (host) => [{ address: host === 'internal.test' ? '10.0.0.7' : '127.0.0.1', family: 4 }]
  let server: WebServer
  let fetcher: Fetcher

  beforeAll(async () => {
    server = await startRoutes({
      '/page': html('<p>public</p>'),
      '/to-metadata': redirect('http://169.254.169.254/latest/meta-data/iam/'),
      '/to-other-loopback': redirect('http://127.0.0.2/'),
      '/to-v6-loopback': redirect('http://[::1]/'),
      '/to-internal-name': redirect('http://internal.test/admin'),
      '/to-decimal-private': redirect('http://167772161/'), // 10.0.0.1
      '/to-page': redirect('/page'),
    })
    fetcher = createFetcher(testConfig({ allowPrivate: false, resolver }), { classify })
  })
  afterAll(async () => {
    await fetcher.close()
    await server.close()
  })

  it('reaches the public fixture and follows a redirect that stays public', async () => {
    const out = await fetcher.fetchPage(server.url('/to-page'))
    expect(out).toMatchObject({ error: null, html: '<p>public</p>' })
  })

  it.each([
    ['/to-metadata', '169.254.169.254', 'linkLocal'],
    ['/to-other-loopback', '127.0.0.2', 'loopback'],
    ['/to-v6-loopback', '::1', 'loopback'],
    ['/to-internal-name', 'internal.test → 10.0.0.7', 'private'],
    ['/to-decimal-private', '10.0.0.1', 'private'],
  ])('refuses %s with E002', async (path, address, range) => {
    const out = await fetcher.fetchPage(server.url(path))
    expect(out.error).toEqual({ code: 'E002', reason: `refused to connect to ${address} (${range} address)` })
  })
})
