/**
 * The AdCP request-signing verifier (RFC 9421 profile, "verifier checklist" of AdCP 3.1's
 * security.mdx), step by step, each failure its stable error code:
 *
 *  pre  both Signature and Signature-Input, or neither
 *  1    the headers parse (RFC 8941; no repeated label; covered single-valued fields single)
 *  2    created, expires, nonce, keyid, alg, tag present (strings quoted, times integers)
 *  3    tag is adcp/request-signing/v1          4  alg is ed25519 or ecdsa-p256-sha256
 *  5    expires > created, window ≤ 300 s, now within it give or take 60 s of skew
 *  6    @method, @target-uri, @authority covered (content-type when there is a body);
 *       content-digest as the declared policy says
 *  7    keyid registered                        8  the key is for request signing and fits alg
 *  9    not revoked                             9a the key's nonce rate under its cap
 *  12a  nonce not seen                          10 the signature verifies over the base
 *  11   Content-Digest matches the body (when covered)
 *  12   the nonce is recorded (until expires + skew)
 *
 * Steps 1–10 need only the headers (`verifyHeaders`, run before the body is read); 11 and 12 need
 * the body (`completeVerification`). The revocation, cap and replay checks run before the
 * signature check so that a flood of bad signatures costs no crypto.
 */
import { createHash, createPublicKey, timingSafeEqual, verify } from 'node:crypto'

import type { SignedRequest } from './canonical.ts'
import { fieldValue, signatureBase, targetUri } from './canonical.ts'
import { SignatureError } from './errors.ts'
import type { InnerList } from './structured-fields.ts'
import { isInnerList, parseDictionary, StructuredFieldError, serializeInnerList, Token } from './structured-fields.ts'

export const signingTag = 'adcp/request-signing/v1'
export const maxWindowSeconds = 300
export const skewSeconds = 60
/** The nonce-rate window of the per-key cap (the signed-requests runner contract's window_seconds). */
export const capWindowSeconds = 60
const algs = { ed25519: { jose: 'EdDSA', kty: 'OKP', crv: 'Ed25519' }, 'ecdsa-p256-sha256': { jose: 'ES256', kty: 'EC', crv: 'P-256' } } as const
type Alg = keyof typeof algs
const mandatory = ['@method', '@target-uri', '@authority']

export type DigestPolicy = 'required' | 'forbidden' | 'either'

export interface RegisteredKey<P> {
  kid: string
  jwk: Record<string, unknown>
  revoked: boolean
  replayCap: number
  /** who the key acts for; null when that is gone (its API key revoked) */
  principal: P | null
}

export interface VerifierDeps<P> {
  findKey(kid: string): Promise<RegisteredKey<P> | null>
  /** how many nonces the key recorded since `sinceSec`, counting up to `limit` */
  recentNonces(kid: string, sinceSec: number, limit: number): Promise<number>
  seen(kid: string, nonce: string, nowSec: number): Promise<boolean>
  /** records the nonce until expiresSec; false when it was already there (a concurrent replay) */
  record(kid: string, nonce: string, nowSec: number, expiresSec: number): Promise<boolean>
  nowSec(): number
  digestPolicy: DigestPolicy
}

export interface HeadersVerified<P> {
  kid: string
  nonce: string
  expires: number
  coversDigest: boolean
  principal: P | null
}

const malformed = (message: string) => new SignatureError('request_signature_header_malformed', message)

function sole(req: SignedRequest, name: string): string | undefined {
  const values = req.headers[name]
  if (!values || !values.length) return undefined
  if (values.length > 1) throw malformed(`${name} must be sent once`)
  return values[0]!.trim()
}

/** True when the request carries signature headers at all (else it is an unsigned request). */
export const isSigned = (req: SignedRequest) => Boolean(req.headers['signature']?.length || req.headers['signature-input']?.length)

function parse(req: SignedRequest) {
  const input = sole(req, 'signature-input')
  const sig = sole(req, 'signature')
  if (!input || !sig) throw malformed('Signature and Signature-Input must be sent together')
  try {
    const inputs = parseDictionary(input)
    const label = inputs.has('sig1') ? 'sig1' : inputs.keys().next().value
    const entry = label === undefined ? undefined : inputs.get(label)
    if (!entry || !isInnerList(entry)) throw malformed('Signature-Input must hold a component list')
    const sigEntry = parseDictionary(sig).get(label!)
    if (!sigEntry || isInnerList(sigEntry) || !(sigEntry.value instanceof Uint8Array)) throw malformed(`Signature has no byte sequence labelled ${label}`)
    return { entry, signature: sigEntry.value }
  } catch (err) {
    if (err instanceof StructuredFieldError) throw malformed(`signature headers: ${err.message}`)
    throw err
  }
}

