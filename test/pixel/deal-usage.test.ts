import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { runLifecycle } from '../../src/activation/lifecycle.ts'
import { cpmPrice, currencyOf, realDealId } from '../../src/pixel/rollups.ts'
import { seedSegment } from '../activation/seed.ts'
import { ManualClock } from '../helpers/clock.ts'
import { describeEachEngine } from '../helpers/db.ts'
import type { Act, AttributionApp } from './attribution-app.ts'
import { startAttributionApp } from './attribution-app.ts'
import { UA } from './log-lines.ts'

const day = 24 * 3_600_000

describe('deal, price and currency macros', () => {
  it('takes a Deal ID only when it is one', () => {
    expect(realDealId('Cx7Q2-abc')).toBe('Cx7Q2-abc')
    expect(realDealId('x'.repeat(64))).toBe('x'.repeat(64))
    for (const v of [undefined, '', 'AUDIT', '%%TTD_DEALID%%', '$' + '{DEAL_ID}', '{deal_id}', '[DEAL]', 'x'.repeat(65), 'a b', 'a\u0000b', 'déal']) {
      expect(realDealId(v), String(v)).toBeNull()
    }
  })
  it('reads a price as a CPM, and leaves what it cannot read unpriced', () => {
    expect(cpmPrice('2.50')).toBe(2.5)
    expect(cpmPrice('0')).toBe(0)
    expect(cpmPrice('99999999.5')).toBe(99_999_999.5)
    for (const v of [undefined, '', '100000000', 'AUDIT', '$' + '{AUCTION_PRICE}', 'AbCdEfGhIjKlMnOpQrStUv', '-1', '1e3', '2,50']) {
      expect(cpmPrice(v), String(v)).toBeNull()
    }
  })
  it('keeps a three-letter currency, upper-cased', () => {
    expect(currencyOf('usd')).toBe('USD')
    for (const v of [undefined, '', 'US', 'USDX', '$' + '{AUCTION_CURRENCY}', '978']) expect(currencyOf(v), String(v)).toBe('')
  })
})

/** Pixel hits carrying a Deal ID keep the deal live, and feed the per-domain tables (docs/reports.md). */
describeEachEngine('deal usage and domain stats from the pixel', (getDb) => {
  const clock = new ManualClock('2026-11-22T10:00:00Z')
  let t: AttributionApp
  let headers: Record<string, string>
  let campaign: number
  let used: Act
  let unused: Act
  let sent = 0
  const hit = async (query: string, ua?: string, id: number | string = campaign) => {
    const res = await t.hit(id, query, ua)
    expect(res.status).toBe(200)
    sent++
  }
  const usage = async (deal: string) =>
    (await getDb().db.query<{ day: string; impressions: number }>('SELECT day, impressions FROM deal_usage WHERE deal_id = $1 ORDER BY day', [deal])).rows

  beforeAll(async () => {
    t = await startAttributionApp(getDb().db, clock)
    const c = await t.client()
    headers = c.headers
    campaign = await t.campaign(headers)
    const seg = await seedSegment(getDb().db, c.clientId)
    used = await t.activate(headers, [seg])
    unused = await t.activate(headers, [seg])
  })
  afterAll(() => t.close())

  it('keeps a deal with daily pixel impressions live for 20 days; the unused one is shut down', async () => {
    expect(used.deal_state).toBe('live')
    for (let d = 1; d <= 20; d++) {
      clock.advance(day)
      await hit(`deal=${encodeURIComponent(used.deal_id!)}&price=2.5&cur=USD&d=www.news.example`)
      await t.written(sent)
      await runLifecycle(t.ctx)
    }
    expect((await usage(used.deal_id!)).length).toBe(20)
    expect(await usage(unused.deal_id!)).toEqual([])
    const u = await t.activation(headers, used.id)
    const n = await t.activation(headers, unused.id)
    expect(u.deal_state).toBe('live')
    expect(u.deal_last_used_date).not.toBeNull()
    expect(n.deal_state).toBe('shut_down')
    expect(n.deal_state_reason).toMatch(/unused for more than 14 days/)
  })

  it('counts only real deal ids of the campaign client’s activations, on valid loads', async () => {
    const other = await t.client()
    const theirCampaign = await t.campaign(other.headers)
    const before = await usage(used.deal_id!)
    const today = clock.now().toISOString().slice(0, 10)
    const deal = encodeURIComponent(used.deal_id!)
    for (const macro of ['%%TTD_DEALID%%', '$' + '{DEAL_ID}']) await hit(`deal=${encodeURIComponent(macro)}&d=www.news.example`) // left unexpanded
    await hit('deal=AUDIT&d=www.news.example')
    await hit('deal=not-a-deal-of-ours&d=www.news.example')
    await hit(`deal=${deal}&d=not%20a%20host`) // bad parameter: the load is invalid
    await hit(`deal=${deal}&d=www.news.example`, UA.chrome, 987_654) // unknown campaign
    await hit(`deal=${deal}&d=www.news.example`, UA.chrome, theirCampaign) // another client's campaign
    await hit(`deal=${deal}&d=www.news.example`, UA.gptbot) // counts: an impression, non-human
    await t.written(sent)
    const after = await usage(used.deal_id!)
    expect(after.find((r) => r.day === today)!.impressions).toBe(before.find((r) => r.day === today)!.impressions + 1)
    const { rows } = await getDb().db.query<{ deal_id: string }>(
      'SELECT DISTINCT deal_id FROM deal_usage UNION SELECT DISTINCT deal_id FROM deal_delivery_daily',
    )
    expect(rows.map((r) => r.deal_id)).toEqual([used.deal_id])
  })

  it('fills domain_delivery_stats with impressions and domain_traffic_stats with loads per registrable domain', async () => {
    const { rows: delivery } = await getDb().db.query('SELECT domain, impressions, clicks, measured_impressions, video_starts FROM domain_delivery_stats')
    // 20 daily impressions + the GPTBot one, all on www.news.example -> news.example.
    expect(delivery).toEqual([{ domain: 'news.example', impressions: 21, clicks: 0, measured_impressions: 0, video_starts: 0 }])
    const { rows: traffic } = await getDb().db.query('SELECT domain, loads, non_human_loads FROM domain_traffic_stats')
    // Every valid load counts, deal or not: 20 + the 4 junk-deal loads + the other client's + GPTBot.
    expect(traffic).toEqual([{ domain: 'news.example', loads: 26, non_human_loads: 1 }])
  })

  it('keeps deal_usage and the delivery rollup in step', async () => {
    const { rows } = await getDb().db.query<{ usage: number; delivered: number; non_human: number; spend: number }>(
      `SELECT (SELECT sum(impressions) FROM deal_usage)::int AS usage,
              (SELECT sum(impressions) FROM deal_delivery_daily)::int AS delivered,
              (SELECT sum(non_human_impressions) FROM deal_delivery_daily)::int AS non_human,
              (SELECT sum(spend_micros) FROM deal_delivery_daily)::int AS spend`,
    )
    // 20 priced hits at a CPM of 2.5: 2,500 micros each; the GPTBot hit carried no price.
    expect(rows[0]).toEqual({ usage: 21, delivered: 21, non_human: 1, spend: 50_000 })
  })
})
