import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GIF } from '../../src/pixel/collector/gif.ts'
import { ManualClock } from '../helpers/clock.ts'
import { describeEachEngine } from '../helpers/db.ts'
import { waitFor } from '../helpers/wait.ts'
import { HEADLESS_UAS, HUMAN_UAS, LIBRARY_UAS, LLM_RETRIEVAL_UAS, LLM_TRAINING_UAS, SCRAPER_UAS, SEARCH_UAS } from './agents/fixtures.ts'
import type { PixelApp } from './helpers.ts'
import { events, send, startPixelApp } from './helpers.ts'

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'
const browser = { 'user-agent': CHROME, 'accept-language': 'en-GB,en;q=0.9' }

describeEachEngine('pixel collector', (getDb) => {
  let p: PixelApp
  let headers: Record<string, string>
  let campaign: number
  const clock = new ManualClock('2026-11-22T10:00:00Z')
  const db = () => getDb().db
  const count = async (where: string, params: unknown[] = []) =>
    (await db().query<{ n: number }>(`SELECT count(*)::int AS n FROM pixel_events WHERE ${where}`, params)).rows[0]!.n

  beforeAll(async () => {
    p = await startPixelApp(db(), { clock })
    headers = (await p.client()).headers
    campaign = await p.campaign(headers)
  })
  afterAll(() => p?.close())

  function expectGif(res: { status: number; headers: Record<string, unknown>; body: Buffer }) {
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('image/gif')
    expect(res.headers['cache-control']).toContain('no-store')
    expect(res.headers['content-length']).toBe('43')
    expect(res.body.equals(GIF)).toBe(true)
  }

  it('answers the 43-byte GIF with no-cache headers to every kind of load, known or not', async () => {
    expect(GIF.length).toBe(43)
    const urls = [
      `/px/${campaign}.gif`,
      `/px/${campaign}`,
      '/px/999999999.gif',
      '/px/abc.gif?u=%%%&price=<script>',
      '/px/1/2/3',
      '/px/',
      `/px/${campaign}.gif?${'x'.repeat(6000)}=1`,
    ]
    for (const u of urls) expectGif(await send(p.url + u, { headers: browser }))
    expectGif(await send(`${p.url}/px/${campaign}`, { method: 'POST', headers: { ...browser, 'content-type': 'text/plain' }, body: 'u=https://a.example/x' }))
    expectGif(await send(`${p.url}/px/${campaign}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{not json' }))
    const head = await send(`${p.url}/px/${campaign}.gif`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.body.length).toBe(0)
    // Other methods are not the collector's: the API answers them.
    const del = await send(`${p.url}/px/${campaign}.gif`, { method: 'DELETE' })
    expect(del.status).toBe(405)
  })

  it('records hits of a deleted campaign as unknown_campaign from the deletion on (an addition to the spec)', async () => {
    const own = await p.client()
    const other = await p.client()
    const doomed = await p.campaign(own.headers)
    const del = (headers: Record<string, string>) => p.app.inject({ method: 'DELETE', url: `/v1/pixel/campaigns/${doomed}`, headers })
    clock.set('2026-11-22T10:30:00Z')
    await send(`${p.url}/px/${doomed}.gif`, { headers: browser })
    await waitFor(async () => (await count('received_at = $1', ['2026-11-22T10:30:00Z'])) === 1)
    expect((await del(other.headers)).statusCode).toBe(404) // another client's campaign is not found
    const res = await del(own.headers)
    expect(res.statusCode).toBe(204)
    expect(res.body).toBe('')
    expect((await del(own.headers)).statusCode).toBe(404)
    expect((await p.app.inject({ method: 'GET', url: `/v1/pixel/campaigns/${doomed}`, headers: own.headers })).statusCode).toBe(404)
    const list = JSON.parse((await p.app.inject({ method: 'GET', url: '/v1/pixel/campaigns', headers: own.headers })).body) as { id: number }[]
    expect(list.map((c) => c.id)).not.toContain(doomed)
    clock.set('2026-11-22T10:31:00Z')
    // The collector learns of the deletion through NOTIFY; until then a hit would still count.
    await waitFor(async () => {
      await send(`${p.url}/px/${doomed}.gif`, { headers: browser })
      return (await count(`received_at >= $1 AND invalid_reason = 'unknown_campaign' AND campaign_ref = $2`, ['2026-11-22T10:31:00Z', String(doomed)])) > 0
    })
    // What it recorded before stays.
    expect(await count('received_at = $1 AND campaign_id = $2 AND invalid_reason IS NULL', ['2026-11-22T10:30:00Z', doomed])).toBe(1)
    expect((await p.app.inject({ method: 'DELETE', url: '/v1/pixel/campaigns/abc', headers: own.headers })).statusCode).toBe(400)
    expect((await p.app.inject({ method: 'DELETE', url: '/v1/pixel/campaigns/0', headers: own.headers })).statusCode).toBe(422)
  })

  it('records time, campaign, domain, page, user agent, client hints, language and the DSP macros', async () => {
    clock.set('2026-11-22T11:00:00Z')
    const q = new URLSearchParams({
      u: 'https://news.example/world/story?id=7&email=a@b.c',
      d: 'news.example',
      deal: 'D-42',
      price: '1.25',
      cb: '8812',
      imp: 'imp-1',
      dsp: 'xandr',
    })
    await send(`${p.url}/px/${campaign}.gif?${q}`, {
      headers: { ...browser, 'sec-ch-ua': '"Chromium";v="124"', 'sec-ch-ua-mobile': '?0', 'sec-ch-ua-platform': '"Windows"' },
    })
    await waitFor(async () => (await count('received_at = $1', ['2026-11-22T11:00:00Z'])) === 1)
    const [e] = await events(db(), 'received_at = $1', ['2026-11-22T11:00:00Z'])
    expect(e).toMatchObject({
      campaign_id: campaign,
      source: 'pixel',
      invalid_reason: null,
      flags: [],
      domain: 'news.example',
      page_url: 'https://news.example/world/story',
      url_path: '/world/story',
      user_agent: CHROME,
      sec_ch_ua: '"Chromium";v="124"',
      sec_ch_ua_mobile: '?0',
      sec_ch_ua_platform: '"Windows"',
      accept_language: 'en-GB,en;q=0.9',
      macros: { deal: 'D-42', price: '1.25', cb: '8812', imp: 'imp-1', dsp: 'xandr' },
      agent: null,
      agent_type: 'human',
      high_risk: false,
      ip_prefix: '127.0.0.0/24',
    })
    expect(e!.received_at.toISOString()).toBe('2026-11-22T11:00:00.000Z')
  })

  it('keeps only the /24 of the address, never the address or the query string', async () => {
    clock.set('2026-11-22T11:01:00Z')
    await send(`${p.url}/px/${campaign}.gif?u=${encodeURIComponent('https://x.example/p?token=secret')}`, { headers: browser })
    await waitFor(async () => (await count('received_at = $1', ['2026-11-22T11:01:00Z'])) === 1)
    const [e] = await events(db(), 'received_at = $1', ['2026-11-22T11:01:00Z'])
    const stored = JSON.stringify(e)
    expect(stored).not.toContain('127.0.0.1')
    expect(stored).not.toContain('secret')
    expect(e!.ip_prefix).toBe('127.0.0.0/24')
  })

  it('takes the page from the Referer when no u parameter is sent', async () => {
    clock.set('2026-11-22T11:02:00Z')
    await send(`${p.url}/px/${campaign}.gif`, { headers: { ...browser, referer: 'https://blog.example/posts/1?x=1' } })
    await waitFor(async () => (await count('received_at = $1', ['2026-11-22T11:02:00Z'])) === 1)
    const [e] = await events(db(), 'received_at = $1', ['2026-11-22T11:02:00Z'])
    expect(e).toMatchObject({ page_url: 'https://blog.example/posts/1', url_path: '/posts/1', domain: 'blog.example' })
  })

  it('flags DSP macros left unexpanded, and keeps the load valid', async () => {
    clock.set('2026-11-22T11:03:00Z')
    const url = `${p.url}/px/${campaign}.gif?dsp=ttd&deal=%%TTD_DEALID%%&d=%%TTD_SITE%%&u=%%TTD_SITE_WITH_PATH%%&price=\${AUCTION_PRICE}&cb={cachebuster}&imp=[imp]&cur=AUDIT`
    await send(url, { headers: browser })
    await waitFor(async () => (await count('received_at = $1', ['2026-11-22T11:03:00Z'])) === 1)
    const [e] = await events(db(), 'received_at = $1', ['2026-11-22T11:03:00Z'])
    expect(e!.invalid_reason).toBeNull()
    expect([...e!.flags].sort()).toEqual(
      ['audit:cur', 'unexpanded:cb', 'unexpanded:d', 'unexpanded:deal', 'unexpanded:imp', 'unexpanded:price', 'unexpanded:u'].sort(),
    )
    expect(e!.macros).toMatchObject({ deal: '%%TTD_DEALID%%', price: '${AUCTION_PRICE}' })
    expect(e!.page_url).toBeNull()
    expect(e!.domain).toBeNull()
  })

  it('records an unknown campaign and junk parameters as invalid, and leaves them out of the rollups', async () => {
    clock.set('2026-11-22T11:04:00Z')
    await send(`${p.url}/px/424242.gif`, { headers: browser })
    await send(`${p.url}/px/not-a-campaign.gif`, { headers: browser })
    await send(`${p.url}/px/${campaign}.gif?u=javascript:alert(1)&price=free`, { headers: browser })
    await waitFor(async () => (await count('received_at = $1', ['2026-11-22T11:04:00Z'])) === 3)
    const rows = await events(db(), 'received_at = $1', ['2026-11-22T11:04:00Z'])
    const byRef = (ref: string) => rows.find((r) => r.campaign_ref === ref)
    expect(byRef('424242')).toMatchObject({ client_id: null, campaign_id: null, invalid_reason: 'unknown_campaign' })
    expect(byRef('not-a-campaign')).toMatchObject({ invalid_reason: 'unknown_campaign' })
    const junk = rows.find((r) => r.campaign_id === campaign)!
    expect(junk.invalid_reason).toBe('bad_parameters')
    expect([...junk.flags].sort()).toEqual(['bad:price', 'bad:u'])
    const { rows: rollup } = await db().query<{ n: number }>(
      `SELECT coalesce(sum(loads), 0)::int AS n FROM pixel_rollup_paths WHERE campaign_id = $1 AND day = '2026-11-22'`,
      [campaign],
    )
    // Only the valid loads of the earlier tests of this file are counted.
    expect(rollup[0]!.n).toBe(await count(`campaign_id = $1 AND invalid_reason IS NULL`, [campaign]))
  })

  it('takes beacons as text/plain (sendBeacon) or JSON, with the page’s referrer for AI referrals', async () => {
    clock.set('2026-11-22T11:05:00Z')
    const body = new URLSearchParams({ u: 'https://news.example/a', r: 'https://chatgpt.com/' }).toString()
    await send(`${p.url}/px/${campaign}`, { method: 'POST', headers: { ...browser, 'content-type': 'text/plain;charset=UTF-8' }, body })
    await send(`${p.url}/px/${campaign}`, {
      method: 'POST',
      headers: { ...browser, 'content-type': 'application/json' },
      body: JSON.stringify({ u: 'https://news.example/b?utm_source=perplexity.ai' }),
    })
    await send(`${p.url}/px/${campaign}`, { method: 'POST', headers: browser, body: 'x'.repeat(20_000) })
    await waitFor(async () => (await count('received_at = $1', ['2026-11-22T11:05:00Z'])) === 3)
    const rows = await events(db(), 'received_at = $1', ['2026-11-22T11:05:00Z'])
    expect(rows.find((r) => r.url_path === '/a')).toMatchObject({ source: 'beacon', referrer_host: 'chatgpt.com', flags: ['ai_referral:ChatGPT'] })
    expect(rows.find((r) => r.url_path === '/b')).toMatchObject({ source: 'beacon', flags: ['ai_referral:Perplexity'] })
    expect(rows.find((r) => r.invalid_reason)).toMatchObject({ invalid_reason: 'bad_parameters', flags: ['bad:body'] })
    const { rows: ref } = await db().query(`SELECT source, url_path, loads FROM pixel_rollup_referrals WHERE campaign_id = $1 ORDER BY source`, [campaign])
    expect(ref).toEqual([
      { source: 'ChatGPT', url_path: '/a', loads: 1 },
      { source: 'Perplexity', url_path: '/b', loads: 1 },
    ])
  })

  it('accepts a campaign created after start at once (NOTIFY), and one it was not told about (refresh per batch)', async () => {
    clock.set('2026-11-22T11:06:00Z')
    const fresh = await p.campaign(headers)
    await send(`${p.url}/px/${fresh}.gif`, { headers: browser })
    const { clientId } = await p.client('silent')
    const { rows } = await db().query<{ id: number }>(
      `INSERT INTO pixel_campaigns (client_id, name, use_case, created_date, last_updated_date)
       VALUES ($1, 'no notify', 'other', now(), now()) RETURNING id`,
      [clientId],
    )
    const silent = rows[0]!.id
    await send(`${p.url}/px/${silent}.gif`, { headers: browser })
    await waitFor(async () => (await count('received_at = $1', ['2026-11-22T11:06:00Z'])) === 2)
    const stored = await events(db(), 'received_at = $1', ['2026-11-22T11:06:00Z'])
    expect(stored.map((e) => [e.campaign_id, e.client_id, e.invalid_reason]).sort()).toEqual(
      [
        [fresh, stored.find((e) => e.campaign_id === fresh)!.client_id, null],
        [silent, clientId, null],
      ].sort(),
    )
  })

  it('resolves a hit against a campaign read asked for after the hit arrived, not one already running', async () => {
    // The collector's campaign read runs at once, but its rows are held until `release`: the read
    // began before the campaign below committed, as a read in flight can on a busy database.
    let hold: Promise<void> | null = null
    let release = () => {}
    const real = db()
    const gated = new Proxy(real, {
      get(target, prop, receiver) {
        if (prop !== 'query') return Reflect.get(target, prop, receiver) as unknown
        return async (sql: string, params?: unknown[]) => {
          const result = await target.query(sql, params)
          if (hold && sql.includes('FROM pixel_campaigns WHERE id >')) {
            const wait = hold
            hold = null
            await wait
          }
          return result
        }
      },
    })
    const q = await startPixelApp(gated, { clock, pixel: { campaignRefreshMs: 3_600_000 } })
    try {
      clock.set('2026-11-22T11:07:00Z')
      hold = new Promise((r) => (release = r))
      // An id above every known one starts a read, which is held.
      await send(`${q.url}/px/999999999.gif`, { headers: browser })
      await waitFor(() => hold === null)
      const { clientId } = await q.client('late')
      const { rows } = await real.query<{ id: number }>(
        `INSERT INTO pixel_campaigns (client_id, name, use_case, created_date, last_updated_date)
         VALUES ($1, 'late', 'other', now(), now()) RETURNING id`,
        [clientId],
      )
      const late = rows[0]!.id
      await send(`${q.url}/px/${late}.gif`, { headers: browser })
      // Let the collector capture the hit while the read is still held.
      await new Promise((r) => setTimeout(r, 50))
      release()
      await waitFor(async () => (await count('received_at = $1', ['2026-11-22T11:07:00Z'])) === 2)
      const stored = await events(real, 'received_at = $1', ['2026-11-22T11:07:00Z'])
      expect(stored.find((e) => e.campaign_id === late || e.campaign_ref === String(late))).toMatchObject({
        campaign_id: late,
        client_id: clientId,
        invalid_reason: null,
      })
      expect(stored.find((e) => e.campaign_ref === '999999999')).toMatchObject({ invalid_reason: 'unknown_campaign' })
    } finally {
      release()
      await q.close()
    }
  })

  describe('classification of real user agents', () => {
    const cases: [string, string, string | null][] = [
      ...HUMAN_UAS.map((ua): [string, string, null] => [ua, 'human', null]),
      ...SEARCH_UAS.map(([ua, agent]): [string, string, string] => [ua, 'search', agent]),
      ...LLM_TRAINING_UAS.map(([ua, agent]): [string, string, string] => [ua, 'llm_training', agent]),
      ...LLM_RETRIEVAL_UAS.map(([ua, agent]): [string, string, string] => [ua, 'llm_retrieval', agent]),
      ...[...SCRAPER_UAS, ...LIBRARY_UAS, ...HEADLESS_UAS].map(([ua, agent]): [string, string, string] => [ua, 'scraper', agent]),
    ]

    it('stores the agent and type of every fixture user agent, sent through the collector', async () => {
      clock.set('2026-11-22T12:00:00Z')
      for (const [i, [ua]] of cases.entries()) {
        await send(`${p.url}/px/${campaign}.gif?u=https://ua.example/${i}`, { headers: { 'user-agent': ua, 'accept-language': 'en' } })
      }
      await waitFor(async () => (await count('received_at = $1', ['2026-11-22T12:00:00Z'])) === cases.length)
      const stored = await events(db(), 'received_at = $1', ['2026-11-22T12:00:00Z'])
      for (const [i, [ua, type, agent]] of cases.entries()) {
        const e = stored.find((r) => r.url_path === `/${i}`)!
        expect([ua, e.agent_type, e.agent]).toEqual([ua, type, agent])
      }
    })

    it('counts a browser user agent with automation signals as undeclared automation (high risk)', async () => {
      clock.set('2026-11-22T12:01:00Z')
      // navigator.webdriver (wd=1 from the JS beacon) and no Accept-Language: two signals.
      await send(`${p.url}/px/${campaign}.gif?wd=1&u=https://ua.example/bot`, { headers: { 'user-agent': CHROME } })
      // One signal only: still a human.
      await send(`${p.url}/px/${campaign}.gif?wd=1&u=https://ua.example/ok`, { headers: browser })
      // Bytespider ignores robots.txt: high risk, declared.
      await send(`${p.url}/px/${campaign}.gif?u=https://ua.example/bs`, {
        headers: {
          'user-agent':
            'Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)',
        },
      })
      await waitFor(async () => (await count('received_at = $1', ['2026-11-22T12:01:00Z'])) === 3)
      const stored = await events(db(), 'received_at = $1', ['2026-11-22T12:01:00Z'])
      const at = (path: string) => stored.find((r) => r.url_path === path)!
      expect(at('/bot')).toMatchObject({ agent: 'Undeclared automation', agent_type: 'scraper', high_risk: true, flags: ['risk:undeclared_automation'] })
      expect(at('/ok')).toMatchObject({ agent: null, agent_type: 'human', high_risk: false })
      expect(at('/bs')).toMatchObject({ agent: 'Bytespider', agent_type: 'llm_training', high_risk: true, flags: ['risk:ignores_robots'] })
      const { rows } = await db().query(
        `SELECT url_path, agent, agent_type, loads, high_risk_loads FROM pixel_rollup_daily
          WHERE campaign_id = $1 AND url_path IN ('/bot', '/ok', '/bs') ORDER BY url_path`,
        [campaign],
      )
      // Agents only: the human load on /ok is its path's loads less its bot loads.
      expect(rows).toEqual([
        { url_path: '/bot', agent: 'Undeclared automation', agent_type: 'scraper', loads: 1, high_risk_loads: 1 },
        { url_path: '/bs', agent: 'Bytespider', agent_type: 'llm_training', loads: 1, high_risk_loads: 1 },
      ])
      const { rows: paths } = await db().query(
        `SELECT url_path, loads, bot_loads FROM pixel_rollup_paths WHERE campaign_id = $1 AND url_path IN ('/bot', '/ok', '/bs') ORDER BY url_path`,
        [campaign],
      )
      expect(paths).toEqual([
        { url_path: '/bot', loads: 1, bot_loads: 1 },
        { url_path: '/bs', loads: 1, bot_loads: 1 },
        { url_path: '/ok', loads: 1, bot_loads: 0 },
      ])
    })
  })
})

