// One observed load (a pixel hit, a beacon, or a log line) turned into the row that is stored:
// page URL reduced to origin + path, agent classification and risk verdict, the address reduced to
// its network prefix, AI referral. The same function serves the collector and log ingest, so both
// feed the same numbers into the rollups.

import type { AgentType, Classification } from '../agents/classify.ts'
import { classifyUserAgent } from '../agents/classify.ts'
import { assessRisk } from '../agents/risk.ts'
import { aiReferrer } from './ai-referrers.ts'
import { ipPrefix } from './ip-prefix.ts'
import type { PageUrl } from './url.ts'
import { parseHttpUrl, readQuery } from './url.ts'

export type EventSource = 'pixel' | 'beacon' | 'log'
export type InvalidReason = 'unknown_campaign' | 'bad_parameters'
export type LoadType = AgentType | 'human'

/** Stands for a load whose page is not known (no page parameter, no Referer, no log path). */
export const UNKNOWN_PATH = '(unknown)'
/** A browser UA with two or more automation signals (agents/risk.ts): counted as this agent. */
export const UNDECLARED_AUTOMATION = 'Undeclared automation'
const UTM: ReadonlySet<string> = new Set(['utm_source'])

export interface Observation {
  time: Date
  source: EventSource
  /** The campaign and its owner when the id is a known campaign; null otherwise. */
  campaign: { id: number; clientId: number } | null
  /** What was sent as the campaign id, kept when it is not a known campaign. */
  campaignRef: string
  /** The full client address: used here, never stored. */
  ip: string | null
  /** undefined: the request had no User-Agent header. */
  userAgent: string | undefined
  /** Client hints and Accept-Language as received (null: absent). */
  secChUa: string | null
  secChUaMobile: string | null
  secChUaPlatform: string | null
  acceptLanguage: string | null
  /**
   * Whether their absence means anything: browsers send client hints only over HTTPS, and log
   * lines carry neither. The risk rules only count what was observable.
   */
  hintsObserved: boolean
  languageObserved: boolean
  webdriver: boolean | undefined
  /** Absolute http(s) URL, or a path starting with "/" (log lines without a host). */
  pageUrl: string | null
  referrer: string | null
  domain: string | null
  macros: Record<string, string> | null
  flags: string[]
  /** A parameter was junk (see params.ts). */
  bad: boolean
}

export interface EventRow {
  receivedAt: Date
  /** UTC day of receivedAt, YYYY-MM-DD: the rollup day. */
  day: string
  clientId: number | null
  campaignId: number | null
  campaignRef: string | null
  source: EventSource
  invalidReason: InvalidReason | null
  /** Parameter flags and verdicts as stored: unexpanded:u, risk:ignores_robots, verified, ai_referral:ChatGPT… */
  flags: string[]
  domain: string | null
  pageUrl: string | null
  urlPath: string
  referrerHost: string | null
  aiReferrer: string | null
  userAgent: string | null
  secChUa: string | null
  secChUaMobile: string | null
  secChUaPlatform: string | null
  acceptLanguage: string | null
  macros: Record<string, string> | null
  agent: string | null
  agentType: LoadType
  highRisk: boolean
  riskReasons: string[]
  verified: boolean | null
  ipPrefix: string | null
}

// PostgreSQL text cannot hold NUL: it is dropped from everything stored.
const clip = (v: string | null | undefined, max: number): string | null =>
  v === null || v === undefined ? null : stripNul(v.length > max ? v.slice(0, max) : v)

export const stripNul = (v: string): string => (v.includes('\u0000') ? v.replaceAll('\u0000', '') : v)

const PATH_BASE = 'http://path.invalid'

/** An absolute http(s) URL, or a bare path (read against a placeholder origin). */
function parsePage(v: string | null): { url: PageUrl; pathOnly: boolean } | null {
  if (!v) return null
  const pathOnly = v.startsWith('/')
  const url = parseHttpUrl(pathOnly ? PATH_BASE + v : v)
  return url ? { url, pathOnly } : null
}

