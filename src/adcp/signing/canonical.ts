/**
 * The AdCP RFC 9421 profile's derived components and signature base (RFC 9421 §2.2, §2.5):
 * `@method` upper-case; `@target-uri` with the host lower-cased, the default port dropped, dot
 * segments removed, userinfo and fragment dropped, percent-encoded unreserved bytes decoded and the
 * other escapes upper-cased, the query kept byte for byte; `@authority` the host[:port] so
 * normalized. A raw non-ASCII host is refused (signers must send the A-label), as is a URL without
 * a host, a bare IPv6 address or a zone identifier.
 */
import { SignatureError } from './errors.ts'

export interface SignedRequest {
  method: string
  url: string
  /** header name (lower-case) → its field values, in order */
  headers: Record<string, string[]>
}

const unreserved = (code: number) =>
  (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || [0x2d, 0x2e, 0x5f, 0x7e].includes(code)

function parseUrl(raw: string): URL {
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(raw)?.[1] ?? ''
  if (!authority.replace(/^[^@]*@/, '').replace(/:\d*$/, '')) throw new SignatureError('request_signature_header_malformed', 'the target URI has no host')
  if ([...authority].some((ch) => ch.charCodeAt(0) > 0x7f))
    throw new SignatureError('request_signature_header_malformed', 'the URL host is not ASCII: send the A-label (Punycode)')
  let u: URL
  try {
    u = new URL(raw)
  } catch {
    throw new SignatureError('request_signature_header_malformed', 'the request URL cannot be parsed')
  }
  if (!u.hostname) throw new SignatureError('request_signature_header_malformed', 'the target URI has no host')
  return u
}

export function targetUri(raw: string): string {
  const u = parseUrl(raw)
  // URL drops a bare "?"; the profile keeps it (a different URI from none)
  const query = u.search || (raw.split('#')[0]!.endsWith('?') ? '?' : '')
  const s = `${u.protocol}//${u.host}${u.pathname}${query}`
  return s.replace(/%([0-9a-fA-F]{2})/g, (m, hex: string) => {
    const code = parseInt(hex, 16)
    return unreserved(code) ? String.fromCharCode(code) : `%${hex.toUpperCase()}`
  })
}

export const authority = (raw: string): string => parseUrl(raw).host.toLowerCase()

/** One field's value as a covered component: its field lines joined with ", " (RFC 9421 §2.1). */
export function fieldValue(req: SignedRequest, name: string): string | undefined {
  const values = req.headers[name]
  return values && values.length ? values.map((v) => v.trim()).join(', ') : undefined
}

const derived = new Set(['@method', '@target-uri', '@authority'])

/** The signature base: one line per covered component, then `@signature-params`, joined by LF. */
export function signatureBase(req: SignedRequest, components: string[], signatureParams: string): string {
  const lines = components.map((c) => {
    let value: string | undefined
    if (c === '@method') value = req.method.toUpperCase()
    else if (c === '@target-uri') value = targetUri(req.url)
    else if (c === '@authority') value = authority(req.url)
    else if (c.startsWith('@') && !derived.has(c))
      throw new SignatureError('request_signature_components_unexpected', `derived component ${c} is not in the AdCP profile`)
    else value = fieldValue(req, c)
    if (value === undefined) throw new SignatureError('request_signature_components_incomplete', `covered component ${c} is not in the request`)
    return `"${c}": ${value}`
  })
  lines.push(`"@signature-params": ${signatureParams}`)
  return lines.join('\n')
}