function components(entry: InnerList): string[] {
  return entry.items.map((i) => {
    if (typeof i.value !== 'string') throw malformed('covered components must be strings')
    if (i.params.length) throw new SignatureError('request_signature_components_unexpected', `component parameters (${i.value}) are not in the AdCP profile`)
    return i.value
  })
}

interface SigParams {
  created: number
  expires: number
  nonce: string
  keyid: string
  alg: string
  tag: string
}

function params(entry: InnerList): SigParams {
  const out: Record<string, unknown> = {}
  for (const [k, v] of entry.params) {
    if (['nonce', 'keyid', 'alg', 'tag'].includes(k)) {
      if (typeof v !== 'string') throw malformed(`signature parameter ${k} must be a quoted string`)
      out[k] = v
    } else if (k === 'created' || k === 'expires') {
      if (typeof v !== 'number' || !Number.isInteger(v)) throw malformed(`signature parameter ${k} must be an integer`)
      out[k] = v
    } else if (v instanceof Token || v instanceof Uint8Array) {
      throw malformed(`signature parameter ${k} has an unexpected type`)
    }
  }
  const missing = ['created', 'expires', 'nonce', 'keyid', 'alg', 'tag'].filter((k) => out[k] === undefined)
  if (missing.length) throw new SignatureError('request_signature_params_incomplete', `Signature-Input lacks ${missing.join(', ')}`)
  return out as unknown as SigParams
}

