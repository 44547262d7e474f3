// High-risk rules (docs/agents.md, "High risk"; MRC SIVT "bots masquerading"):
//   spoofed_verified_bot   the UA names an agent whose operator publishes IP ranges, and the IP is outside them,
//                          or names a robots.txt-only token (Google-Extended) that its operator never sends;
//   undeclared_automation  a browser-like UA with >= 2 independent automation signals;
//   ignores_robots         an agent known not to honour robots.txt (ai.robots.txt `respect: No`). The note
//                          scopes this to fetching disallowed paths; the pixel does not see robots.txt, so
//                          the agent itself is flagged.
// The note's other signals (datacenter ASN, missing Sec-Fetch-*) are not inputs here.

import type { Classification } from './classify.ts'
import { agentRecord } from './classify.ts'
import { isInOperatorRanges } from './verify.ts'

export type RiskReason = 'spoofed_verified_bot' | 'undeclared_automation' | 'ignores_robots'

export interface RiskInput {
  classification: Classification
  ua: string
  /** null when only a truncated/hashed form is kept: range verification is then unknown. */
  ip: string | null
  /** Leave a field undefined when it was not observed; null or '' means the request lacked it. */
  headers?: { secChUa?: string | null; acceptLanguage?: string | null; webdriver?: boolean }
}

export interface RiskVerdict {
  highRisk: boolean
  reasons: RiskReason[]
  /** Range verification: true inside, false outside complete lists, null when not applicable or unknown. */
  verified: boolean | null
}

export function assessRisk(input: RiskInput): RiskVerdict {
  const { classification, ip } = input
  const ua = typeof input.ua === 'string' ? input.ua : ''
  const record = agentRecord(classification.agent)
  const reasons: RiskReason[] = []

  let verified: boolean | null = null
  if (record?.robots_only) {
    // The operator never sends this name (it is a robots.txt opt-out token), so no request carrying it is theirs.
    verified = false
    reasons.push('spoofed_verified_bot')
  } else if (record?.verify && typeof ip === 'string') {
    verified = isInOperatorRanges(record.verify.ranges_key, ip)
    if (verified === false) reasons.push('spoofed_verified_bot')
  }
  const browserLike = classification.type === 'human' || record?.headless === true
  if (browserLike && BROWSER_UA.test(ua) && automationSignals(ua, record?.headless === true, input.headers) >= 2) {
    reasons.push('undeclared_automation')
  }
  if (record?.ignores_robots) reasons.push('ignores_robots')
  return { highRisk: reasons.length > 0, reasons, verified }
}

const BROWSER_UA = /^Mozilla\/5\.0 \(/
// A Chromium browser that sends Sec-CH-UA on every HTTPS request (Chrome/Edge/Opera 90+ on desktop and
// Android). iOS browsers (CriOS, EdgiOS: WebKit), Android WebViews ("; wv)") and other Chromium
// derivatives are left out: whether they send client hints varies.
const CHROMIUM_UA = / Chrome\/(\d+)\.[\d.]+ (?:Mobile )?Safari\/537\.36(?: (?:Edg|OPR)\/[\d.]+)?$/
const WEBVIEW = /; wv\)/
const HEADLESS_BRAND = /HeadlessChrome/i

/** Counts independent signal groups (docs/agents.md): automation marker, client hints, Accept-Language. */
function automationSignals(ua: string, headlessUa: boolean, h: RiskInput['headers']): number {
  let n = 0
  if (headlessUa || h?.webdriver === true || (h?.secChUa && HEADLESS_BRAND.test(h.secChUa))) n++
  if (h && h.acceptLanguage !== undefined && !h.acceptLanguage?.trim()) n++
  if (h && h.secChUa !== undefined && clientHintsMismatch(ua, h.secChUa)) n++
  return n
}

function clientHintsMismatch(ua: string, secChUa: string | null): boolean {
  const chrome = WEBVIEW.test(ua) ? null : CHROMIUM_UA.exec(ua)
  const hints = secChUa?.trim() ?? ''
  if (!hints) return chrome !== null && Number(chrome[1]) >= 90 // Chrome would have sent them
  if (!/Chrome\/\d/.test(ua)) return true // Firefox and Safari never send Sec-CH-UA
  if (!chrome) return false
  // Brand versions must include the UA's major version ("Chromium";v="124").
  const major = chrome[1]
  for (const m of hints.matchAll(/;\s*v="(\d+)/g)) if (m[1] === major) return false
  return true
}