describeEachEngine('pixel collector bounds', (getDb) => {
  it('answers the GIF over the per-address bound but does not record those hits', async () => {
    const p = await startPixelApp(getDb().db, { pixel: { ipRatePerSec: 1, ipBurst: 3 } })
    try {
      const { headers } = await p.client()
      const id = await p.campaign(headers)
      for (let i = 0; i < 6; i++) {
        const res = await send(`${p.url}/px/${id}.gif`, { headers: browser })
        expect(res.status).toBe(200)
        expect(res.body.length).toBe(43)
      }
      const metrics = await p.ctx.metrics.registry.getSingleMetricAsString('pixel_hits_total')
      expect(metrics).toMatch(/pixel_hits_total\{outcome="throttled"\} 3/)
      expect(metrics).toMatch(/pixel_hits_total\{outcome="accepted"\} 3/)
      await waitFor(async () => (await getDb().db.query('SELECT 1 FROM pixel_events WHERE campaign_id = $1', [id])).rows.length === 3)
    } finally {
      await p.close()
    }
  })

  it('behind proxies, takes the client address they recorded in X-Forwarded-For', async () => {
    const p = await startPixelApp(getDb().db, { pixel: { proxyHops: 1, ipRatePerSec: 1, ipBurst: 1 } })
    try {
      const { headers } = await p.client()
      const id = await p.campaign(headers)
      // A client-supplied X-Forwarded-For entry is ignored: the proxy appended the real one last.
      await send(`${p.url}/px/${id}.gif`, { headers: { ...browser, 'x-forwarded-for': '10.9.9.9, 198.51.100.7' } })
      await send(`${p.url}/px/${id}.gif`, { headers: { ...browser, 'x-forwarded-for': '203.0.113.20' } })
      // Same client as the first: over its bound of one, not recorded.
      await send(`${p.url}/px/${id}.gif`, { headers: { ...browser, 'x-forwarded-for': '198.51.100.7' } })
      await waitFor(async () => (await events(getDb().db, 'campaign_id = $1', [id])).length === 2)
      const rows = await events(getDb().db, 'campaign_id = $1', [id])
      expect(rows.map((r) => r.ip_prefix).sort()).toEqual(['198.51.100.0/24', '203.0.113.0/24'])
    } finally {
      await p.close()
    }
  })

  it('keeps hits while the database fails, and writes them once it is back', async () => {
    const db = getDb().db
    const p = await startPixelApp(db, { pixel: { flushMs: 20 } })
    try {
      const { headers } = await p.client()
      const id = await p.campaign(headers)
      await db.exec('ALTER TABLE pixel_events RENAME TO pixel_events_away')
      for (let i = 0; i < 5; i++) expect((await send(`${p.url}/px/${id}.gif`, { headers: browser })).status).toBe(200)
      await waitFor(async () => /pixel_write_failures_total \d*[1-9]/.test(await p.ctx.metrics.registry.getSingleMetricAsString('pixel_write_failures_total')))
      await db.exec('ALTER TABLE pixel_events_away RENAME TO pixel_events')
      await waitFor(async () => (await events(db, 'campaign_id = $1', [id])).length === 5)
    } finally {
      await db.exec('ALTER TABLE IF EXISTS pixel_events_away RENAME TO pixel_events').catch(() => {})
      await p.close()
    }
  })

  it('drops only the rows the database refuses as data, and goes on', async () => {
    const db = getDb().db
    const p = await startPixelApp(db, { pixel: { flushMs: 60_000 } })
    try {
      const { headers } = await p.client()
      const id = await p.campaign(headers)
      await db.exec(`ALTER TABLE pixel_events ADD CONSTRAINT test_no_poison CHECK (url_path <> '/poison') NOT VALID`)
      for (const path of ['/a', '/poison', '/b']) await send(`${p.url}/px/${id}.gif?u=https://x.example${path}`, { headers: browser })
      await p.close() // writes the buffer: one batch holding the poison row
      expect((await events(db, 'campaign_id = $1', [id])).map((e) => e.url_path)).toEqual(['/a', '/b'])
      // The rollups count what was stored, nothing else.
      const { rows } = await db.query<{ url_path: string }>('SELECT url_path FROM pixel_rollup_paths WHERE campaign_id = $1 ORDER BY url_path', [id])
      expect(rows.map((r) => r.url_path)).toEqual(['/a', '/b'])
      expect(await p.ctx.metrics.registry.getSingleMetricAsString('pixel_events_dropped_total')).toMatch(/pixel_events_dropped_total 1/)
    } finally {
      await db.exec('ALTER TABLE pixel_events DROP CONSTRAINT IF EXISTS test_no_poison')
    }
  })

  it('refuses with 503 (not acknowledged) only when its buffer is full, and writes everything acknowledged on close', async () => {
    const p = await startPixelApp(getDb().db, { pixel: { flushMs: 60_000, batchMax: 1000, bufferMax: 5 } })
    const { headers } = await p.client()
    const id = await p.campaign(headers)
    const statuses: number[] = []
    for (let i = 0; i < 7; i++) statuses.push((await send(`${p.url}/px/${id}.gif`, { headers: browser })).status)
    expect(statuses).toEqual([200, 200, 200, 200, 200, 503, 503])
    // Nothing written yet (the flush interval is a minute); stop() writes all five.
    expect((await getDb().db.query('SELECT 1 FROM pixel_events WHERE campaign_id = $1', [id])).rows).toHaveLength(0)
    await p.close()
    expect((await getDb().db.query('SELECT 1 FROM pixel_events WHERE campaign_id = $1', [id])).rows).toHaveLength(5)
  })
})
