import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'

import { describe, expect, it } from 'vitest'
import { normalizeUrl } from '../../../src/content/urls/normalize-url.ts'
import type { FetchOutcome } from '../../../src/scraping/fetch/fetcher.ts'
import { analyzePage } from '../../../src/scraping/index/analyze-page.ts'
import { getPageByUrl, queuePages, savePage, savePages } from '../../../src/scraping/index/pages-repository.ts'
import { hammingDistance, simhash } from '../../../src/scraping/index/simhash.ts'
import { describeEachEngine } from '../../helpers/db.ts'

const page = (name: string) =>
  gunzipSync(readFileSync(new URL(`../../../fixtures/extraction/readability-test-pages/${name}/source.html.gz`, import.meta.url))).toString('utf8')

function outcome(html: string | null, extra: Partial<FetchOutcome> = {}): FetchOutcome {
  return {
    url: 'https://www.example.com/a',
    finalUrl: 'https://www.example.com/a',
    status: 200,
    contentType: 'text/html; charset=utf-8',
    html,
    encoding: 'utf8',
    headers: {},
    truncated: false,
    error: null,
    fetchedAt: '2026-11-22T10:00:00.000Z',
    elapsedMs: 12,
    ...extra,
  }
}

describe('normalizeUrl', () => {
  it.each([
    ['HTTP://WWW.Example.COM:80/Path?q=1#frag', 'http://www.example.com/Path?q=1', 'example.com'],
    ['https://news.bbc.co.uk:443/a', 'https://news.bbc.co.uk/a', 'bbc.co.uk'],
    ['https://bücher.de/x', 'https://xn--bcher-kva.de/x', 'xn--bcher-kva.de'],
    ['http://127.0.0.1:8080/x', 'http://127.0.0.1:8080/x', '127.0.0.1'],
  ])('%s → %s (tld %s)', (input, url, tld) => {
    expect(normalizeUrl(input)).toMatchObject({ url, tld })
  })
  it.each(['', 'not a url', 'ftp://example.com/', 'javascript:alert(1)', 'https://user:pw@example.com/', `https://example.com/${'a'.repeat(3000)}`])(
    'rejects %j',
    (input) => {
      expect(normalizeUrl(input)).toHaveProperty('error')
    },
  )
})

describe('simhash', () => {
  it('keeps near-duplicates close and different texts far apart', () => {
    const text = page('guardian-1')
      .replace(/<[^>]+>/g, ' ')
      .slice(0, 20000)
    const edited = text.replace(/the/g, 'The ').slice(0, 19500)
    const other = page('ehow-1').replace(/<[^>]+>/g, ' ')
    expect(hammingDistance(simhash(text)!, simhash(edited)!)).toBeLessThan(8)
    expect(hammingDistance(simhash(text)!, simhash(other)!)).toBeGreaterThan(15)
    expect(simhash('too short')).toBeNull()
  })
})

describe('analyzePage error codes', () => {
  it('gives a full article no error, with categories, language and a simhash', () => {
    const a = analyzePage(outcome(page('guardian-1')))
    expect(a.errors).toEqual([])
    expect(a.language).toBe('en')
    expect(a.word_count).toBeGreaterThan(500)
    expect(a.categories.length).toBeGreaterThan(0)
    expect(a.primary_category).toBeTypeOf('number')
    expect(a.simhash).toMatch(/^-?\d+$/)
  })
  it('E002 for a fetch failure, with metadata only when a response arrived', () => {
    expect(analyzePage(outcome(null, { status: null, error: { code: 'E002', reason: 'timeout' } }))).toMatchObject({ errors: ['E002'], metadata: null })
    const notFound = analyzePage(outcome(null, { status: 404, error: { code: 'E002', reason: 'HTTP 404' } }))
    expect(notFound.errors).toEqual(['E002'])
    expect(notFound.metadata).toMatchObject({ http_status: 404 })
  })
  it('E003 for a body that is not HTML text', () => {
    expect(analyzePage(outcome(null, { contentType: 'image/png' })).errors).toEqual(['E003'])
  })
  it('E004 and E007 for a thin page', () => {
    const a = analyzePage(outcome('<html><head><title>Hi</title></head><body><p>Hello there, short page.</p></body></html>'))
    expect(a.errors).toContain('E004')
    expect(a.errors).toContain('E007')
  })
  it('E008 when the body was cut at the cap', () => {
    expect(analyzePage(outcome(page('guardian-1'), { truncated: true })).errors).toContain('E008')
  })
})

