import { afterAll, beforeAll, expect, it } from 'vitest'
import { indexHtml, topicPage } from '../curation/fixtures.ts'
import type { CurationTestApp, ExclusionEntry, UrlEntry } from '../curation/helpers.ts'
import { createCurationApp } from '../curation/helpers.ts'
import { describeEachEngine } from '../helpers/db.ts'
import { waitFor } from '../helpers/wait.ts'
import { send } from './helpers.ts'
import { UA } from './log-lines.ts'

/**
 * The bot-heavy filter fed end to end: pixel loads through the collector -> domain_traffic_stats
 * (registrable domain) -> a segment build leaves the domain out once it has enough loads.
 */
describeEachEngine('bot-heavy domains from pixel traffic', (getDb) => {
  let t: CurationTestApp
  let urls: UrlEntry[]
  let excluded: ExclusionEntry[]

  beforeAll(async () => {
    const db = getDb().db
    t = await createCurationApp(db, { botMinLoads: 20, botShareThreshold: 0.5 })
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' })
    const c = await t.client()
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/pixel/campaigns',
      headers: c.headers,
      payload: { name: 'Publisher network', use_case: 'publisher_bot_detection' },
    })
    const campaign = (JSON.parse(res.body) as { id: number }).id
    let sent = 0
    const loads = async (n: number, host: string, ua: string) => {
      for (let i = 0; i < n; i++) {
        const r = await send(`${base}/px/${campaign}.gif?u=${encodeURIComponent(`https://${host}/page/${i}`)}`, { headers: { 'user-agent': ua } })
        expect(r.status).toBe(200)
        sent++
      }
    }
    // bots.example: 30 loads, 24 of them crawlers and scripts (80 %), on two hosts of one domain.
    await loads(12, 'www.bots.example', UA.gptbot)
    await loads(12, 'cdn.bots.example', UA.curl)
    await loads(6, 'www.bots.example', UA.chrome)
    // fewloads.example: all bots, but only 10 loads (under the 20-load floor).
    await loads(10, 'www.fewloads.example', UA.bytespider)
    // humans.example: 30 loads, 3 bots (10 %).
    await loads(27, 'www.humans.example', UA.chrome)
    await loads(3, 'www.humans.example', UA.googlebot)
    await waitFor(async () => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM pixel_events')).rows[0]!.n === sent, 15_000, 'loads written')

    for (const [i, host] of ['www.bots.example', 'www.fewloads.example', 'www.humans.example'].entries()) {
      await indexHtml(db, `https://${host}/a`, topicPage('sports', 700 + i))
    }
    const seg = await t.build(c.headers, { prompt: 'sports fans following games, results and transfer news' })
    urls = await t.urls(c.headers, seg.id)
    excluded = await t.exclusions(c.headers, seg.id)
  })
  afterAll(() => t.close())

  it('counts loads per registrable domain', async () => {
    const { rows } = await getDb().db.query('SELECT domain, loads, non_human_loads FROM domain_traffic_stats ORDER BY domain')
    expect(rows).toEqual([
      { domain: 'bots.example', loads: 30, non_human_loads: 24 },
      { domain: 'fewloads.example', loads: 10, non_human_loads: 10 },
      { domain: 'humans.example', loads: 30, non_human_loads: 3 },
    ])
  })

  it('excludes the bot-heavy domain from the segment and keeps the others', () => {
    expect(excluded.find((e) => e.url === 'https://www.bots.example/a')).toMatchObject({
      reason: 'bot_traffic',
      detail: { domain: 'bots.example', loads: 30, non_human_loads: 24, non_human_share: 0.8, threshold: 0.5 },
    })
    expect(urls.map((u) => u.url).sort()).toEqual(['https://www.fewloads.example/a', 'https://www.humans.example/a'])
  })
})