export function buildEvent(o: Observation): EventRow {
  const parsed = parsePage(o.pageUrl)
  const page = parsed && !parsed.pathOnly ? parsed.url : null
  const urlPath = clip(parsed?.url.pathname, 512) ?? UNKNOWN_PATH
  const referrerHost = clip(o.referrer ? (parseHttpUrl(o.referrer)?.hostname ?? null) : null, 253)
  const domain = o.domain ?? page?.hostname ?? null

  const ua = o.userAgent
  const classification = classify(ua)
  const risk = assessRisk({
    classification,
    ua: ua ?? '',
    ip: o.ip,
    headers: {
      secChUa: o.hintsObserved ? o.secChUa : undefined,
      acceptLanguage: o.languageObserved ? o.acceptLanguage : undefined,
      webdriver: o.webdriver,
    },
  })
  let agent = classification.agent
  let agentType: LoadType = classification.type
  if (risk.reasons.includes('spoofed_verified_bot')) {
    agent = `${agent} (spoofed)`
    agentType = 'scraper'
  } else if (agentType === 'human' && risk.reasons.includes('undeclared_automation')) {
    agent = UNDECLARED_AUTOMATION
    agentType = 'scraper'
  }

  let referral: string | null = null
  if (agentType === 'human') {
    const utm = parsed?.url.query.includes('utm_source=') ? readQuery(parsed.url.query, UTM).utm_source : undefined
    referral = (aiReferrer(referrerHost) ?? aiReferrer(utm))?.source ?? null
  }

  const prefix = ipPrefix(o.ip)
  const invalidReason: InvalidReason | null = !o.campaign ? 'unknown_campaign' : o.bad ? 'bad_parameters' : null
  return {
    receivedAt: o.time,
    day: utcDay(o.time),
    clientId: o.campaign?.clientId ?? null,
    campaignId: o.campaign?.id ?? null,
    campaignRef: o.campaign ? null : clip(o.campaignRef, 64),
    source: o.source,
    invalidReason,
    flags: storedFlags(o.flags, risk.reasons, risk.verified, referral),
    domain: clip(domain, 253),
    // Query strings and fragments often carry personal data: only origin and path are kept.
    pageUrl: page ? clip(page.origin + page.pathname, 2048) : null,
    urlPath,
    referrerHost,
    aiReferrer: referral,
    userAgent: clip(ua, 1024),
    secChUa: clip(o.secChUa, 256),
    secChUaMobile: clip(o.secChUaMobile, 16),
    secChUaPlatform: clip(o.secChUaPlatform, 64),
    acceptLanguage: clip(o.acceptLanguage, 256),
    macros: o.macros,
    agent,
    agentType,
    highRisk: risk.highRisk,
    riskReasons: risk.reasons,
    verified: risk.verified,
    ipPrefix: prefix,
  }
}

// A batch repeats the same few hundred browser strings: their classification is remembered (it
// depends on the string alone). Bounded: cleared when full, so a flood of distinct strings costs
// only the classification itself.
const classified = new Map<string, Classification>()
const CLASSIFIED_MAX = 20_000

function classify(ua: string | undefined): Classification {
  if (ua === undefined) return classifyUserAgent(ua)
  let c = classified.get(ua)
  if (c === undefined) {
    if (classified.size >= CLASSIFIED_MAX) classified.clear()
    c = classifyUserAgent(ua)
    classified.set(ua, c)
  }
  return c
}

/** Stored labels: the parameter flags, then the verdicts (docs/pixel.md, "What is recorded"). */
function storedFlags(flags: string[], reasons: readonly string[], verified: boolean | null, referral: string | null): string[] {
  if (reasons.length === 0 && verified === null && referral === null) return flags
  const out = [...flags]
  for (const r of reasons) out.push(`risk:${r}`)
  if (verified !== null) out.push(verified ? 'verified' : 'unverified')
  if (referral !== null) out.push(`ai_referral:${referral}`)
  return out
}

// Hits of a batch share their day: the last one is remembered.
let lastDay = NaN
let lastDayText = ''
function utcDay(t: Date): string {
  const day = Math.floor(t.getTime() / 86_400_000)
  if (day !== lastDay) {
    lastDay = day
    lastDayText = t.toISOString().slice(0, 10)
  }
  return lastDayText
}
