import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { clickDestination, clickSigner } from '../../src/pixel/clicks/signing.ts'
import { seedSegment } from '../activation/seed.ts'
import { ManualClock } from '../helpers/clock.ts'
import { describeEachEngine } from '../helpers/db.ts'
import { waitFor } from '../helpers/wait.ts'
import type { Act, AttributionApp } from './attribution-app.ts'
import { startAttributionApp } from './attribution-app.ts'
import { send } from './helpers.ts'
import { UA } from './log-lines.ts'

describe('click signatures', () => {
  const signer = clickSigner(Buffer.from('x'.repeat(32)))
  it('verify only the campaign and destination they were made for', () => {
    const sig = signer.sign(7, 'https://shop.example/landing')
    expect(sig).toMatch(/^[A-Za-z0-9_-]{22}$/)
    expect(signer.verify(7, 'https://shop.example/landing', sig)).toBe(true)
    expect(signer.verify(8, 'https://shop.example/landing', sig)).toBe(false)
    expect(signer.verify(7, 'https://shop.example/landing2', sig)).toBe(false)
    expect(signer.verify(7, 'https://shop.example/landing', sig.slice(0, -1))).toBe(false)
    expect(signer.verify(7, 'https://shop.example/landing', `${sig}A`)).toBe(false)
    expect(signer.verify(7, 'https://shop.example/landing', '')).toBe(false)
    expect(clickSigner(Buffer.from('y'.repeat(32))).verify(7, 'https://shop.example/landing', sig)).toBe(false)
  })
  it('accept only absolute http(s) destinations', () => {
    expect(clickDestination('https://Shop.Example/a b')).toBe('https://shop.example/a%20b')
    for (const bad of ['javascript:alert(1)', '//evil.example/', '/relative', 'ftp://x.example/', 'https://user:pw@x.example/', 'data:text/html,x']) {
      expect(clickDestination(bad), bad).toBeNull()
    }
  })
})

interface ClickUrls {
  campaign_id: number
  destination_url: string
  deal_id: string | null
  click_url: string
  click_urls: Record<string, string>
  impression_urls: Record<string, string> | null
}

