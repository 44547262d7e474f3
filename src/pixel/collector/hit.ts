// A hit as captured on the hot path (only what is needed, copied from the request), and its
// conversion into an observation when the batch is written.
import type { IncomingMessage } from 'node:http'
import type { TLSSocket } from 'node:tls'

import type { Observation } from '../ingest/event.ts'
import { PIXEL_PARAMS, parsePixelParams, readBeaconBody } from '../ingest/params.ts'
import { readQuery } from '../ingest/url.ts'
import type { CampaignOwners } from './campaign-owners.ts'

export interface Hit {
  time: Date
  source: 'pixel' | 'beacon'
  /** The request target, e.g. "/px/12.gif?u=…". */
  url: string
  /** The beacon's body (POST), or null; `bodyTooLarge` when it was cut off. */
  body: string | null
  bodyTooLarge: boolean
  ip: string | undefined
  https: boolean
  ua: string | undefined
  referer: string | undefined
  secChUa: string | undefined
  secChUaMobile: string | undefined
  secChUaPlatform: string | undefined
  acceptLanguage: string | undefined
}

const header = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v)

/** The client's address: the socket's, or with `proxyHops` proxies in front, the one they recorded. */
function clientIp(req: IncomingMessage, proxyHops: number): string | undefined {
  const forwarded = proxyHops > 0 ? header(req.headers['x-forwarded-for']) : undefined
  if (forwarded) {
    const hops = forwarded.split(',')
    return hops[Math.max(0, hops.length - proxyHops)]!.trim()
  }
  return req.socket.remoteAddress
}

/** Copies what the collector keeps from a request. */
export function captureHit(req: IncomingMessage, time: Date, proxyHops: number, body: string | null, bodyTooLarge: boolean): Hit {
  const h = req.headers
  return {
    time,
    source: body === null && !bodyTooLarge ? 'pixel' : 'beacon',
    url: req.url ?? '/',
    body,
    bodyTooLarge,
    ip: clientIp(req, proxyHops),
    https: (req.socket as TLSSocket).encrypted === true || (proxyHops > 0 && header(h['x-forwarded-proto']) === 'https'),
    ua: header(h['user-agent']),
    referer: header(h.referer),
    secChUa: header(h['sec-ch-ua']),
    secChUaMobile: header(h['sec-ch-ua-mobile']),
    secChUaPlatform: header(h['sec-ch-ua-platform']),
    acceptLanguage: header(h['accept-language']),
  }
}

const CAMPAIGN_ID = /^[1-9]\d{0,14}$/

/** The campaign id as sent: "/px/12.gif" and "/px/12" are campaign "12". */
export function campaignRef(url: string): string {
  const end = url.indexOf('?')
  let ref = url.slice(4, end < 0 ? url.length : end)
  if (ref.endsWith('.gif')) ref = ref.slice(0, -4)
  return ref
}

/** A well-formed id that no loaded campaign has yet (worth one refresh of the set before writing). */
export function unknownCampaignId(hit: Hit, owners: CampaignOwners): number | null {
  const ref = campaignRef(hit.url)
  if (!CAMPAIGN_ID.test(ref)) return null
  const id = Number(ref)
  return owners.owner(id) === undefined ? id : null
}

export function toObservation(hit: Hit, owners: CampaignOwners): Observation {
  const ref = campaignRef(hit.url)
  const id = CAMPAIGN_ID.test(ref) ? Number(ref) : 0
  const clientId = id ? owners.owner(id) : undefined

  const q = hit.url.indexOf('?')
  const params = q < 0 ? {} : readQuery(hit.url.slice(q + 1), PIXEL_PARAMS)
  const bodyBad = hit.bodyTooLarge || (hit.body !== null && !readBeaconBody(hit.body, params))
  const p = parsePixelParams(params)
  const flags = bodyBad ? [...p.flags, 'bad:body'] : p.flags
  const referer = hit.referer && /^https?:\/\//i.test(hit.referer) ? hit.referer : null

  return {
    time: hit.time,
    source: hit.source,
    campaign: clientId === undefined ? null : { id, clientId },
    campaignRef: ref,
    ip: hit.ip ?? null,
    userAgent: hit.ua,
    secChUa: hit.secChUa ?? null,
    secChUaMobile: hit.secChUaMobile ?? null,
    secChUaPlatform: hit.secChUaPlatform ?? null,
    acceptLanguage: hit.acceptLanguage ?? null,
    // Client hints are only sent over HTTPS; Accept-Language with every request, image loads included.
    hintsObserved: hit.https,
    languageObserved: true,
    webdriver: p.webdriver,
    // The page: the `u` parameter, else the Referer (the tag asks for the full URL with referrerpolicy).
    pageUrl: p.pageUrl ?? referer,
    referrer: p.referrer,
    domain: p.domain,
    macros: p.macros,
    flags,
    bad: p.bad || bodyBad,
  }
}
