// The click-tracking redirect (docs/pixel.md, "Clicks"), a raw handler in front of Fastify like
// the pixel: GET|HEAD /click/{campaign_id}?to=<destination>&sig=<signature>[&deal=…&d=…].
// A valid signature gets a 302 to the destination and the click is counted; anything else gets a
// short plain-text error page and never a redirect (no open redirect).
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Registry } from 'prom-client'
import { Counter } from 'prom-client'

import { normalizeDomain, registrableDomain } from '../../content/urls/domains.ts'
import type { Clock } from '../../platform/clock.ts'
import type { PixelConfig } from '../../platform/config.ts'
import { classifyUserAgent } from '../agents/classify.ts'
import { createTokenBucket } from '../collector/token-bucket.ts'
import { abuseKey } from '../ingest/ip-prefix.ts'
import { isUnexpanded } from '../ingest/params.ts'
import { realDealId } from '../rollups.ts'
import type { ClickRecorder } from './recorder.ts'
import type { ClickSigner } from './signing.ts'
import { clickDestination } from './signing.ts'

export const CLICK_PREFIX = '/click/'
const CAMPAIGN_ID = /^[1-9]\d{0,15}$/

const noStore = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' }

function refuse(res: ServerResponse, status: 400 | 403, text: string): void {
  const body = Buffer.from(`${text}\n`, 'utf8')
  res.writeHead(status, { ...noStore, 'content-type': 'text/plain; charset=utf-8', 'content-length': body.length })
  res.end(body)
}

const header = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v)

/** The serving domain of a click: the `d` parameter, else the Referer's host; registrable, '' when unknown. */
function clickDomain(d: string | null, referer: string | undefined): string {
  let host = d && !isUnexpanded(d) ? normalizeDomain(d) : null
  if (!host && referer) {
    try {
      host = new URL(referer).hostname || null
    } catch {
      host = null
    }
  }
  return host ? registrableDomain(host) : ''
}

export function createClickHandler(opts: {
  signer: ClickSigner
  recorder: ClickRecorder
  clock: Clock
  config: Pick<PixelConfig, 'ipRatePerSec' | 'ipBurst' | 'proxyHops'>
  registry: Registry
}): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { signer, recorder, clock, config } = opts
  const bucket = createTokenBucket({ ratePerSec: config.ipRatePerSec, burst: config.ipBurst })
  const sweep = setInterval(() => bucket.sweep(), 10_000)
  sweep.unref()
  const outcomes = new Counter({
    name: 'pixel_clicks_total',
    help: 'Click redirects: redirected (valid signature), refused (missing, malformed or tampered link)',
    labelNames: ['outcome'] as const,
    registers: [opts.registry],
  })

  const clientIp = (req: IncomingMessage): string | undefined => {
    const forwarded = config.proxyHops > 0 ? header(req.headers['x-forwarded-for']) : undefined
    if (!forwarded) return req.socket.remoteAddress
    const hops = forwarded.split(',')
    return hops[Math.max(0, hops.length - config.proxyHops)]!.trim()
  }

  return (req, res) => {
    const url = req.url
    if (url === undefined || !url.startsWith(CLICK_PREFIX) || (req.method !== 'GET' && req.method !== 'HEAD')) return false
    const q = url.indexOf('?')
    const id = url.slice(CLICK_PREFIX.length, q < 0 ? undefined : q)
    const params = new URLSearchParams(q < 0 ? '' : url.slice(q + 1))
    const to = params.get('to')
    const sig = params.get('sig')
    if (!CAMPAIGN_ID.test(id) || !to) {
      outcomes.labels('refused').inc()
      refuse(res, 400, 'This click link is incomplete or malformed.')
      return true
    }
    const campaignId = Number(id)
    const destination = clickDestination(to)
    if (!sig || destination === null || !signer.verify(campaignId, to, sig)) {
      outcomes.labels('refused').inc()
      refuse(res, 403, 'This click link is not valid: its signature does not match its destination.')
      return true
    }
    outcomes.labels('redirected').inc()
    const deal = realDealId(params.get('deal') ?? undefined)
    if (deal !== null && req.method === 'GET' && bucket.take(abuseKey(clientIp(req)))) {
      recorder.add({
        campaignId,
        deal,
        time: clock.now(),
        domain: clickDomain(params.get('d'), header(req.headers.referer)),
        human: classifyUserAgent(header(req.headers['user-agent'])).type === 'human',
      })
    }
    res.writeHead(302, { ...noStore, location: destination, 'content-length': 0 })
    res.end()
    return true
  }
}