describeEachEngine('click redirect', (getDb) => {
  const clock = new ManualClock('2026-11-20T10:00:00Z')
  let t: AttributionApp
  let headers: Record<string, string>
  let campaign: number
  let act: Act
  const landing = 'https://shop.example.net/landing?utm_source=curata&x=1'
  const sign = async (body: object, h = headers, id = campaign) => t.post(h, `/v1/pixel/campaigns/${id}/click-url`, body)
  const clicks = async () =>
    (
      await getDb().db.query<{ domain: string; clicks: number; non_human_clicks: number }>(
        'SELECT domain, sum(clicks)::int AS clicks, sum(non_human_clicks)::int AS non_human_clicks FROM deal_delivery_daily GROUP BY domain ORDER BY domain',
      )
    ).rows
  const path = (u: string) => u.slice(u.indexOf('/click/'))

  beforeAll(async () => {
    t = await startAttributionApp(getDb().db, clock)
    const c = await t.client()
    headers = c.headers
    campaign = await t.campaign(headers)
    act = await t.activate(headers, [await seedSegment(getDb().db, c.clientId)])
  })
  afterAll(() => t.close())

  it('signs a destination into links with each DSP’s macros', async () => {
    const res = await sign({ destination_url: landing })
    expect(res.statusCode, res.body).toBe(200)
    const b = JSON.parse(res.body) as ClickUrls
    expect(b).toMatchObject({ campaign_id: campaign, destination_url: landing, deal_id: null, impression_urls: null })
    expect(b.click_url).toMatch(new RegExp(`/click/${campaign}\\?to=${encodeURIComponent(landing).replace(/[?.]/g, '\\$&')}&sig=[A-Za-z0-9_-]{22}$`))
    expect(b.click_urls.the_trade_desk).toBe(`${b.click_url}&deal=%%TTD_DEALID%%&d=%%TTD_SITE%%`)
    expect(b.click_urls.dv360).toBe(b.click_url) // no public deal or domain macro
  })

  it('writes a given Deal ID into the click and impression links', async () => {
    const b = JSON.parse((await sign({ destination_url: landing, deal_id: act.deal_id })).body) as ClickUrls
    expect(b.click_url).toMatch(new RegExp(`&deal=${act.deal_id}$`))
    expect(b.click_urls.the_trade_desk).toBe(`${b.click_url}&d=%%TTD_SITE%%`)
    expect(b.impression_urls!.xandr).toContain(`deal=${act.deal_id}`)
    expect(b.impression_urls!.xandr).toContain('price=${PRICE_PAID}')
  })

  it('rejects what it cannot sign', async () => {
    const other = await t.client()
    const cases: [object, number, string | null][] = [
      [{ destination_url: 'javascript:alert(1)' }, 422, 'body.destination_url'],
      [{ destination_url: '/landing' }, 422, 'body.destination_url'],
      [{ destination_url: `https://x.example/${'a'.repeat(2100)}` }, 422, 'body.destination_url'],
      [{ destination_url: landing, deal_id: 'someone-elses-deal' }, 422, 'body.deal_id'],
      [{}, 400, 'body.destination_url'],
      [{ destination_url: 42 }, 400, 'body.destination_url'],
    ]
    for (const [body, status, at] of cases) {
      const res = await sign(body)
      expect(res.statusCode, JSON.stringify(body)).toBe(status)
      expect((JSON.parse(res.body) as { details: { path: string }[] }).details[0]!.path).toBe(at)
    }
    const theirs = await sign({ destination_url: landing }, other.headers)
    expect(theirs.statusCode).toBe(404)
    expect(JSON.parse(theirs.body)).toEqual({ error: 'not_found', message: 'campaign not found' })
  })

  it('redirects a signed link with 302 and counts the click (humans and bots apart)', async () => {
    const b = JSON.parse((await sign({ destination_url: landing })).body) as ClickUrls
    const link = `${t.url}${path(b.click_url)}&deal=${encodeURIComponent(act.deal_id!)}&d=www.alpha.example`
    const res = await send(link, { headers: { 'user-agent': UA.chrome } })
    expect(res.status).toBe(302)
    expect(res.headers.location).toBe(landing)
    expect(res.headers['cache-control']).toBe('no-store')
    await send(link, { headers: { 'user-agent': UA.chrome } })
    await send(link, { headers: { 'user-agent': UA.gptbot } })
    // The domain from the Referer when d is absent or still a macro.
    await send(`${t.url}${path(b.click_url)}&deal=${act.deal_id}&d=%25%25TTD_SITE%25%25`, {
      headers: { 'user-agent': UA.chrome, referer: 'https://news.beta.example/story' },
    })
    // Redirected but not counted: no deal, an unexpanded deal macro, HEAD.
    expect((await send(`${t.url}${path(b.click_url)}`, { headers: { 'user-agent': UA.chrome } })).status).toBe(302)
    expect((await send(`${t.url}${path(b.click_url)}&deal=%25%25TTD_DEALID%25%25`, { headers: { 'user-agent': UA.chrome } })).status).toBe(302)
    expect((await send(link, { method: 'HEAD', headers: { 'user-agent': UA.chrome } })).status).toBe(302)
    expect((await send(`${t.url}${path(b.click_url)}&deal=a%00b`, { headers: { 'user-agent': UA.chrome } })).status).toBe(302)
    await waitFor(async () => (await clicks()).reduce((s, r) => s + r.clicks + r.non_human_clicks, 0) >= 4)
    expect(await clicks()).toEqual([
      { domain: 'alpha.example', clicks: 2, non_human_clicks: 1 },
      { domain: 'beta.example', clicks: 1, non_human_clicks: 0 },
    ])
    const { rows } = await getDb().db.query('SELECT domain, impressions, clicks FROM domain_delivery_stats ORDER BY domain')
    expect(rows).toEqual([
      { domain: 'alpha.example', impressions: 0, clicks: 2 },
      { domain: 'beta.example', impressions: 0, clicks: 1 },
    ])
  })

  it('documents the click redirect, the signing call and segment reports in the OpenAPI document', async () => {
    const doc = JSON.parse((await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).body) as { paths: Record<string, Record<string, unknown>> }
    expect(Object.keys(doc.paths['/click/{id}']!)).toContain('get')
    expect(Object.keys(doc.paths['/v1/pixel/campaigns/{id}/click-url']!)).toEqual(['post'])
    expect(Object.keys(doc.paths['/v1/curation/reports']!).sort()).toEqual(['get', 'post'])
    expect(Object.keys(doc.paths['/v1/curation/reports/{id}']!)).toEqual(['get'])
  })

  it('never redirects a tampered, foreign or incomplete link', async () => {
    const b = JSON.parse((await sign({ destination_url: landing })).body) as ClickUrls
    const sig = new URL(b.click_url).searchParams.get('sig')!
    const otherCampaign = await t.campaign(headers)
    const evil = encodeURIComponent('https://evil.example/phish')
    const cases: [string, number][] = [
      [`/click/${campaign}?to=${evil}&sig=${sig}`, 403], // destination swapped
      [`/click/${otherCampaign}?to=${encodeURIComponent(landing)}&sig=${sig}`, 403], // signed for another campaign
      [`/click/${campaign}?to=${encodeURIComponent(landing)}&sig=${sig.slice(0, -2)}xx`, 403], // signature altered
      [`/click/${campaign}?to=${encodeURIComponent(landing)}`, 403], // no signature
      [`/click/${campaign}?to=${encodeURIComponent(landing)}&sig=`, 403],
      [`/click/${campaign}?to=javascript%3Aalert(1)&sig=${sig}`, 403],
      [`/click/${campaign}?sig=${sig}`, 400], // no destination
      [`/click/abc?to=${encodeURIComponent(landing)}&sig=${sig}`, 400],
      [`/click/?to=${encodeURIComponent(landing)}&sig=${sig}`, 400],
    ]
    for (const [p, status] of cases) {
      const res = await send(`${t.url}${p}`, { headers: { 'user-agent': UA.chrome } })
      expect(res.status, p).toBe(status)
      expect(res.headers.location, p).toBeUndefined()
      expect(res.headers['content-type'], p).toBe('text/plain; charset=utf-8')
    }
    // The same through the Fastify route (in-process requests never reach the raw handler).
    const injected = await t.app.inject({ method: 'GET', url: `/click/${campaign}?to=${evil}&sig=${sig}` })
    expect(injected.statusCode).toBe(403)
    expect(injected.headers.location).toBeUndefined()
    const ok = await t.app.inject({ method: 'GET', url: path(b.click_url) })
    expect(ok.statusCode).toBe(302)
    expect(ok.headers.location).toBe(landing)
  })
})
