import { describe, expect, it } from 'vitest'
import { parseRangeDocument, refreshRanges } from '../../../scripts/refresh-bot-ranges.ts'
import shipped from '../../../src/pixel/agents/ip-ranges.json' with { type: 'json' }
import type { RangesDocument } from '../../../src/pixel/agents/verify.ts'

const published = {
  creationTime: '2026-09-30T14:46:11.000000',
  prefixes: [{ ipv6Prefix: '2001:4860:4801:10::/64' }, { ipv4Prefix: '66.249.64.0/27' }, { ipv4Prefix: '66.249.64.0/27' }, { ipv4Prefix: 'junk' }],
}

function fakeFetch(routes: Record<string, unknown>): typeof fetch {
  return (async (url: string | URL | Request) => {
    const body = routes[String(url)]
    if (body === undefined) return new Response('not found', { status: 404 })
    if (body instanceof Error) throw body
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status: 200 })
  }) as typeof fetch
}

describe('parseRangeDocument', () => {
  it('keeps valid, distinct prefixes and counts the rest', () => {
    expect(parseRangeDocument(published)).toEqual({
      prefixes: ['2001:4860:4801:10::/64', '66.249.64.0/27'],
      creationTime: '2026-09-30T14:46:11.000000',
      rejected: 1,
    })
  })
  it.each([null, {}, { prefixes: [] }, { prefixes: [{ ipv4Prefix: 'x' }] }, { prefixes: 'no' }])('refuses %j', (body) => {
    expect(() => parseRangeDocument(body)).toThrow()
  })
})

describe('refreshRanges', () => {
  const doc = shipped as RangesDocument
  const googlebotUrl = doc.lists.googlebot!.source
  const bingUrl = doc.lists.bingbot!.source

  it('installs what arrived, marks it complete and keeps the rest untouched', async () => {
    const now = () => new Date('2026-10-01T00:00:00Z')
    const { doc: next, results } = await refreshRanges(doc, {
      fetch: fakeFetch({ [googlebotUrl]: published, [bingUrl]: new Error('network down') }),
      now,
      only: ['googlebot', 'bingbot', 'ccbot'],
    })
    expect(next.lists.googlebot).toMatchObject({
      complete: true,
      fetched_at: '2026-10-01T00:00:00.000Z',
      prefixes: ['2001:4860:4801:10::/64', '66.249.64.0/27'],
    })
    expect(next.lists.bingbot).toEqual(doc.lists.bingbot)
    expect(next.lists.ccbot).toEqual(doc.lists.ccbot)
    expect(next.lists.gptbot).toEqual(doc.lists.gptbot)
    expect(results.map((r) => [r.key, r.ok])).toEqual([
      ['googlebot', true],
      ['bingbot', false],
      ['ccbot', false],
    ])
    expect(doc.lists.googlebot!.complete).toBe(false) // input not mutated
  })
  it('a malformed body keeps the previous list', async () => {
    const { doc: next, results } = await refreshRanges(doc, { fetch: fakeFetch({ [googlebotUrl]: '<html>' }), only: ['googlebot'] })
    expect(next.lists.googlebot).toEqual(doc.lists.googlebot)
    expect(results[0]!.ok).toBe(false)
  })
})
