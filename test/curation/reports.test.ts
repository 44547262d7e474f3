import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { SegmentReport } from '../../src/curation/reports/schemas.ts'
import { seedSegment } from '../activation/seed.ts'
import { json } from '../helpers/app.ts'
import { ManualClock } from '../helpers/clock.ts'
import { describeEachEngine } from '../helpers/db.ts'
import { waitFor } from '../helpers/wait.ts'
import type { AttributionApp } from '../pixel/attribution-app.ts'
import { startAttributionApp } from '../pixel/attribution-app.ts'
import { send } from '../pixel/helpers.ts'
import { UA } from '../pixel/log-lines.ts'

type Headers = Record<string, string>

// The fixture, hand-counted (prices are CPMs: 2.00 adds 0.002 of spend):
//   deal X (segment S1)        2026-11-20  alpha.com  4 humans, price 2.00 USD; 2 human clicks + 1 GPTBot click
//                              2026-11-20  beta.org   2 humans + 1 GPTBot, price 3.00 USD
//                              2026-11-22  alpha.com  3 humans, price 2.00 USD   (after the range)
//   deal Y (segments S1, S2)   2026-11-21  alpha.com  2 humans, price 1.50, no currency
//                              2026-11-21  gamma.co.uk (page URL) 1 human, encrypted price (unpriced)
//                              2026-11-21  beta.org   1 human, price 4 EUR; 1 human click
// Not counted: an unexpanded deal macro, another client's Deal ID, an unknown campaign, a junk parameter.
describeEachEngine('segment performance reports', (getDb) => {
  const clock = new ManualClock('2026-11-20T09:00:00Z')
  let t: AttributionApp
  let a: { clientId: number; headers: Headers }
  let b: { clientId: number; headers: Headers }
  let s1: number
  let s2: number
  let s3: number
  let bSegment: number
  let dealX: string
  let dealY: string

  const create = (body: object, headers = a.headers, extra: Headers = {}) => t.post(headers, '/v1/curation/reports', body, extra)
  const get = async (id: number, headers = a.headers) => JSON.parse((await t.get(headers, `/v1/curation/reports/${id}`)).body) as SegmentReport
  const run = async (body: object, headers = a.headers): Promise<SegmentReport> => {
    const res = await create(body, headers)
    expect(res.statusCode, res.body).toBe(201)
    const created = JSON.parse(res.body) as SegmentReport
    expect(created).toMatchObject({ status: 'pending', summary: null, domains: null, data: null, processed_date: null })
    await waitFor(async () => (await get(created.id, headers)).status === 'complete', 15_000, `report ${created.id}`)
    return get(created.id, headers)
  }

  beforeAll(async () => {
    t = await startAttributionApp(getDb().db, clock)
    a = await t.client()
    b = await t.client()
    s1 = await seedSegment(getDb().db, a.clientId)
    s2 = await seedSegment(getDb().db, a.clientId)
    s3 = await seedSegment(getDb().db, a.clientId) // never activated
    bSegment = await seedSegment(getDb().db, b.clientId)
    dealX = (await t.activate(a.headers, [s1])).deal_id!
    dealY = (await t.activate(a.headers, [s1, s2])).deal_id!
    const dealB = (await t.activate(b.headers, [bSegment])).deal_id!
    const campaign = await t.campaign(a.headers)
    const bCampaign = await t.campaign(b.headers)

    let sent = 0
    const hit = async (n: number, query: string, ua = UA.chrome, id: number = campaign) => {
      for (let i = 0; i < n; i++) {
        expect((await t.hit(id, query, ua)).status).toBe(200)
        sent++
      }
    }
    const x = encodeURIComponent(dealX)
    const y = encodeURIComponent(dealY)
    clock.set(new Date('2026-11-20T12:00:00Z'))
    await hit(4, `deal=${x}&price=2.00&cur=USD&d=www.alpha.com`)
    await hit(2, `deal=${x}&price=3.00&cur=usd&d=beta.org`)
    await hit(1, `deal=${x}&price=3.00&cur=USD&d=beta.org`, UA.gptbot)
    await hit(2, `deal=${encodeURIComponent('%%TTD_DEALID%%')}&price=2.00&cur=USD&d=www.alpha.com`)
    await hit(1, `deal=${encodeURIComponent(dealB)}&price=2.00&cur=USD&d=www.alpha.com`)
    await hit(1, `deal=${x}&price=2.00&cur=USD&d=www.alpha.com`, UA.chrome, 987_654)
    await hit(1, `deal=${x}&price=2.00&cur=USD&d=bad%20domain`)
    await hit(1, `deal=${encodeURIComponent(dealB)}&price=5&cur=USD&d=www.alpha.com`, UA.chrome, bCampaign) // b's own
    const signed = JSON.parse((await t.post(a.headers, `/v1/pixel/campaigns/${campaign}/click-url`, { destination_url: 'https://shop.example/' })).body) as {
      click_url: string
    }
    const click = (deal: string, d: string, ua = UA.chrome) =>
      send(`${t.url}${signed.click_url.slice(signed.click_url.indexOf('/click/'))}&deal=${encodeURIComponent(deal)}&d=${d}`, { headers: { 'user-agent': ua } })
    await click(dealX, 'www.alpha.com')
    await click(dealX, 'www.alpha.com')
    await click(dealX, 'www.alpha.com', UA.gptbot)

    clock.set(new Date('2026-11-21T12:00:00Z'))
    await hit(2, `deal=${y}&price=1.50&d=www.alpha.com`)
    await hit(1, `deal=${y}&price=AbCdEfGhIjKlMnOpQrStUv&u=${encodeURIComponent('https://shop.gamma.co.uk/p/1')}`)
    await hit(1, `deal=${y}&price=4&cur=EUR&d=beta.org`)
    await click(dealY, 'beta.org')

    clock.set(new Date('2026-11-22T12:00:00Z'))
    await hit(3, `deal=${x}&price=2.00&cur=USD&d=www.alpha.com`)
    await t.written(sent)
    await waitFor(async () => {
      const { rows } = await getDb().db.query<{ n: number }>('SELECT coalesce(sum(clicks + non_human_clicks), 0)::int AS n FROM deal_delivery_daily')
      return rows[0]!.n === 4
    })
    clock.set(new Date('2026-11-24T10:00:00Z'))
  })
  afterAll(() => t.close())

  const range = { start_date: '2026-11-20', end_date: '2026-11-21' }
  const m = (impressions: number, nonHuman: number, clicks: number, nonHumanClicks: number, priced: number, spend: number) => ({
    impressions,
    non_human_impressions: nonHuman,
    clicks,
    non_human_clicks: nonHumanClicks,
    ctr: impressions ? Math.round((clicks / impressions) * 1e6) / 1e6 : 0,
    priced_impressions: priced,
    spend,
    ecpm: priced ? Math.round((spend / priced) * 1000 * 1e6) / 1e6 : 0,
  })

  it('sums impressions, clicks, CTR, spend and eCPM over the deals of the segments', async () => {
    const r = await run({ segment_ids: [s1], ...range })
    expect(r.status).toBe('complete')
    expect(r.processed_date).toBe('2026-11-24T10:00:00.000Z')
    expect(r.currency).toBe('USD')
    // 7 + 4 impressions; 3 counted clicks; priced in USD or without currency: 4 + 3 + 2.
    expect(r.summary).toEqual(m(11, 1, 3, 1, 9, 0.02))
    expect(r.summary).toMatchObject({ ctr: 0.272727, ecpm: 2.222222 })
    expect(r.warnings).toEqual([`1 impressions priced in EUR are not in spend or eCPM, which are in USD`])
    expect(r.domains).toEqual([
      { domain: 'alpha.com', ...m(6, 0, 2, 1, 6, 0.011) },
      { domain: 'beta.org', ...m(4, 1, 1, 0, 3, 0.009) },
      { domain: 'gamma.co.uk', ...m(1, 0, 0, 0, 0, 0) },
    ])
    expect(r.domains_truncated).toBe(false)
    expect(r.deals).toEqual([
      { deal_id: dealX, activation_id: expect.any(Number), dsp: 'the-trade-desk', segment_ids: [s1], ...m(7, 1, 2, 1, 7, 0.017) },
      { deal_id: dealY, activation_id: expect.any(Number), dsp: 'the-trade-desk', segment_ids: [s1], ...m(4, 0, 1, 0, 2, 0.003) },
    ])
    expect(r.data).toBeNull()
  })

  it('lists the client’s reports newest first, paged, and no one else’s (an addition to the spec)', async () => {
    const first = await run({ segment_ids: [s1], ...range })
    const second = await run({ segment_ids: [s1], ...range, dimensions: ['date'] })
    const list = async (query: string, h = a.headers) => t.get(h, `/v1/curation/reports${query}`)
    const all = json<{ id: number }[]>(await list(''))
    expect(all.slice(0, 2).map((r) => r.id)).toEqual([second.id, first.id])
    expect(all[0]).toEqual(second)
    expect(json<{ id: number }[]>(await list('?limit=1&offset=1')).map((r) => r.id)).toEqual([all[1]!.id])
    const other = await t.client()
    expect(json(await list('', other.headers))).toEqual([])
    for (const q of ['?limit=0', '?limit=101', '?offset=-1']) expect((await list(q)).statusCode, q).toBe(422)
    expect((await list('?limit=abc')).statusCode).toBe(400)
  })

  it('breaks down by date and domain', async () => {
    const r = await run({ segment_ids: [s1], ...range, dimensions: ['domain', 'date'] })
    expect(r.dimensions).toEqual(['domain', 'date'])
    expect(r.data).toEqual([
      { date: '2026-11-20', domain: 'alpha.com', ...m(4, 0, 2, 1, 4, 0.008) },
      { date: '2026-11-20', domain: 'beta.org', ...m(3, 1, 0, 0, 3, 0.009) },
      { date: '2026-11-21', domain: 'alpha.com', ...m(2, 0, 0, 0, 2, 0.003) },
      { date: '2026-11-21', domain: 'beta.org', ...m(1, 0, 1, 0, 0, 0) },
      { date: '2026-11-21', domain: 'gamma.co.uk', ...m(1, 0, 0, 0, 0, 0) },
    ])
    expect(r.data_truncated).toBe(false)
  })

  it('breaks down by segment and deal; an activation on two segments counts under each', async () => {
    const r = await run({ segment_ids: [s1, s2], ...range, dimensions: ['segment_id'] })
    expect(r.summary!.impressions).toBe(11)
    expect(r.data!.map((d) => [d.segment_id, d.impressions])).toEqual([
      [s1, 11],
      [s2, 4],
    ])
    const byDeal = await run({ segment_ids: [s2], ...range, dimensions: ['deal_id', 'date'] })
    expect(byDeal.data!.map((d) => [d.date, d.deal_id, d.impressions])).toEqual([['2026-11-21', dealY, 4]])
    // Deal Y alone: the only named currency is EUR, and the price sent without one is taken to be in it.
    expect(byDeal.currency).toBe('EUR')
    expect(byDeal.summary).toEqual(m(4, 0, 1, 0, 2 + 1, 0.007))
  })

  it('honours the inclusive range', async () => {
    expect((await run({ segment_ids: [s1], start_date: '2026-11-22', end_date: '2026-11-22' })).summary).toEqual(m(3, 0, 0, 0, 3, 0.006))
    expect((await run({ segment_ids: [s1], start_date: '2026-11-20', end_date: '2026-11-22' })).summary!.impressions).toBe(14)
  })

  it('reports zeros with a warning for a segment without deals', async () => {
    const r = await run({ segment_ids: [s3], ...range, dimensions: ['date'] })
    expect(r.summary).toEqual(m(0, 0, 0, 0, 0, 0))
    expect(r.currency).toBeNull()
    expect(r.deals).toEqual([])
    expect(r.domains).toEqual([])
    expect(r.data).toEqual([])
    expect(r.warnings[0]).toMatch(/no.*activation with a Deal ID/i)
  })

  it('counts another client’s own impressions for them only', async () => {
    const r = await run({ segment_ids: [bSegment], ...range }, b.headers)
    expect(r.summary!.impressions).toBe(1)
    expect(r.summary!.spend).toBe(0.005)
  })

  it('returns the same report to a retried POST with the same Idempotency-Key', async () => {
    const first = await create({ segment_ids: [s1], ...range }, a.headers, { 'idempotency-key': 'report-1' })
    const again = await create({ segment_ids: [s1], ...range }, a.headers, { 'idempotency-key': 'report-1' })
    expect(first.statusCode).toBe(201)
    expect(again.statusCode).toBe(201)
    expect(JSON.parse(again.body).id).toBe(JSON.parse(first.body).id)
    const changed = await create({ segment_ids: [s2], ...range }, a.headers, { 'idempotency-key': 'report-1' })
    expect(changed.statusCode).toBe(409)
  })

  describe('validation', () => {
    it('404s another client’s segment or report exactly like a missing one', async () => {
      const theirs = await create({ segment_ids: [s1], ...range }, b.headers)
      const missing = await create({ segment_ids: [987_654], ...range }, b.headers)
      expect(theirs.statusCode).toBe(404)
      expect(JSON.parse(theirs.body)).toEqual({ error: 'not_found', message: `segment ${s1} not found` })
      expect(JSON.parse(missing.body)).toEqual({ error: 'not_found', message: 'segment 987654 not found' })
      const mixed = await create({ segment_ids: [bSegment, s1], ...range }, b.headers)
      expect(mixed.statusCode).toBe(404)
      const mine = JSON.parse((await create({ segment_ids: [s1], ...range })).body) as SegmentReport
      const peek = await t.get(b.headers, `/v1/curation/reports/${mine.id}`)
      const none = await t.get(b.headers, '/v1/curation/reports/987654')
      expect(peek.statusCode).toBe(404)
      expect(peek.body).toBe(none.body)
      expect(JSON.parse(peek.body)).toEqual({ error: 'not_found', message: 'report not found' })
    })

    const cases: [string, Record<string, unknown>, number, string][] = [
      ['start after end', { start_date: '2026-11-23', end_date: '2026-11-22' }, 422, 'body.end_date'],
      ['a date that does not exist', { start_date: '2026-02-30' }, 422, 'body.start_date'],
      ['not a date', { end_date: 'yesterday' }, 422, 'body.end_date'],
      ['a timestamp instead of a date', { start_date: '2026-11-20T00:00:00Z' }, 422, 'body.start_date'],
      ['an unknown dimension', { dimensions: ['agent'] }, 422, 'body.dimensions.0'],
      ['a dimension twice', { dimensions: ['date', 'date'] }, 422, 'body.dimensions'],
      ['no segments', { segment_ids: [] }, 422, 'body.segment_ids'],
      ['a segment twice', { segment_ids: [1, 1] }, 422, 'body.segment_ids'],
      ['a segment id of zero', { segment_ids: [0] }, 422, 'body.segment_ids.0'],
      ['more than 100 segments', { segment_ids: Array.from({ length: 101 }, (_, i) => i + 1) }, 422, 'body.segment_ids'],
      ['missing segment_ids', { segment_ids: undefined }, 400, 'body.segment_ids'],
      ['missing start_date', { start_date: undefined }, 400, 'body.start_date'],
      ['missing end_date', { end_date: undefined }, 400, 'body.end_date'],
      ['segment_ids not an array', { segment_ids: 5 }, 400, 'body.segment_ids'],
      ['a segment id as a string', { segment_ids: ['5'] }, 400, 'body.segment_ids.0'],
      ['dimensions not an array', { dimensions: 'date' }, 400, 'body.dimensions'],
      ['a dimension of the wrong type', { dimensions: [1] }, 400, 'body.dimensions.0'],
    ]
    for (const [name, change, status, path] of cases) {
      it(`${name} → ${status}`, async () => {
        const payload: Record<string, unknown> = { segment_ids: [s1], ...range, ...change }
        for (const k of Object.keys(payload)) if (payload[k] === undefined) delete payload[k]
        const res = await create(payload)
        expect(res.statusCode, res.body).toBe(status)
        const body = JSON.parse(res.body) as { error: string; details: { path: string }[] }
        expect(body.error).toBe(status === 400 ? 'invalid_request' : 'validation_failed')
        expect(body.details[0]!.path).toBe(path)
      })
    }

    it('a body that is not JSON → 400', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/curation/reports',
        headers: { ...a.headers, 'content-type': 'application/json' },
        payload: '{',
      })
      expect(res.statusCode).toBe(400)
      expect(JSON.parse(res.body).error).toBe('invalid_json')
    })
  })
})
