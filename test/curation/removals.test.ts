import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { json } from '../helpers/app.ts'
import { describeEachEngine } from '../helpers/db.ts'
import { indexTopic } from './fixtures.ts'
import type { CurationTestApp, SegmentRecord } from './helpers.ts'
import { createCurationApp } from './helpers.ts'

const del = (t: CurationTestApp, headers: Record<string, string>, query: string) =>
  t.app.inject({ method: 'DELETE', url: `/v1/curation/url-classifications/by-tld?${query}`, headers })

describeEachEngine('removing a domain from an audience', (getDb) => {
  let t: CurationTestApp
  let a: { headers: Record<string, string>; clientId: number }
  let b: { headers: Record<string, string>; clientId: number }
  let sportsA: SegmentRecord
  let cookingA: SegmentRecord
  let sportsB: SegmentRecord
  const urlsOf = async (h: Record<string, string>, s: SegmentRecord) => (await t.urls(h, s.id)).map((u) => u.url)

  beforeAll(async () => {
    t = await createCurationApp(getDb().db)
    a = await t.client()
    b = await t.client()
    const db = getDb().db
    await indexTopic(
      db,
      'sports',
      ['https://www.fanzone.example/1', 'https://live.fanzone.example/2', 'https://www.stadium.example/1', 'https://www.stadium.example/2'],
      700,
    )
    await indexTopic(db, 'cooking', ['https://www.fanzone.example/recipes/1', 'https://www.bakery.example/1', 'https://www.bakery.example/2'], 710)
    sportsA = await t.build(a.headers, { prompt: 'sports fans following games, results and transfer news' })
    cookingA = await t.build(a.headers, { prompt: 'home cooking recipes, baking and dinner ideas', taxonomy_id: 210 })
    sportsB = await t.build(b.headers, { prompt: 'sports fans following games, results and transfer news' })
    expect(sportsA.taxonomy_id).toBe(483)
  })
  afterAll(() => t.close())

  it("removes the domain's URLs (all its hosts) from the client's segments of that audience, and nothing else", async () => {
    const before = await urlsOf(a.headers, sportsA)
    expect(before).toEqual(expect.arrayContaining(['https://www.fanzone.example/1', 'https://live.fanzone.example/2']))
    const reach = {
      deleted_count: 2,
      tld: 'fanzone.example',
      result_taxonomy_leaf_id: 483,
      segments: [{ segment_id: sportsA.id, name: null, via: 'segment_taxonomy', deleted_count: 2 }],
    }
    // A dry run says what the removal reaches and changes nothing.
    const dry = await del(t, a.headers, 'tld=WWW.FanZone.example&result_taxonomy_leaf_id=483&dry_run=true')
    expect(dry.statusCode).toBe(200)
    expect(json(dry)).toEqual({ ...reach, dry_run: true })
    expect(await urlsOf(a.headers, sportsA)).toEqual(before)
    const res = await del(t, a.headers, 'tld=WWW.FanZone.example&result_taxonomy_leaf_id=483')
    expect(res.statusCode).toBe(200)
    expect(json(res)).toEqual({ ...reach, dry_run: false })
    const after = await urlsOf(a.headers, sportsA)
    expect(after.filter((u) => u.includes('fanzone'))).toEqual([])
    expect(after).toEqual(expect.arrayContaining(['https://www.stadium.example/1', 'https://www.stadium.example/2']))
    expect(json<SegmentRecord>(await t.get(a.headers, `/v1/curation/segment-requests/${sportsA.id}`)).url_count).toBe(after.length)
    // The cooking segment keeps fanzone's recipe page; the other client keeps everything.
    expect(await urlsOf(a.headers, cookingA)).toContain('https://www.fanzone.example/recipes/1')
    expect(await urlsOf(b.headers, sportsB)).toEqual(expect.arrayContaining(['https://www.fanzone.example/1', 'https://live.fanzone.example/2']))
    const exclusions = await t.exclusions(a.headers, sportsA.id)
    expect(
      exclusions
        .filter((e) => e.reason === 'removed_by_tld')
        .map((e) => e.url)
        .sort(),
    ).toEqual(['https://live.fanzone.example/2', 'https://www.fanzone.example/1'])
    const { rows } = await getDb().db.query<{ kind: string }>('SELECT kind FROM segment_changes WHERE segment_id = $1 ORDER BY id', [sportsA.id])
    expect(rows.map((r) => r.kind)).toEqual(['build', 'tld_removal'])
  })

  it('matches URLs classified under the leaf in any segment (the page’s own category)', async () => {
    const cooking = await t.urls(a.headers, cookingA.id)
    const bakery = cooking.filter((u) => u.tld === 'bakery.example')
    expect(bakery.length).toBe(2)
    const leaf = bakery[0]!.taxonomy_id!
    expect(leaf).not.toBe(cookingA.taxonomy_id)
    const res = await del(t, a.headers, `tld=bakery.example&result_taxonomy_leaf_id=${leaf}`)
    const n = bakery.filter((u) => u.taxonomy_id === leaf).length
    expect(json(res)).toMatchObject({ deleted_count: n, segments: [{ segment_id: cookingA.id, via: 'url_classification', deleted_count: n }] })
  })

  it('is remembered: a rebuild keeps the domain out', async () => {
    await t.rebuild(a.clientId, sportsA.id)
    const urls = await urlsOf(a.headers, sportsA)
    expect(urls.filter((u) => u.includes('fanzone'))).toEqual([])
    expect(urls).toContain('https://www.stadium.example/1')
    const again = await del(t, a.headers, 'tld=fanzone.example&result_taxonomy_leaf_id=483')
    expect(json(again)).toMatchObject({ deleted_count: 0, segments: [] })
  })

  describe('bad input', () => {
    const cases: [string, string, number][] = [
      ['no parameters', '', 400],
      ['no leaf id', 'tld=fanzone.example', 400],
      ['no tld', 'result_taxonomy_leaf_id=483', 400],
      ['a non-integer leaf id', 'tld=fanzone.example&result_taxonomy_leaf_id=abc', 400],
      ['a fractional leaf id', 'tld=fanzone.example&result_taxonomy_leaf_id=1.5', 400],
      ['leaf id zero', 'tld=fanzone.example&result_taxonomy_leaf_id=0', 422],
      ['an unknown leaf id', 'tld=fanzone.example&result_taxonomy_leaf_id=999999', 422],
      ['a malformed tld', 'tld=not%20a%20domain&result_taxonomy_leaf_id=483', 422],
      ['an empty tld', 'tld=&result_taxonomy_leaf_id=483', 400],
      ['a blank tld', 'tld=%20%20&result_taxonomy_leaf_id=483', 400],
      ['an empty leaf id', 'tld=fanzone.example&result_taxonomy_leaf_id=', 400],
      ['both empty', 'tld=&result_taxonomy_leaf_id=', 400],
      ['a dry_run that is not a boolean', 'tld=fanzone.example&result_taxonomy_leaf_id=483&dry_run=maybe', 400],
    ]
    for (const [name, query, status] of cases) {
      it(`${name} → ${status}`, async () => {
        const res = await del(t, a.headers, query)
        expect(res.statusCode, res.body).toBe(status)
        expect(json(res).error).toBe(status === 400 ? 'invalid_request' : 'validation_failed')
      })
    }
    it('needs an API key', async () => {
      expect((await del(t, {}, 'tld=fanzone.example&result_taxonomy_leaf_id=483')).statusCode).toBe(401)
    })
  })
})