function checkSingleValued(req: SignedRequest, covered: string[]) {
  if (covered.includes('content-type')) {
    const v = sole(req, 'content-type')
    if (v !== undefined && /,/.test(v.replace(/"[^"]*"/g, ''))) throw malformed('a covered Content-Type must be a single value')
  }
  if (covered.includes('content-digest')) {
    const v = sole(req, 'content-digest')
    if (v !== undefined) {
      try {
        parseDictionary(v) // a repeated algorithm is a repeated key: refused by the parser
      } catch (err) {
        if (err instanceof StructuredFieldError) throw malformed(`Content-Digest: ${err.message}`)
        throw err
      }
    }
  }
}

function checkWindow(p: SigParams, now: number) {
  if (p.expires <= p.created) throw new SignatureError('request_signature_window_invalid', 'expires must be after created')
  if (p.expires - p.created > maxWindowSeconds)
    throw new SignatureError('request_signature_window_invalid', `the validity window exceeds ${maxWindowSeconds} s`)
  if (now > p.expires + skewSeconds) throw new SignatureError('request_signature_window_invalid', 'the signature has expired')
  if (now < p.created - skewSeconds) throw new SignatureError('request_signature_window_invalid', 'the signature is created in the future')
}

function checkComponents(covered: string[], hasBody: boolean, policy: DigestPolicy) {
  for (const c of mandatory) if (!covered.includes(c)) throw new SignatureError('request_signature_components_incomplete', `the signature must cover ${c}`)
  if (hasBody && !covered.includes('content-type')) throw new SignatureError('request_signature_components_incomplete', 'the signature must cover content-type')
  const digest = covered.includes('content-digest')
  if (policy === 'required' && !digest) throw new SignatureError('request_signature_components_incomplete', 'this agent requires content-digest coverage')
  if (policy === 'forbidden' && digest) throw new SignatureError('request_signature_components_unexpected', 'this agent forbids content-digest coverage')
}

function checkKeyPurpose(jwk: Record<string, unknown>, alg: Alg) {
  const ops = jwk.key_ops
  if (jwk.adcp_use !== 'request-signing' || (Array.isArray(ops) && !ops.includes('verify'))) {
    throw new SignatureError('request_signature_key_purpose_invalid', `key ${String(jwk.kid)} is not a request-signing key`)
  }
  const want = algs[alg]
  if (jwk.alg !== want.jose || jwk.kty !== want.kty || jwk.crv !== want.crv) {
    throw new SignatureError(
      'request_signature_key_purpose_invalid',
      `key ${String(jwk.kid)} (${String(jwk.alg)}, ${String(jwk.kty)}/${String(jwk.crv)}) does not fit alg ${alg}`,
    )
  }
}

function cryptoVerify(alg: Alg, jwk: Record<string, unknown>, data: Buffer, signature: Uint8Array): boolean {
  try {
    const { kty, crv, x, y } = jwk as { kty: string; crv: string; x: string; y?: string }
    const key = createPublicKey({ key: { kty, crv, x, ...(y ? { y } : {}) }, format: 'jwk' })
    return alg === 'ed25519' ? verify(null, data, key, signature) : verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, signature)
  } catch {
    return false
  }
}

/** Steps 1–10 over the method, URL and headers. `hasBody`: the request has a non-empty body. */
export async function verifyHeaders<P>(req: SignedRequest, hasBody: boolean, deps: VerifierDeps<P>): Promise<HeadersVerified<P>> {
  const { entry, signature } = parse(req)
  const covered = components(entry)
  checkSingleValued(req, covered)
  targetUri(req.url) // a host or URL the profile refuses is malformed whatever is covered
  const p = params(entry)
  if (p.tag !== signingTag) throw new SignatureError('request_signature_tag_invalid', `tag must be ${signingTag}`)
  if (!(p.alg in algs)) throw new SignatureError('request_signature_alg_not_allowed', `alg ${p.alg} is not allowed (ed25519, ecdsa-p256-sha256)`)
  const alg = p.alg as Alg
  const now = deps.nowSec()
  checkWindow(p, now)
  checkComponents(covered, hasBody, deps.digestPolicy)
  const key = await deps.findKey(p.keyid)
  if (!key) throw new SignatureError('request_signature_key_unknown', `no key ${p.keyid} is registered`)
  checkKeyPurpose(key.jwk, alg)
  if (key.revoked || !key.principal) throw new SignatureError('request_signature_key_revoked', `key ${p.keyid} is revoked`)
  if ((await deps.recentNonces(p.keyid, now - capWindowSeconds, key.replayCap)) >= key.replayCap) {
    throw new SignatureError('request_signature_rate_abuse', `key ${p.keyid} signed more than ${key.replayCap} requests in ${capWindowSeconds} s`)
  }
  if (await deps.seen(p.keyid, p.nonce, now)) throw new SignatureError('request_signature_replayed', 'this nonce was already used')
  const base = signatureBase(req, covered, serializeInnerList(entry))
  if (!cryptoVerify(alg, key.jwk, Buffer.from(base, 'utf8'), signature)) throw new SignatureError('request_signature_invalid', 'the signature does not verify')
  return { kid: p.keyid, nonce: p.nonce, expires: p.expires, coversDigest: covered.includes('content-digest'), principal: key.principal }
}

function digestMatches(header: string, body: Buffer): boolean {
  const member = parseDictionary(header).get('sha-256')
  if (!member || isInnerList(member) || !(member.value instanceof Uint8Array)) return false
  const actual = createHash('sha256').update(body).digest()
  return member.value.length === actual.length && timingSafeEqual(member.value, actual)
}

/** Steps 11 and 12, once the body is read. */
export async function completeVerification<P>(req: SignedRequest, verified: HeadersVerified<P>, body: Buffer, deps: VerifierDeps<P>): Promise<void> {
  if (verified.coversDigest) {
    const header = fieldValue(req, 'content-digest')
    if (!header || !digestMatches(header, body)) throw new SignatureError('request_signature_digest_mismatch', 'Content-Digest does not match the body')
  }
  if (!(await deps.record(verified.kid, verified.nonce, deps.nowSec(), verified.expires + skewSeconds))) {
    throw new SignatureError('request_signature_replayed', 'this nonce was already used')
  }
}

/**
 * For an unsigned request: must it have been signed? When its operation is one the agent requires
 * signatures for, or when it carries `push_notification_config.authentication` (webhook credentials
 * must not be registered over a bearer-only channel: AdCP webhook security, downgrade resistance).
 */
export function signatureRequired(operations: string[], body: unknown, requiredFor: readonly string[]): SignatureError | null {
  const op = operations.find((o) => requiredFor.includes(o))
  if (op) return new SignatureError('request_signature_required', `${op} requires a signed request`)
  if (carriesWebhookAuthentication(body, 64)) {
    return new SignatureError('request_signature_required', 'a request carrying push_notification_config.authentication must be signed (RFC 9421)')
  }
  return null
}

function carriesWebhookAuthentication(v: unknown, depth: number): boolean {
  if (depth <= 0 || v === null || typeof v !== 'object') return false
  if (Array.isArray(v)) return v.some((x) => carriesWebhookAuthentication(x, depth - 1))
  const o = v as Record<string, unknown>
  const pnc = o.push_notification_config
  if (pnc && typeof pnc === 'object' && !Array.isArray(pnc)) {
    const auth = (pnc as Record<string, unknown>).authentication
    if (auth && typeof auth === 'object' && Object.keys(auth).length > 0) return true
  }
  return Object.entries(o).some(([k, x]) => k !== 'push_notification_config' && carriesWebhookAuthentication(x, depth - 1))
}
