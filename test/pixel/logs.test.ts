import { afterAll, beforeAll, expect, it } from 'vitest'

import { ManualClock } from '../helpers/clock.ts'
import { describeEachEngine } from '../helpers/db.ts'
import { waitFor } from '../helpers/wait.ts'
import type { PixelApp } from './helpers.ts'
import { events, send, startPixelApp } from './helpers.ts'
import { combined, UA } from './log-lines.ts'

describeEachEngine('server-log ingest', (getDb) => {
  let p: PixelApp
  let headers: Record<string, string>
  const clock = new ManualClock('2026-11-22T10:00:00Z')
  const db = () => getDb().db

  beforeAll(async () => {
    p = await startPixelApp(db(), { clock })
    headers = (await p.client()).headers
  })
  afterAll(() => p?.close())

  const upload = (campaign: number, body: string, contentType = 'text/plain', h = headers) =>
    p.app.inject({ method: 'POST', url: `/v1/pixel/campaigns/${campaign}/logs`, headers: { ...h, 'content-type': contentType }, payload: body })

  it('accepts combined-format page loads, skips assets and errors, and counts junk as invalid', async () => {
    const id = await p.campaign(headers)
    const lines = [
      combined({ time: '2026-11-21T08:00:00Z', path: '/news/a?utm=1', ua: UA.gptbot, ip: '20.171.206.9' }),
      combined({ time: '2026-11-21T08:00:01Z', path: '/news/b', ua: UA.chrome, referer: 'https://chatgpt.com/' }),
      combined({ time: '2026-11-21T08:00:02Z', path: '/news/c', ua: UA.chrome, status: 304 }),
      combined({ time: '2026-11-21T08:00:03Z', path: '/style.css', ua: UA.chrome }),
      combined({ time: '2026-11-21T08:00:04Z', path: '/robots.txt', ua: UA.gptbot }),
      combined({ time: '2026-11-21T08:00:05Z', path: '/missing', ua: UA.chrome, status: 404 }),
      combined({ time: '2026-11-21T08:00:06Z', path: '/form', ua: UA.chrome, method: 'POST' }),
      'this is not a log line',
      '203.0.113.9 - - [99/Foo/2026:00:00:00 +0000] "GET / HTTP/1.1" 200 1 "-" "x"',
      '',
      combined({ time: '2026-11-23T12:00:00Z', path: '/future', ua: UA.chrome }), // more than a day ahead of the clock
    ]
    const res = await upload(id, lines.join('\r\n') + '\n')
    expect(res.statusCode).toBe(200)
    expect(JSON.parse(res.body)).toEqual({
      accepted: 3,
      invalid: 3,
      invalid_lines: [
        { line: 8, reason: 'not an access-log line (Combined or Common Log Format, or a JSON object with the usual fields)' },
        { line: 9, reason: 'not an access-log line (Combined or Common Log Format, or a JSON object with the usual fields)' },
        { line: 11, reason: 'its time 2026-11-23T12:00:00.000Z is more than a day ahead of the server clock' },
      ],
      duplicates: 0,
      skipped: 4,
    })
    const rows = await events(db(), 'campaign_id = $1', [id])
    expect(rows.map((r) => [r.received_at.toISOString(), r.source, r.url_path, r.agent, r.agent_type, r.flags])).toEqual([
      ['2026-11-21T08:00:00.000Z', 'log', '/news/a', 'GPTBot', 'llm_training', ['verified']], // inside OpenAI's published GPTBot range
      ['2026-11-21T08:00:01.000Z', 'log', '/news/b', null, 'human', ['ai_referral:ChatGPT']],
      ['2026-11-21T08:00:02.000Z', 'log', '/news/c', null, 'human', []],
    ])
    expect(rows[0]!.ip_prefix).toBe('20.171.206.0/24')
    const { rows: rollup } = await db().query(
      `SELECT day, agent_type, agent, url_path, loads FROM pixel_rollup_daily WHERE campaign_id = $1 ORDER BY url_path`,
      [id],
    )
    expect(rollup).toEqual([{ day: '2026-11-21', agent_type: 'llm_training', agent: 'GPTBot', url_path: '/news/a', loads: 1 }])
    const { rows: paths } = await db().query(`SELECT day, url_path, loads, bot_loads FROM pixel_rollup_paths WHERE campaign_id = $1 ORDER BY url_path`, [id])
    expect(paths).toEqual([
      { day: '2026-11-21', url_path: '/news/a', loads: 1, bot_loads: 1 },
      { day: '2026-11-21', url_path: '/news/b', loads: 1, bot_loads: 0 },
      { day: '2026-11-21', url_path: '/news/c', loads: 1, bot_loads: 0 },
    ])
  })

  it('reads JSON lines with common field names (nginx JSON, Cloudflare Logpush)', async () => {
    const id = await p.campaign(headers)
    const lines = [
      {
        time: '2026-11-21T09:00:00Z',
        remote_addr: '66.249.66.1',
        request: 'GET /a HTTP/1.1',
        status: 200,
        http_user_agent: UA.googlebot,
        host: 'news.example',
      },
      {
        ClientIP: '2001:db8:1:2::5',
        ClientRequestMethod: 'GET',
        ClientRequestURI: '/b?x=1',
        ClientRequestHost: 'news.example',
        EdgeResponseStatus: 200,
        ClientRequestUserAgent: UA.curl,
        EdgeStartTimestamp: Date.parse('2026-11-21T09:00:01Z') * 1e6,
      },
      { timestamp: 1795251602, ip: '198.51.100.1', method: 'GET', path: '/c', status: 200, user_agent: UA.chrome, referer: 'https://claude.ai/chat' },
      { time: 'not a time', path: '/d' },
      [1, 2],
    ]
    const res = await upload(id, lines.map((l) => JSON.stringify(l)).join('\n'), 'application/x-ndjson')
    expect(JSON.parse(res.body)).toEqual({
      accepted: 3,
      invalid: 2,
      invalid_lines: [
        { line: 4, reason: 'not an access-log line (Combined or Common Log Format, or a JSON object with the usual fields)' },
        { line: 5, reason: 'not an access-log line (Combined or Common Log Format, or a JSON object with the usual fields)' },
      ],
      duplicates: 0,
      skipped: 0,
    })
    const rows = await events(db(), 'campaign_id = $1', [id])
    expect(rows.map((r) => [r.received_at.toISOString(), r.url_path, r.domain, r.page_url, r.agent, r.ip_prefix, r.flags])).toEqual([
      ['2026-11-21T09:00:00.000Z', '/a', 'news.example', 'https://news.example/a', 'Googlebot', '66.249.66.0/24', ['verified']],
      ['2026-11-21T09:00:01.000Z', '/b', 'news.example', 'https://news.example/b', 'curl', '2001:db8:1::/48', []],
      ['2026-11-21T09:00:02.000Z', '/c', null, null, null, '198.51.100.0/24', ['ai_referral:Claude']],
    ])
  })

  it('does not count twice a load the pixel already recorded, nor a log line sent again', async () => {
    const id = await p.campaign(headers)
    clock.set('2026-11-22T09:30:00Z')
    // The visitor's browser fires the pixel on the page /story (seen from 127.0.0.1).
    await send(`${p.url}/px/${id}.gif?u=https://news.example/story`, { headers: { 'user-agent': UA.chrome, 'accept-language': 'en' } })
    await waitFor(async () => (await events(db(), 'campaign_id = $1', [id])).length === 1)
    const log = [
      // the same page load in the server's log, 5 s earlier (the HTML came first): a duplicate
      combined({ ip: '127.0.0.1', time: '2026-11-22T09:29:55Z', path: '/story', ua: UA.chrome }),
      // a reload two minutes later, outside the 30 s window: a new load
      combined({ ip: '127.0.0.1', time: '2026-11-22T09:32:00Z', path: '/story', ua: UA.chrome }),
      // another network, another path, another agent: new loads
      combined({ ip: '203.0.113.5', time: '2026-11-22T09:29:58Z', path: '/story', ua: UA.chrome }),
      combined({ ip: '127.0.0.1', time: '2026-11-22T09:29:58Z', path: '/other', ua: UA.chrome }),
      combined({ ip: '127.0.0.1', time: '2026-11-22T09:29:58Z', path: '/story', ua: UA.gptbot }),
    ].join('\n')
    expect(JSON.parse((await upload(id, log)).body)).toEqual({ accepted: 4, invalid: 0, invalid_lines: [], duplicates: 1, skipped: 0 })
    // The same upload again: every line is already there.
    expect(JSON.parse((await upload(id, log)).body)).toEqual({ accepted: 0, invalid: 0, invalid_lines: [], duplicates: 5, skipped: 0 })
    // A line repeated inside one upload counts once.
    const twice = combined({ ip: '192.0.2.1', time: '2026-11-22T09:40:00Z', path: '/x', ua: UA.chrome })
    expect(JSON.parse((await upload(id, `${twice}\n${twice}`)).body)).toEqual({ accepted: 1, invalid: 0, invalid_lines: [], duplicates: 1, skipped: 0 })
    const { rows } = await db().query<{ n: number }>(`SELECT sum(loads)::int AS n FROM pixel_rollup_paths WHERE campaign_id = $1`, [id])
    expect(rows[0]!.n).toBe(1 + 4 + 1)
  })

  it('answers 404 for another client’s campaign, 415 for other content types, 413 over 50 MiB', async () => {
    const id = await p.campaign(headers)
    const other = await p.client()
    const theirs = await upload(id, combined({ time: '2026-11-21T08:00:00Z', path: '/', ua: UA.chrome }), 'text/plain', other.headers)
    const missing = await upload(999_999, 'x', 'text/plain', other.headers)
    expect(theirs.statusCode).toBe(404)
    expect(theirs.body).toBe(missing.body)
    for (const type of ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await upload(id, '{}', type)
      expect(res.statusCode).toBe(415)
      expect(JSON.parse(res.body)).toMatchObject({ error: 'unsupported_media_type' })
      expect(JSON.parse(res.body).message).toContain('text/plain')
    }
    expect(JSON.parse((await upload(id, '')).body)).toEqual({ accepted: 0, invalid: 0, invalid_lines: [], duplicates: 0, skipped: 0 })
    const huge = await upload(id, 'x'.repeat(50 * 1024 * 1024 + 1))
    expect(huge.statusCode).toBe(413)
    expect(JSON.parse(huge.body).error).toBe('payload_too_large')
  })
})
