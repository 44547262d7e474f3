import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { retentionJob } from '../../src/pixel/jobs.ts'
import { publisherReportJob } from '../../src/pixel/reports/job.ts'
import type { PublisherReport } from '../../src/pixel/schemas.ts'
import type { Worker } from '../../src/platform/jobs/worker.ts'
import { createWorker } from '../../src/platform/jobs/worker.ts'
import { ManualClock } from '../helpers/clock.ts'
import { describeEachEngine } from '../helpers/db.ts'
import { waitFor } from '../helpers/wait.ts'
import type { PixelApp } from './helpers.ts'
import { startPixelApp } from './helpers.ts'
import type { LineSpec } from './log-lines.ts'
import { combined, UA } from './log-lines.ts'

// The fixture, by day (every load a GET answered 200, one second apart so none is a duplicate):
//   2026-11-20  human /home ×6, human /article ×2 (one from chatgpt.com), GPTBot /article ×3, Googlebot /home ×2
//   2026-11-21  human /article ×2 (one from perplexity.ai), ChatGPT-User /article ×2, Bytespider /about, curl /about
//   2026-11-22  human /home ×2, AhrefsBot /home
//   2026-11-23  GPTBot /home ×5 (outside the report's range)
function fixture(): string {
  const lines: LineSpec[] = []
  let second = 0
  const add = (day: string, n: number, path: string, ua: string, referer?: string) => {
    for (let i = 0; i < n; i++) {
      const t = new Date(Date.parse(`${day}T10:00:00Z`) + 1000 * second++).toISOString()
      lines.push({ time: t, path, ua, ...(referer && i === 0 ? { referer } : {}) })
    }
  }
  add('2026-11-20', 6, '/home', UA.chrome)
  add('2026-11-20', 2, '/article', UA.chrome, 'https://chatgpt.com/')
  add('2026-11-20', 3, '/article', UA.gptbot)
  add('2026-11-20', 2, '/home', UA.googlebot)
  add('2026-11-21', 2, '/article', UA.chrome, 'https://www.perplexity.ai/search?q=x')
  add('2026-11-21', 2, '/article', UA.chatgptUser)
  add('2026-11-21', 1, '/about', UA.bytespider)
  add('2026-11-21', 1, '/about', UA.curl)
  add('2026-11-22', 2, '/home', UA.chrome)
  add('2026-11-22', 1, '/home', UA.ahrefs)
  add('2026-11-23', 5, '/home', UA.gptbot)
  return lines.map(combined).join('\n')
}

