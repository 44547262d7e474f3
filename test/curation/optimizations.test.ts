import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { json } from '../helpers/app.ts'
import { describeEachEngine } from '../helpers/db.ts'
import { waitFor } from '../helpers/wait.ts'
import type { WebServer } from '../scraping/fixtures/web-server.ts'
import { html, startRoutes } from '../scraping/fixtures/web-server.ts'
import { articleHtml, indexHtml, indexTopic, topicPage, topicParagraphs } from './fixtures.ts'
import type { CurationTestApp, SegmentRecord } from './helpers.ts'
import { createCurationApp } from './helpers.ts'

const path = '/v1/curation/optimizations'

interface OptimizationRecord {
  id: number
  segment_id: number
  status: string
  expand: unknown
  block: unknown
  estimated_propagation_hours: number
  created_date: string
  applied_date: string | null
  result: { expand_seeds_indexed?: number; expand_seeds_unusable?: { url: string; errors: string[] }[] } | null
}

describeEachEngine('optimizations', (getDb) => {
  let t: CurationTestApp
  let web: WebServer
  let a: { headers: Record<string, string>; clientId: number }
  let b: { headers: Record<string, string>; clientId: number }
  let seg: SegmentRecord
  let pendingId: number

  const applied = async (headers: Record<string, string>, id: number): Promise<OptimizationRecord> => {
    let rec: OptimizationRecord | null = null
    await waitFor(
      async () => {
        rec = json<OptimizationRecord>(await t.get(headers, `${path}/${id}`))
        return rec.applied_date !== null
      },
      30_000,
      `optimization ${id}`,
    )
    return rec!
  }
  const urlsOf = async (id: number) => (await t.urls(a.headers, id)).map((u) => u.url)

  beforeAll(async () => {
    t = await createCurationApp(getDb().db)
    a = await t.client()
    b = await t.client()
    web = await startRoutes({ '/new-recipe': html(topicPage('cooking', 901)) })
    const db = getDb().db
    await indexTopic(
      db,
      'sports',
      ['https://www.arena.example/1', 'https://www.arena.example/2', 'https://www.goal.example/1', 'https://sub.goal.example/2', 'https://www.pitch.example/1'],
      800,
    )
    await indexHtml(
      db,
      'https://www.oddsboard.example/1',
      articleHtml({ title: 'Match preview', paragraphs: [...topicParagraphs('sports', 810), 'Our betting tips: the odds favour the home side.'] }),
    )
    await indexTopic(db, 'cooking', ['https://www.pantry.example/1', 'https://www.pantry.example/2', 'https://www.oven.example/1'], 820)
    // A domain given to expand stands for its home page: here one the index already holds.
    await indexHtml(db, 'https://www.homecooks.example/', topicPage('cooking', 830))
    seg = await t.build(a.headers, { prompt: 'sports fans following games, results and transfer news' })
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO segment_requests (client_id, prompt, status, created_date) VALUES ($1, 'still building', 'processing', now()) RETURNING id`,
      [a.clientId],
    )
    pendingId = rows[0]!.id
  })
  afterAll(async () => {
    await t.close()
    await web.close()
  })

  it('blocks URLs, domains (with subdomains) and keywords: 201 accepted, applied by a job', async () => {
    expect(await urlsOf(seg.id)).toEqual(
      expect.arrayContaining(['https://www.arena.example/1', 'https://sub.goal.example/2', 'https://www.oddsboard.example/1']),
    )
    const res = await t.post(a.headers, path, {
      segment_id: seg.id,
      block: { urls: ['https://www.arena.example/1'], domains: ['goal.example'], keywords: ['Betting Tips'] },
    })
    expect(res.statusCode).toBe(201)
    const created = json<OptimizationRecord>(res)
    expect(created).toMatchObject({
      segment_id: seg.id,
      status: 'accepted',
      expand: null,
      block: { urls: ['https://www.arena.example/1'], domains: ['goal.example'], keywords: ['Betting Tips'] },
      estimated_propagation_hours: 3,
      created_date: '2026-11-22T10:00:00.000Z',
      applied_date: null,
    })
    const done = await applied(a.headers, created.id)
    expect(done.status).toBe('accepted')
    const after = await urlsOf(seg.id)
    for (const gone of ['https://www.arena.example/1', 'https://www.goal.example/1', 'https://sub.goal.example/2', 'https://www.oddsboard.example/1']) {
      expect(after, gone).not.toContain(gone)
    }
    expect(after).toEqual(expect.arrayContaining(['https://www.arena.example/2', 'https://www.pitch.example/1']))
    const reasons = Object.fromEntries((await t.exclusions(a.headers, seg.id)).map((e) => [e.url, e.reason]))
    expect(reasons).toMatchObject({
      'https://www.arena.example/1': 'blocked_url',
      'https://www.goal.example/1': 'blocked_domain',
      'https://sub.goal.example/2': 'blocked_domain',
      'https://www.oddsboard.example/1': 'blocked_keyword',
    })
    const listing = json<{ urls: { rank: number }[]; total: number }>(await t.get(a.headers, `/v1/curation/segment-requests/${seg.id}/urls`))
    expect(listing.urls.map((u) => u.rank)).toEqual(listing.urls.map((_u, i) => i + 1))
    expect(json<SegmentRecord>(await t.get(a.headers, `/v1/curation/segment-requests/${seg.id}`)).url_count).toBe(listing.total)
    // The hook for live deals: a change row in the transaction that changed the list.
    const { rows } = await getDb().db.query<{ kind: string; optimization_id: number | null }>(
      'SELECT kind, optimization_id FROM segment_changes WHERE segment_id = $1 ORDER BY id',
      [seg.id],
    )
    expect(rows.at(-1)).toEqual({ kind: 'optimization', optimization_id: created.id })
  })

  it('expands with seed URLs (scraped) and domains (their home page), adding similar index pages', async () => {
    const res = await t.post(a.headers, path, { segment_id: seg.id, expand: { urls: [web.url('/new-recipe')], domains: ['www.homecooks.example'] } })
    expect(res.statusCode).toBe(201)
    expect(json(res)).toMatchObject({ expand: { urls: [web.url('/new-recipe')], domains: ['www.homecooks.example'] }, block: null })
    await applied(a.headers, json<{ id: number }>(res).id)
    const urls = await t.urls(a.headers, seg.id)
    const expanded = urls.filter((u) => u.source === 'expand').map((u) => u.url)
    expect(expanded).toEqual(
      expect.arrayContaining([web.url('/new-recipe'), 'https://www.homecooks.example/', 'https://www.pantry.example/1', 'https://www.oven.example/1']),
    )
    expect(web.hits.some((h) => h.path === '/new-recipe')).toBe(true)
    expect(urls.map((u) => u.rank)).toEqual(urls.map((_u, i) => i + 1))
    // Blocks stay in force.
    expect(urls.map((u) => u.url)).not.toContain('https://www.arena.example/1')
  })

  it('expands a domain from the home page the index knows (http, www.), not only https://domain/', async () => {
    await indexHtml(getDb().db, 'http://www.kitchenlab.example/', topicPage('cooking', 850))
    const res = await t.post(a.headers, path, { segment_id: seg.id, expand: { domains: ['kitchenlab.example'] } })
    expect(res.statusCode).toBe(201)
    const rec = await applied(a.headers, json<{ id: number }>(res).id)
    expect(rec.result).toMatchObject({ expand_seeds_indexed: 1, expand_seeds_unusable: [] })
    expect((await t.urls(a.headers, seg.id)).map((u) => u.url)).toContain('http://www.kitchenlab.example/')
  })

  it('keeps blocks and expansions through a rebuild', async () => {
    await t.rebuild(a.clientId, seg.id)
    const urls = await urlsOf(seg.id)
    expect(urls).not.toContain('https://www.arena.example/1')
    expect(urls).not.toContain('https://sub.goal.example/2')
    expect(urls).toContain(web.url('/new-recipe'))
  })

  it("another client's optimization or segment is a 404", async () => {
    const mine = json<{ id: number }>(await t.post(a.headers, path, { segment_id: seg.id, block: { keywords: ['nothing-matches-this'] } }))
    const theirs = await t.get(b.headers, `${path}/${mine.id}`)
    expect(theirs.statusCode).toBe(404)
    expect(theirs.body).toBe((await t.get(b.headers, `${path}/99999999`)).body)
    const onTheirs = await t.post(b.headers, path, { segment_id: seg.id, block: { keywords: ['x'] } })
    expect(onTheirs.statusCode).toBe(404)
    expect(json(onTheirs)).toEqual({ error: 'not_found', message: 'segment request not found' })
    const list = json<OptimizationRecord[]>(await t.get(a.headers, `${path}?segment_id=${seg.id}`))
    expect(list.length).toBeGreaterThanOrEqual(3)
    expect(json<unknown[]>(await t.get(b.headers, path))).toEqual([])
    await applied(a.headers, mine.id)
  })

  describe('bad input', () => {
    const cases: [string, () => unknown, number, string, string?][] = [
      ['neither expand nor block', () => ({ segment_id: seg.id }), 400, 'invalid_request'],
      ['both null', () => ({ segment_id: seg.id, expand: null, block: null }), 400, 'invalid_request'],
      ['only empty lists', () => ({ segment_id: seg.id, expand: { urls: [] }, block: { keywords: [] } }), 400, 'invalid_request'],
      ['no segment_id', () => ({ block: { keywords: ['x'] } }), 400, 'invalid_request'],
      ['segment_id of the wrong type', () => ({ segment_id: 'one', block: { keywords: ['x'] } }), 400, 'invalid_request'],
      ['block not an object', () => ({ segment_id: seg.id, block: ['x'] }), 400, 'invalid_request'],
      ['an unknown segment', () => ({ segment_id: 987654, block: { keywords: ['x'] } }), 404, 'not_found'],
      ['a segment still building', () => ({ segment_id: pendingId, block: { keywords: ['x'] } }), 422, 'validation_failed', 'body.segment_id'],
      [
        'a malformed block URL',
        () => ({ segment_id: seg.id, block: { urls: ['https://ok.example/', 'nope'] } }),
        422,
        'validation_failed',
        'body.block.urls.1',
      ],
      ['a malformed expand domain', () => ({ segment_id: seg.id, expand: { domains: ['bad domain'] } }), 422, 'validation_failed', 'body.expand.domains.0'],
      ['a blank keyword', () => ({ segment_id: seg.id, block: { keywords: ['  '] } }), 422, 'validation_failed', 'body.block.keywords.0'],
      [
        'too many expand URLs',
        () => ({ segment_id: seg.id, expand: { urls: Array.from({ length: 101 }, (_, i) => `https://x.example/${i}`) } }),
        422,
        'validation_failed',
      ],
    ]
    for (const [name, payload, status, code, field] of cases) {
      it(`${name} → ${status} ${code}`, async () => {
        const res = await t.post(a.headers, path, payload())
        expect(res.statusCode, res.body).toBe(status)
        const body = json<{ error: string; details?: { path: string }[] }>(res)
        expect(body.error).toBe(code)
        if (field) expect(body.details?.map((d) => d.path)).toContain(field)
      })
    }
    it('rejects bad ids on GET', async () => {
      expect((await t.get(a.headers, `${path}/abc`)).statusCode).toBe(400)
      expect((await t.get(a.headers, `${path}/0`)).statusCode).toBe(422)
      expect((await t.get(a.headers, `${path}?segment_id=x`)).statusCode).toBe(400)
      expect((await t.get({}, `${path}/1`)).statusCode).toBe(401)
    })
  })

  it('replays a POST with the same Idempotency-Key: the same optimization, created once', async () => {
    const h = { ...a.headers, 'idempotency-key': 'opt-replay-1' }
    const body = { segment_id: seg.id, block: { keywords: ['idempotency-replay-marker'] } }
    const first = await t.post(h, path, body)
    const again = await t.post(h, path, body)
    expect(first.statusCode).toBe(201)
    expect(first.headers['idempotent-replayed']).toBeUndefined()
    expect(again.statusCode).toBe(201)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(json<OptimizationRecord>(again).id).toBe(json<OptimizationRecord>(first).id)
    const { rows } = await getDb().db.query(`SELECT id FROM optimizations WHERE segment_id = $1 AND block->'keywords' ? 'idempotency-replay-marker'`, [seg.id])
    expect(rows).toHaveLength(1)
    await applied(a.headers, json<OptimizationRecord>(first).id)
  })
})
