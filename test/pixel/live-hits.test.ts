import { afterAll, beforeAll, expect, it } from 'vitest'
import { ManualClock } from '../helpers/clock.ts'
import { describeEachEngine } from '../helpers/db.ts'
import { waitFor } from '../helpers/wait.ts'
import type { PixelApp } from './helpers.ts'
import { send, startPixelApp } from './helpers.ts'
import { UA } from './log-lines.ts'

describeEachEngine('live pixel hits', (getDb) => {
  let p: PixelApp
  let headers: Record<string, string>
  let campaign: number
  const clock = new ManualClock('2026-11-22T10:00:00Z')
  const live = async (id: number, query = '', h = headers) => p.app.inject({ method: 'GET', url: `/v1/pixel/campaigns/${id}/hits${query}`, headers: h })

  beforeAll(async () => {
    p = await startPixelApp(getDb().db, { clock })
    headers = (await p.client()).headers
    campaign = await p.campaign(headers)
  })
  afterAll(() => p?.close())

  it('counts the hits of the last minutes by agent type, and forgets them once outside the window', async () => {
    const empty = await live(campaign)
    expect(empty.statusCode).toBe(200)
    expect(JSON.parse(empty.body)).toEqual({
      campaign_id: campaign,
      window_seconds: 300,
      since: '2026-11-22T09:55:00.000Z',
      hits: 0,
      capped: false,
      by_agent_type: {},
      last_hit_date: null,
    })
    for (const ua of [UA.chrome, UA.chrome, UA.chrome, UA.gptbot, UA.googlebot]) {
      await send(`${p.url}/px/${campaign}.gif`, { headers: { 'user-agent': ua, 'accept-language': 'en' } })
    }
    await waitFor(async () => JSON.parse((await live(campaign)).body).hits === 5, 10_000, 'the hits to be stored')
    const body = JSON.parse((await live(campaign)).body)
    expect(body).toMatchObject({ hits: 5, capped: false, by_agent_type: { human: 3, llm_training: 1, search: 1 }, last_hit_date: '2026-11-22T10:00:00.000Z' })

    clock.advance(6 * 60_000)
    expect(JSON.parse((await live(campaign)).body).hits).toBe(0)
    expect(JSON.parse((await live(campaign, '?window_seconds=3600')).body).hits).toBe(5)
  })

  it("answers 404 for another client's campaign, and refuses a bad window", async () => {
    const other = await p.client()
    expect((await live(campaign, '', other.headers)).statusCode).toBe(404)
    expect((await live(999_999)).statusCode).toBe(404)
    expect((await live(campaign, '?window_seconds=5')).statusCode).toBe(422)
    expect((await live(campaign, '?window_seconds=99999')).statusCode).toBe(422)
    expect((await live(campaign, '?window_seconds=abc')).statusCode).toBe(400)
    expect((await p.app.inject({ method: 'GET', url: `/v1/pixel/campaigns/${campaign}/hits` })).statusCode).toBe(401)
  })
})