describeEachEngine('publisher reports', (getDb) => {
  let p: PixelApp
  let worker: Worker
  let headers: Record<string, string>
  let campaign: number
  const clock = new ManualClock('2026-11-24T10:00:00Z')

  beforeAll(async () => {
    p = await startPixelApp(getDb().db, { clock })
    worker = createWorker({ db: getDb().db, clock, handlers: [publisherReportJob(p.ctx) as never], pollMs: 20 })
    await worker.start()
    headers = (await p.client()).headers
    campaign = await p.campaign(headers, 'publisher_bot_detection')
    const res = await p.app.inject({
      method: 'POST',
      url: `/v1/pixel/campaigns/${campaign}/logs`,
      headers: { ...headers, 'content-type': 'text/plain' },
      payload: fixture(),
    })
    expect(JSON.parse(res.body)).toEqual({ accepted: 27, invalid: 0, invalid_lines: [], duplicates: 0, skipped: 0 })
  })
  afterAll(async () => {
    await worker?.stop()
    await p?.close()
  })

  const post = (payload: Record<string, unknown>, h = headers) => p.app.inject({ method: 'POST', url: '/v1/pixel/reports/publisher', headers: h, payload })

  async function run(payload: Record<string, unknown>): Promise<PublisherReport> {
    const res = await post({ campaign_id: campaign, start_date: '2026-11-20', end_date: '2026-11-22', ...payload })
    expect(res.statusCode).toBe(201)
    const created = JSON.parse(res.body) as PublisherReport
    let report = created
    await waitFor(async () => {
      report = JSON.parse((await p.app.inject({ method: 'GET', url: `/v1/pixel/reports/publisher/${created.id}`, headers })).body) as PublisherReport
      return report.status === 'complete'
    })
    return report
  }

  it('is created pending, with every result section null', async () => {
    const res = await post({ campaign_id: campaign, start_date: '2026-11-20', end_date: '2026-11-22' })
    expect(res.statusCode).toBe(201)
    expect(JSON.parse(res.body)).toMatchObject({
      status: 'pending',
      campaign_id: campaign,
      start_date: '2026-11-20',
      end_date: '2026-11-22',
      dimensions: [],
      hot_spot_min_loads: 100,
      created_date: '2026-11-24T10:00:00.000Z',
      processed_date: null,
      summary: null,
      agents: null,
      hot_spots: null,
      data: null,
      ai_referrals: null,
      failure_reason: null,
    })
  })

  it('lists the client’s reports newest first, paged, and no one else’s (an addition to the spec)', async () => {
    const first = await run({})
    const second = await run({ dimensions: ['date'] })
    const list = async (query: string, h = headers) => p.app.inject({ method: 'GET', url: `/v1/pixel/reports/publisher${query}`, headers: h })
    const all = JSON.parse((await list('')).body) as PublisherReport[]
    expect(all.slice(0, 2).map((r) => r.id)).toEqual([second.id, first.id])
    expect(all[0]).toEqual(second)
    expect((JSON.parse((await list('?limit=1&offset=1')).body) as PublisherReport[]).map((r) => r.id)).toEqual([all[1]!.id])
    const other = (await p.client()).headers
    expect(JSON.parse((await list('', other)).body)).toEqual([])
    for (const q of ['?limit=0', '?limit=101', '?offset=-1']) expect((await list(q)).statusCode, q).toBe(422)
    expect((await list('?limit=abc')).statusCode).toBe(400)
  })

  it('computes summary, agents, hot spots and AI referrals as counted by hand', async () => {
    const r = await run({ hot_spot_min_loads: 3 })
    expect(r.status).toBe('complete')
    expect(r.processed_date).toBe('2026-11-24T10:00:00.000Z')
    // 22 loads in range: 12 human, 10 not (GPTBot 3, Googlebot 2, ChatGPT-User 2, Bytespider, curl, AhrefsBot).
    expect(r.summary).toEqual({
      total_loads: 22,
      human_loads: 12,
      non_human_loads: 10,
      non_human_pct: 0.454545, // 10 / 22
      llm_agent_pct: 0.272727, // (GPTBot 3 + Bytespider 1 + ChatGPT-User 2) / 22
      search_bot_pct: 0.090909, // Googlebot 2 / 22
      scraper_pct: 0.090909, // (curl 1 + AhrefsBot 1) / 22
      high_risk_bot_count: 1, // Bytespider (ignores robots.txt)
      high_risk_loads: 1,
    })
    expect(r.agents).toEqual([
      { agent: 'GPTBot', type: 'llm_training', loads: 3, pct_of_non_human: 0.3 },
      { agent: 'ChatGPT-User', type: 'llm_retrieval', loads: 2, pct_of_non_human: 0.2 },
      { agent: 'Googlebot', type: 'search', loads: 2, pct_of_non_human: 0.2 },
      { agent: 'AhrefsBot', type: 'scraper', loads: 1, pct_of_non_human: 0.1 },
      { agent: 'Bytespider', type: 'llm_training', loads: 1, pct_of_non_human: 0.1 },
      { agent: 'curl', type: 'scraper', loads: 1, pct_of_non_human: 0.1 },
    ])
    // /about has 2 loads, under the threshold of 3.
    expect(r.hot_spots).toEqual([
      { url: '/article', bot_pct: 0.555556, loads: 9, dominant_agent: 'GPTBot' }, // 5 of 9
      { url: '/home', bot_pct: 0.272727, loads: 11, dominant_agent: 'Googlebot' }, // 3 of 11
    ])
    expect(r.data).toBeNull()
    expect(r.ai_referrals).toEqual({
      loads: 2,
      pct_of_human: 0.166667, // 2 / 12
      sources: [
        { source: 'ChatGPT', operator: 'OpenAI', loads: 1, pct_of_ai_referrals: 0.5, crawls: 5, crawl_to_refer: 5 }, // GPTBot 3 + ChatGPT-User 2
        { source: 'Perplexity', operator: 'Perplexity', loads: 1, pct_of_ai_referrals: 0.5, crawls: 0, crawl_to_refer: 0 },
      ],
      top_urls: [{ url: '/article', loads: 2 }],
    })
  })

  it('applies the hot-spot threshold and breaks ties by agent name', async () => {
    const r = await run({ hot_spot_min_loads: 1 })
    expect(r.hot_spots).toEqual([
      { url: '/about', bot_pct: 1, loads: 2, dominant_agent: 'Bytespider' },
      { url: '/article', bot_pct: 0.555556, loads: 9, dominant_agent: 'GPTBot' },
      { url: '/home', bot_pct: 0.272727, loads: 11, dominant_agent: 'Googlebot' },
    ])
  })

  it('gives one data row per combination of the dimensions asked for', async () => {
    const byDateType = await run({ dimensions: ['date', 'agent_type'] })
    expect(byDateType.data).toEqual([
      { date: '2026-11-20', agent_type: 'human', loads: 8 },
      { date: '2026-11-20', agent_type: 'search', loads: 2 },
      { date: '2026-11-20', agent_type: 'llm_training', loads: 3 },
      { date: '2026-11-21', agent_type: 'human', loads: 2 },
      { date: '2026-11-21', agent_type: 'llm_training', loads: 1 },
      { date: '2026-11-21', agent_type: 'llm_retrieval', loads: 2 },
      { date: '2026-11-21', agent_type: 'scraper', loads: 1 },
      { date: '2026-11-22', agent_type: 'human', loads: 2 },
      { date: '2026-11-22', agent_type: 'scraper', loads: 1 },
    ])
    expect(byDateType.data_truncated).toBe(false)

    const byAgent = await run({ dimensions: ['agent'] })
    expect(byAgent.data).toEqual([
      { agent: null, loads: 12 },
      { agent: 'AhrefsBot', loads: 1 },
      { agent: 'Bytespider', loads: 1 },
      { agent: 'ChatGPT-User', loads: 2 },
      { agent: 'GPTBot', loads: 3 },
      { agent: 'Googlebot', loads: 2 },
      { agent: 'curl', loads: 1 },
    ])

    const byUrl = await run({ dimensions: ['url'] })
    expect(byUrl.data).toEqual([
      { url: '/about', loads: 2 },
      { url: '/article', loads: 9 },
      { url: '/home', loads: 11 },
    ])

    // Asked in any order, the columns come out date, agent_type, agent, url.
    const all = await run({ dimensions: ['url', 'agent', 'date', 'agent_type'] })
    expect(all.data!.filter((d) => d.date === '2026-11-21')).toEqual([
      { date: '2026-11-21', agent_type: 'human', agent: null, url: '/article', loads: 2 },
      { date: '2026-11-21', agent_type: 'llm_training', agent: 'Bytespider', url: '/about', loads: 1 },
      { date: '2026-11-21', agent_type: 'llm_retrieval', agent: 'ChatGPT-User', url: '/article', loads: 2 },
      { date: '2026-11-21', agent_type: 'scraper', agent: 'curl', url: '/about', loads: 1 },
    ])
    expect(all.data!.reduce((s, d) => s + d.loads, 0)).toBe(22)
  })

  it('reads the rollups: raw events deleted by retention still count', async () => {
    // One day's retention at 2026-11-24T10:00 keeps only the 2026-11-23 loads (the five GPTBot ones).
    await retentionJob(p.ctx, 1).run(undefined as never, undefined as never)
    const { rows } = await getDb().db.query<{ n: number }>('SELECT count(*)::int AS n FROM pixel_events WHERE campaign_id = $1', [campaign])
    expect(rows[0]!.n).toBe(5)
    const r = await run({})
    expect(r.summary!.total_loads).toBe(22)
  })

  it('an empty range gives zeros, not errors', async () => {
    const res = await post({ campaign_id: campaign, start_date: '2025-01-01', end_date: '2025-01-31' })
    const id = (JSON.parse(res.body) as PublisherReport).id
    let r: PublisherReport | null = null
    await waitFor(async () => {
      r = JSON.parse((await p.app.inject({ method: 'GET', url: `/v1/pixel/reports/publisher/${id}`, headers })).body) as PublisherReport
      return r.status === 'complete'
    })
    expect(r!.summary).toMatchObject({ total_loads: 0, non_human_pct: 0, high_risk_bot_count: 0 })
    expect(r!.agents).toEqual([])
    expect(r!.hot_spots).toEqual([])
    expect(r!.ai_referrals).toEqual({ loads: 0, pct_of_human: 0, sources: [], top_urls: [] })
  })

  describe('validation', () => {
    it('404s another client’s campaign or report exactly like a missing one', async () => {
      const other = await p.client()
      const theirs = await post({ campaign_id: campaign, start_date: '2026-11-20', end_date: '2026-11-22' }, other.headers)
      const missing = await post({ campaign_id: 987_654, start_date: '2026-11-20', end_date: '2026-11-22' }, other.headers)
      expect(theirs.statusCode).toBe(404)
      expect(theirs.body).toBe(missing.body)
      const mine = JSON.parse((await post({ campaign_id: campaign, start_date: '2026-11-20', end_date: '2026-11-20' })).body) as PublisherReport
      const peek = await p.app.inject({ method: 'GET', url: `/v1/pixel/reports/publisher/${mine.id}`, headers: other.headers })
      const none = await p.app.inject({ method: 'GET', url: '/v1/pixel/reports/publisher/987654', headers: other.headers })
      expect(peek.statusCode).toBe(404)
      expect(peek.body).toBe(none.body)
      expect(JSON.parse(peek.body)).toEqual({ error: 'not_found', message: 'report not found' })
    })

    it('needs a campaign with a publisher use case (422)', async () => {
      const ad = await p.campaign(headers, 'campaign_reporting')
      const res = await post({ campaign_id: ad, start_date: '2026-11-20', end_date: '2026-11-22' })
      expect(res.statusCode).toBe(422)
      expect(JSON.parse(res.body).error).toBe('validation_failed')
      const agentTargeting = await p.campaign(headers, 'publisher_agent_targeting')
      expect((await post({ campaign_id: agentTargeting, start_date: '2026-11-20', end_date: '2026-11-22' })).statusCode).toBe(201)
    })

    const base = { start_date: '2026-11-20', end_date: '2026-11-22' }
    const cases: [string, Record<string, unknown>, number, string][] = [
      ['start after end', { start_date: '2026-11-23', end_date: '2026-11-22' }, 422, 'body.end_date'],
      ['a date that does not exist', { start_date: '2026-02-30' }, 422, 'body.start_date'],
      ['not a date', { end_date: 'yesterday' }, 422, 'body.end_date'],
      ['a timestamp instead of a date', { start_date: '2026-11-20T00:00:00Z' }, 422, 'body.start_date'],
      ['an unknown dimension', { dimensions: ['domain'] }, 422, 'body.dimensions.0'],
      ['a dimension twice', { dimensions: ['date', 'date'] }, 422, 'body.dimensions'],
      ['a zero hot-spot threshold', { hot_spot_min_loads: 0 }, 422, 'body.hot_spot_min_loads'],
      ['missing start_date', { start_date: undefined }, 400, 'body.start_date'],
      ['missing campaign_id', { campaign_id: undefined }, 400, 'body.campaign_id'],
      ['campaign_id as a string', { campaign_id: '1' }, 400, 'body.campaign_id'],
      ['dimensions not an array', { dimensions: 'date' }, 400, 'body.dimensions'],
      ['a dimension of the wrong type', { dimensions: [1] }, 400, 'body.dimensions.0'],
    ]
    for (const [name, change, status, path] of cases) {
      it(`${name} → ${status}`, async () => {
        const payload: Record<string, unknown> = { campaign_id: campaign, ...base, ...change }
        for (const k of Object.keys(payload)) if (payload[k] === undefined) delete payload[k]
        const res = await post(payload)
        expect(res.statusCode).toBe(status)
        const body = JSON.parse(res.body) as { error: string; details: { path: string }[] }
        expect(body.error).toBe(status === 400 ? 'invalid_request' : 'validation_failed')
        expect(body.details[0]!.path).toBe(path)
      })
    }
  })

  it('replays a POST with the same Idempotency-Key: the same report, created once', async () => {
    const h = { ...headers, 'idempotency-key': 'pub-report-replay-1' }
    const body = { campaign_id: campaign, start_date: '2026-11-20', end_date: '2026-11-22', hot_spot_min_loads: 4242 }
    const first = await post(body, h)
    const again = await post(body, h)
    expect(first.statusCode).toBe(201)
    expect(first.headers['idempotent-replayed']).toBeUndefined()
    expect(again.statusCode).toBe(201)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect((JSON.parse(again.body) as PublisherReport).id).toBe((JSON.parse(first.body) as PublisherReport).id)
    const { rows } = await getDb().db.query('SELECT id FROM pixel_publisher_reports WHERE campaign_id = $1 AND hot_spot_min_loads = 4242', [campaign])
    expect(rows).toHaveLength(1)
  })
})