describeEachEngine('pages repository', (getDb) => {
  it('queues URLs once and stores the analysis with category membership', async () => {
    const db = getDb().db
    const u = normalizeUrl('https://www.example.com/a') as Exclude<ReturnType<typeof normalizeUrl>, { error: string }>
    const ids = await queuePages(db, [u, u], new Date('2026-11-22T10:00:00Z'))
    expect(ids.size).toBe(1)
    const again = await queuePages(db, [u], new Date())
    expect(again.get(u.url)).toBe(ids.get(u.url))
    const queued = await getPageByUrl(db, u.url)
    expect(queued).toMatchObject({ state: 'queued', tld: 'example.com', host: 'www.example.com', errors: [] })

    const analyzed = analyzePage(outcome(page('guardian-1')))
    await savePage(db, ids.get(u.url)!, analyzed)
    const row = (await getPageByUrl(db, u.url))!
    expect(row.state).toBe('done')
    expect(row.title).toBe(analyzed.title)
    expect(row.simhash).toBe(analyzed.simhash) // 64 bits survive the round trip
    expect(row.categories).toEqual(JSON.parse(JSON.stringify(analyzed.categories)))
    const { rows } = await db.query<{ taxonomy_id: number }>('SELECT taxonomy_id FROM page_categories WHERE page_id = $1 ORDER BY score DESC', [row.id])
    expect(rows.map((r) => r.taxonomy_id)).toEqual(analyzed.categories.map((c) => c.id).slice(0, rows.length))
    const { rows: hits } = await db.query(`SELECT id FROM pages WHERE search @@ plainto_tsquery('simple', $1)`, [analyzed.title!.split(' ')[0]])
    expect(hits.length).toBe(1)
  })
})

describeEachEngine('savePage on a page saved before', (getDb) => {
  it('replaces the category membership: drops old categories, updates kept ones, adds new ones', async () => {
    const db = getDb().db
    const u = normalizeUrl('https://www.example.com/resaved') as Exclude<ReturnType<typeof normalizeUrl>, { error: string }>
    const id = (await queuePages(db, [u], new Date('2026-11-22T10:00:00Z'))).get(u.url)!
    const base = analyzePage(outcome(page('guardian-1')))
    const membership = async () =>
      (await db.query<{ taxonomy_id: number; score: number }>('SELECT taxonomy_id, score FROM page_categories WHERE page_id = $1 ORDER BY taxonomy_id', [id]))
        .rows
    await savePage(db, id, {
      ...base,
      categories: [
        { id: 1, score: 0.5 },
        { id: 2, score: 0.25 },
      ],
    })
    expect(await membership()).toEqual([
      { taxonomy_id: 1, score: 0.5 },
      { taxonomy_id: 2, score: 0.25 },
    ])
    await savePage(db, id, {
      ...base,
      categories: [
        { id: 2, score: 0.75 },
        { id: 3, score: 0.5 },
      ],
    })
    expect(await membership()).toEqual([
      { taxonomy_id: 2, score: 0.75 },
      { taxonomy_id: 3, score: 0.5 },
    ])
    await savePage(db, id, { ...base, errors: ['E002'], categories: [] })
    expect(await membership()).toEqual([])
    expect((await getPageByUrl(db, u.url))!.errors).toEqual(['E002'])
  })
})

describeEachEngine('savePages', (getDb) => {
  it('stores a batch in one statement, and text PostgreSQL cannot hold (NUL, half a surrogate pair) is cleaned', async () => {
    const db = getDb().db
    const urls = ['https://batch.example.com/1', 'https://batch.example.com/2'].map(
      (u) => normalizeUrl(u) as Exclude<ReturnType<typeof normalizeUrl>, { error: string }>,
    )
    const ids = await queuePages(db, urls, new Date('2026-11-22T10:00:00Z'))
    const base = analyzePage(outcome(page('guardian-1')))
    const odd = { ...base, title: 'NUL\u0000 and \uD83D half', full_text: `${base.full_text} \uDE00 end` }
    await savePages(db, [
      { id: ids.get(urls[0]!.url)!, page: base },
      { id: ids.get(urls[1]!.url)!, page: { ...base, errors: ['E002'] } },
      { id: ids.get(urls[1]!.url)!, page: odd }, // the last entry for a page wins
    ])
    const first = (await getPageByUrl(db, urls[0]!.url))!
    const second = (await getPageByUrl(db, urls[1]!.url))!
    expect(first).toMatchObject({ state: 'done', title: base.title, errors: [] })
    expect(second).toMatchObject({ state: 'done', title: 'NUL and \uFFFD half', errors: [] })
    expect(second.full_text!.endsWith(' \uFFFD end')).toBe(true)
  })
})
