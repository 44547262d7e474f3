import { afterAll, beforeAll, expect, it } from 'vitest'

import type { PixelTag } from '../../src/pixel/schemas.ts'
import { describeEachEngine } from '../helpers/db.ts'
import { waitFor } from '../helpers/wait.ts'
import type { PixelApp } from './helpers.ts'
import { events, send, startPixelApp } from './helpers.ts'

describeEachEngine('pixel tag code', (getDb) => {
  let p: PixelApp
  let headers: Record<string, string>
  let id: number
  beforeAll(async () => {
    p = await startPixelApp(getDb().db, { config: { publicUrl: 'https://px.curata.example/' } })
    headers = (await p.client()).headers
    id = await p.campaign(headers, 'campaign_reporting')
  })
  afterAll(() => p?.close())

  const tag = async (h = headers, campaign = id) => p.app.inject({ method: 'GET', url: `/v1/pixel/campaigns/${campaign}/tag`, headers: h })

  it('gives an <img> pixel and a JS beacon on the public URL', async () => {
    const res = await tag()
    expect(res.statusCode).toBe(200)
    const t = JSON.parse(res.body) as PixelTag
    expect(t.base_url).toBe('https://px.curata.example')
    expect(t.image_tag).toContain(`src="https://px.curata.example/px/${id}.gif"`)
    expect(t.image_tag).toContain('referrerpolicy="no-referrer-when-downgrade"')
    expect(t.javascript_tag).toContain(`"https://px.curata.example/px/${id}"`)
    expect(t.javascript_tag).toContain('navigator')
    expect(t.javascript_tag).toContain('sendBeacon')
    expect(t.javascript_tag).toContain(`<noscript>${t.image_tag}</noscript>`)
  })

  it('carries each DSP’s macros, unencoded, for deal, domain, page, price and cachebuster', async () => {
    const t = JSON.parse((await tag()).body) as PixelTag
    const u = t.impression_urls
    expect(Object.keys(u).sort()).toEqual(['amazon', 'dv360', 'openrtb', 'the_trade_desk', 'xandr'])
    const base = `https://px.curata.example/px/${id}.gif?dsp=`
    for (const url of Object.values(u)) expect(url.startsWith(base)).toBe(true)
    expect(u.the_trade_desk).toContain('deal=%%TTD_DEALID%%')
    expect(u.the_trade_desk).toContain('d=%%TTD_SITE%%')
    expect(u.the_trade_desk).toContain('u=%%TTD_SITE_WITH_PATH%%')
    expect(u.the_trade_desk).toContain('cb=%%TTD_CACHEBUSTER%%')
    expect(u.dv360).toContain('u=${SOURCE_URL_ENC}')
    expect(u.dv360).toContain('cb=${CACHEBUSTER}')
    expect(u.xandr).toContain('price=${PRICE_PAID}')
    expect(u.xandr).toContain('u=${REFERER_URL_ENC}')
    expect(u.openrtb).toContain('price=${AUCTION_PRICE}')
    expect(u.amazon).toContain('price=${AUCTION_PRICE}')
    expect(t.parameters.map((x) => x.name)).toEqual(expect.arrayContaining(['u', 'd', 'deal', 'price', 'cb']))
  })

  it('takes the request’s host when no public URL is configured', async () => {
    const other = await startPixelApp(getDb().db, { config: { publicUrl: null } })
    try {
      const h = (await other.client()).headers
      const c = await other.campaign(h)
      const t = JSON.parse(
        (await other.app.inject({ method: 'GET', url: `/v1/pixel/campaigns/${c}/tag`, headers: { ...h, host: 'collector.example:8080' } })).body,
      ) as PixelTag
      expect(t.base_url).toBe('http://collector.example:8080')
    } finally {
      await other.close()
    }
  })

  it('404s another client’s campaign', async () => {
    const b = await p.client()
    const theirs = await tag(b.headers)
    const missing = await tag(b.headers, 999_999)
    expect(theirs.statusCode).toBe(404)
    expect(theirs.body).toBe(missing.body)
  })

  it('a hit on a TTD impression URL, as the DSP expands it, records deal, domain, page and cachebuster', async () => {
    const t = JSON.parse((await tag()).body) as PixelTag
    const expanded = t.impression_urls
      .the_trade_desk!.replace('https://px.curata.example', p.url)
      .replace('%%TTD_DEALID%%', 'TTD-DEAL-9')
      .replace('%%TTD_SITE%%', 'news.example')
      .replace('%%TTD_SITE_WITH_PATH%%', encodeURIComponent('https://news.example/sport/match'))
      .replace('%%TTD_CACHEBUSTER%%', '55512')
      .replace('%%TTD_IMPRESSIONID%%', 'imp-77')
    await send(expanded, { headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0', 'accept-language': 'de' } })
    await waitFor(async () => (await events(getDb().db, "macros::jsonb->>'deal' = 'TTD-DEAL-9'")).length === 1)
    const [e] = await events(getDb().db, "macros::jsonb->>'deal' = 'TTD-DEAL-9'")
    expect(e).toMatchObject({
      campaign_id: id,
      domain: 'news.example',
      page_url: 'https://news.example/sport/match',
      macros: { dsp: 'the_trade_desk', deal: 'TTD-DEAL-9', cb: '55512', imp: 'imp-77' },
      flags: [],
      invalid_reason: null,
    })
  })
})
