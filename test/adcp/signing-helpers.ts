/**
 * A request signer per the AdCP RFC 9421 profile, for tests: fresh Ed25519 / P-256 keys, the
 * signature headers of a request, and a fetch that signs every POST (what an MCP client of a
 * signing agent would send).
 */
import type { KeyObject } from 'node:crypto'
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto'

import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'

import { signatureBase } from '../../src/adcp/signing/canonical.ts'
import { addSigningKeys } from '../../src/adcp/signing/store.ts'
import { signingTag } from '../../src/adcp/signing/verify.ts'
import type { Db } from '../../src/platform/db/db.ts'

export interface TestSigningKey {
  kid: string
  alg: 'ed25519' | 'ecdsa-p256-sha256'
  privateKey: KeyObject
  /** the public JWK as a counterparty publishes it */
  jwk: Record<string, unknown>
}

export function signingKey(kid: string, alg: TestSigningKey['alg'] = 'ed25519', adcpUse = 'request-signing'): TestSigningKey {
  const { privateKey, publicKey } = alg === 'ed25519' ? generateKeyPairSync('ed25519') : generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const pub = publicKey.export({ format: 'jwk' })
  return { kid, alg, privateKey, jwk: { ...pub, kid, alg: alg === 'ed25519' ? 'EdDSA' : 'ES256', use: 'sig', key_ops: ['verify'], adcp_use: adcpUse } }
}

export interface SignOptions {
  digest?: boolean
  created?: number
  window?: number
  nonce?: string
  components?: string[]
}

/** The Signature-Input, Signature (and Content-Digest) headers of a POST of `body` to `url`. */
export function signatureHeaders(key: TestSigningKey, url: string, body: string, headers: Record<string, string>, o: SignOptions = {}): Record<string, string> {
  const out: Record<string, string> = { ...headers }
  if (o.digest) out['content-digest'] = `sha-256=:${createHash('sha256').update(body).digest('base64')}:`
  const components = o.components ?? ['@method', '@target-uri', '@authority', 'content-type', ...(o.digest ? ['content-digest'] : [])]
  const created = o.created ?? Math.floor(Date.now() / 1000)
  const params = `(${components.map((c) => `"${c}"`).join(' ')});created=${created};expires=${created + (o.window ?? 300)};nonce="${o.nonce ?? randomBytes(16).toString('base64url')}";keyid="${key.kid}";alg="${key.alg}";tag="${signingTag}"`
  const lower = Object.fromEntries(Object.entries(out).map(([k, v]) => [k.toLowerCase(), [v]]))
  const base = signatureBase({ method: 'POST', url, headers: lower }, components, params)
  const bytes =
    key.alg === 'ed25519'
      ? sign(null, Buffer.from(base), key.privateKey)
      : sign('sha256', Buffer.from(base), { key: key.privateKey, dsaEncoding: 'ieee-p1363' })
  out['signature-input'] = `sig1=${params}`
  out['signature'] = `sig1=:${bytes.toString('base64')}:`
  return out
}

/** A fetch that signs each POST with `key` (for an MCP client's transport), `created` read from `nowSec`. */
export function signingFetch(key: TestSigningKey, o: SignOptions = {}, nowSec?: () => number): typeof fetch {
  return async (input, init) => {
    if ((init?.method ?? 'GET') !== 'POST') return fetch(input, init)
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    const headers: Record<string, string> = {}
    new Headers(init?.headers).forEach((v, k) => {
      headers[k] = v
    })
    const body = typeof init?.body === 'string' ? init.body : ''
    return fetch(input, { ...init, headers: signatureHeaders(key, url, body, headers, { ...o, ...(nowSec ? { created: nowSec() } : {}) }) })
  }
}

/** An MCP client whose every request is signed with `key` (registered for the client with id `clientId`). */
export async function signedMcpClient(db: Db, url: string, clientId: number, key: TestSigningKey, nowSec: () => number): Promise<Client> {
  await addSigningKeys(db, { apiKeyId: await apiKeyIdOf(db, clientId), jwks: { keys: [key.jwk] }, now: new Date(nowSec() * 1000) })
  const client = new Client({ name: 'signing-agent', version: '1' })
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: signingFetch(key, {}, nowSec) }))
  return client
}

/** The id of a client's (first) API key, which `keys signing-add` takes. */
export async function apiKeyIdOf(db: Db, clientId: number): Promise<number> {
  const { rows } = await db.query<{ id: number }>('SELECT id FROM api_keys WHERE client_id = $1 ORDER BY id LIMIT 1', [clientId])
  return Number(rows[0]!.id)
}
