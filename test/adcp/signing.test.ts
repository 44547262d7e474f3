// RFC 9421 request signing: the verifier against every conformance vector and canonicalization case
// of the AdCP 3.1.19 bundle (on the database-backed key registry and replay cache, both engines),
// and /mcp end to end: signed MCP clients (Ed25519, ES256, with and without Content-Digest),
// replays, tampered bodies, unknown and revoked keys, the webhook-credentials elevation.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'

import type { SignedRequest } from '../../src/adcp/signing/canonical.ts'
import { authority, signatureBase, targetUri } from '../../src/adcp/signing/canonical.ts'
import { runSigningKeyCommand } from '../../src/adcp/signing/commands.ts'
import { SignatureError } from '../../src/adcp/signing/errors.ts'
import { operationsOf } from '../../src/adcp/signing/http.ts'
import { addSigningKeys, revokeSigningKey, verifierStore } from '../../src/adcp/signing/store.ts'
import type { DigestPolicy } from '../../src/adcp/signing/verify.ts'
import { completeVerification, isSigned, signatureRequired, verifyHeaders } from '../../src/adcp/signing/verify.ts'
import { createKey, revokeKey } from '../../src/platform/keys/keys.ts'
import { describeEachEngine } from '../helpers/db.ts'
import { signingVectorsDir } from './compliance/bundle.ts'
import type { Agent } from './helpers.ts'
import { bearer, payload, seedIndex, startAgent } from './helpers.ts'
import type { TestSigningKey } from './signing-helpers.ts'
import { apiKeyIdOf, signatureHeaders, signingFetch, signingKey } from './signing-helpers.ts'

interface Vector {
  id: string
  reference_now: number
  request: { method: string; url: string; headers: Record<string, string>; body: string }
  verifier_capability: { covers_content_digest: DigestPolicy; required_for: string[]; protocol_methods_required_for?: string[] }
  jwks_override?: { keys: Record<string, unknown>[] }
  test_harness_state?: { replay_cache_entries?: { keyid: string; nonce: string; ttl_seconds: number }[]; replay_cache_per_keyid_cap_hit?: { keyid: string } }
  expected_signature_base?: string
  expected_outcome: { success: boolean; error_code?: string }
}

const load = (kind: 'positive' | 'negative'): Vector[] =>
  readdirSync(join(signingVectorsDir(), kind))
    .filter((f) => f.endsWith('.json'))
    .map((f) => ({ id: f.slice(0, -5), ...(JSON.parse(readFileSync(join(signingVectorsDir(), kind, f), 'utf8')) as Omit<Vector, 'id'>) }))

const asSigned = (v: Vector): SignedRequest => ({
  method: v.request.method,
  url: v.request.url,
  headers: Object.fromEntries(Object.entries(v.request.headers).map(([k, x]) => [k.toLowerCase(), [x]])),
})

describeEachEngine('request signing: the AdCP 3.1.19 conformance vectors', (getDb) => {
  const keysJson = () => JSON.parse(readFileSync(join(signingVectorsDir(), 'keys.json'), 'utf8')) as { keys: Record<string, unknown>[] }
  let apiKeyId: number
  const register = (replayCap?: number) =>
    addSigningKeys(getDb().db, { apiKeyId, jwks: keysJson(), revoked: ['test-revoked-2026'], ...(replayCap ? { replayCap } : {}), now: new Date() })

  beforeAll(async () => {
    const k = await createKey(getDb().db, { name: 'signer', now: new Date() })
    apiKeyId = k.key_id
    await register()
  })
  beforeEach(async () => {
    await getDb().db.query('DELETE FROM adcp_signature_nonces')
  })

  /** Verifies a vector as the /mcp gate does: headers, then body; unsigned ones by the elevation rules. */
  async function outcome(v: Vector): Promise<string> {
    const db = getDb().db
    const store = verifierStore(db, () => new Date(v.reference_now * 1000))
    const deps = { ...store, digestPolicy: v.verifier_capability.covers_content_digest }
    for (const e of v.test_harness_state?.replay_cache_entries ?? []) await store.record(e.keyid, e.nonce, v.reference_now, v.reference_now + e.ttl_seconds)
    const capHit = v.test_harness_state?.replay_cache_per_keyid_cap_hit
    if (capHit) {
      await register(1)
      await store.record(capHit.keyid, 'placeholder', v.reference_now, v.reference_now + 360)
    }
    if (v.jwks_override) await addSigningKeys(db, { apiKeyId, jwks: v.jwks_override, now: new Date() })
    try {
      const req = asSigned(v)
      if (!isSigned(req)) {
        const url = new URL(v.request.url)
        const body = JSON.parse(v.request.body) as unknown
        const ops = url.pathname.startsWith('/adcp/') ? [url.pathname.split('/').pop()!] : operationsOf(body)
        const required = signatureRequired(ops, body, [...v.verifier_capability.required_for, ...(v.verifier_capability.protocol_methods_required_for ?? [])])
        return required ? required.code : 'accepted'
      }
      const verified = await verifyHeaders(req, v.request.body.length > 0, deps)
      await completeVerification(req, verified, Buffer.from(v.request.body), deps)
      return 'accepted'
    } catch (err) {
      if (err instanceof SignatureError) return err.code
      throw err
    } finally {
      if (capHit) await register()
    }
  }

  it.each(load('positive').map((v) => [v.id, v] as const))('positive %s verifies, over the expected signature base', async (_id, v) => {
    const req = asSigned(v)
    const input = v.request.headers['Signature-Input']!
    const components = [...input.slice(input.indexOf('(') + 1, input.indexOf(')')).matchAll(/"([^"]+)"/g)].map((m) => m[1]!)
    // 004 (two labels) ships no base: the verifier must pick sig1
    if (v.expected_signature_base)
      expect(signatureBase(req, components, input.slice(input.indexOf('=') + 1).replace(/, sig2=.*$/, ''))).toBe(v.expected_signature_base)
    expect(await outcome(v)).toBe('accepted')
  })

  it.each(load('negative').map((v) => [v.id, v] as const))('negative %s is refused with its error code', async (_id, v) => {
    expect(await outcome(v)).toBe(v.expected_outcome.error_code)
  })

  it('registers keys by command: public members only, kids checked, revocation; unknown keys and kids refused', async () => {
    const db = getDb().db
    const clock = { now: () => new Date() }
    const key = signingKey('command-ed25519')
    const withPrivate = { ...key.jwk, d: 'c2VjcmV0', _private_d_for_test_only: 'c2VjcmV0' }
    const added = (await runSigningKeyCommand(db, clock, {
      cmd: 'keys.signing.add',
      args: { keyId: apiKeyId, jwks: JSON.stringify({ keys: [withPrivate] }), replayCap: 10 },
    })) as {
      kid: string
      replay_cap: number
    }[]
    expect(added).toMatchObject([{ kid: 'command-ed25519', api_key_id: apiKeyId, adcp_use: 'request-signing', alg: 'EdDSA', replay_cap: 10, revoked_at: null }])
    const { rows } = await db.query<{ jwk: unknown }>(`SELECT jwk FROM adcp_signing_keys WHERE kid = 'command-ed25519'`)
    expect(JSON.stringify(rows[0]!.jwk)).not.toMatch(/"d"|_private/)
    await expect(runSigningKeyCommand(db, clock, { cmd: 'keys.signing.add', args: { keyId: 999999, jwks: { keys: [key.jwk] } } })).rejects.toThrow(
      /no live API key/,
    )
    await expect(
      runSigningKeyCommand(db, clock, { cmd: 'keys.signing.add', args: { keyId: apiKeyId, jwks: { keys: [key.jwk] }, revoked: ['other'] } }),
    ).rejects.toThrow(/not a kid/)
    await expect(runSigningKeyCommand(db, clock, { cmd: 'keys.signing.add', args: { keyId: apiKeyId, jwks: { nope: 1 } } })).rejects.toThrow(/JWKS/)
    expect(await runSigningKeyCommand(db, clock, { cmd: 'keys.signing.revoke', args: { kid: 'command-ed25519' } })).toEqual({
      kid: 'command-ed25519',
      revoked: true,
    })
    await expect(runSigningKeyCommand(db, clock, { cmd: 'keys.signing.revoke', args: { kid: 'never-registered' } })).rejects.toThrow(/no signing key/)
    const listed = (await runSigningKeyCommand(db, clock, { cmd: 'keys.signing.list', args: {} })) as { kid: string; revoked_at: string | null }[]
    expect(listed.find((k) => k.kid === 'command-ed25519')?.revoked_at).toEqual(expect.any(String))
    expect(listed.find((k) => k.kid === 'test-revoked-2026')?.revoked_at).toEqual(expect.any(String))
  })

  it('canonicalizes every URL case (an IDN U-label is refused: the signer sends the A-label)', () => {
    const { cases } = JSON.parse(readFileSync(join(signingVectorsDir(), 'canonicalization.json'), 'utf8')) as {
      cases: { name: string; input_url: string; reject?: boolean; expected_target_uri?: string; expected_authority?: string }[]
    }
    for (const c of cases) {
      if (c.reject || [...c.input_url].some((ch) => ch.charCodeAt(0) > 0x7f)) {
        expect(() => targetUri(c.input_url), c.name).toThrow(SignatureError)
        continue
      }
      expect([targetUri(c.input_url), authority(c.input_url)], c.name).toEqual([c.expected_target_uri, c.expected_authority])
    }
  })
})

describeEachEngine('request signing at /mcp', (getDb) => {
  let agent: Agent
  let ed: TestSigningKey
  let es: TestSigningKey
  let owner: { clientId: number; key: string }
  const now = () => Math.floor(agent.clock.now().getTime() / 1000)
  const signedClient = async (key: TestSigningKey, digest = false): Promise<Client> => {
    const c = new McpClient({ name: 'signer', version: '1' })
    await c.connect(new StreamableHTTPClientTransport(new URL(agent.mcpUrl), { fetch: signingFetch(key, { digest }, now) }))
    return c
  }
  const rpc = (name: string, args: Record<string, unknown>) =>
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } })
  const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
  const post = (body: string, headers: Record<string, string>) => fetch(agent.mcpUrl, { method: 'POST', headers, body })
  const challenge = (res: Response) => res.headers.get('www-authenticate')

  beforeAll(async () => {
    agent = await startAgent(getDb().db)
    await seedIndex(agent)
    owner = await agent.client('signing agency')
    ed = signingKey('agency-ed25519')
    es = signingKey('agency-es256', 'ecdsa-p256-sha256')
    const gov = signingKey('agency-gov', 'ed25519', 'governance-signing')
    await addSigningKeys(agent.ctx.db, {
      apiKeyId: await apiKeyIdOf(agent.ctx.db, owner.clientId),
      jwks: { keys: [ed.jwk, es.jwk, gov.jwk] },
      now: agent.clock.now(),
    })
  })
  afterAll(async () => {
    await agent?.close()
  })

  it('declares request_signing in get_adcp_capabilities', async () => {
    const c = await signedClient(ed)
    const caps = payload(await c.callTool({ name: 'get_adcp_capabilities', arguments: {} }))
    expect(caps.request_signing).toMatchObject({ supported: true, covers_content_digest: 'either', required_for: [] })
    expect((caps.request_signing as { supported_for: string[] }).supported_for).toContain('activate_signal')
    await c.close()
  })

  it('serves signed MCP clients as the key owner, Ed25519 and ES256, with or without Content-Digest', async () => {
    for (const [key, digest] of [
      [ed, false],
      [ed, true],
      [es, false],
      [es, true],
    ] as const) {
      const c = await signedClient(key, digest)
      const r = payload<{ signals: unknown[] }>(await c.callTool({ name: 'get_signals', arguments: { signal_spec: 'sports fans' } }))
      expect(r.signals.length).toBeGreaterThan(0)
      await c.close()
    }
  })

  it('refuses a replay, a tampered body, an unknown or wrong-purpose key and an expired signature, each with its code', async () => {
    const body = rpc('get_signals', { signal_spec: 'sports fans' })
    const signed = signatureHeaders(ed, agent.mcpUrl, body, base, { digest: true, created: now() })
    expect((await post(body, signed)).status).toBe(200)
    const replayed = await post(body, signed)
    expect([replayed.status, challenge(replayed)]).toEqual([401, 'Signature error="request_signature_replayed"'])
    expect(await replayed.json()).toMatchObject({ error: 'unauthorized' })

    const tampered = signatureHeaders(ed, agent.mcpUrl, body, base, { digest: true, created: now() })
    const res = await post(rpc('get_signals', { signal_spec: 'finance' }), tampered)
    expect(challenge(res)).toBe('Signature error="request_signature_digest_mismatch"')

    const cases: [TestSigningKey, Parameters<typeof signatureHeaders>[4], string][] = [
      [signingKey('nobody-knows-me'), {}, 'request_signature_key_unknown'],
      [signingKey('agency-gov'), {}, 'request_signature_key_purpose_invalid'],
      [ed, { created: now() - 400 }, 'request_signature_window_invalid'],
      [ed, { window: 301 }, 'request_signature_window_invalid'],
      [ed, { components: ['@method', '@target-uri', 'content-type'] }, 'request_signature_components_incomplete'],
    ]
    for (const [key, o, code] of cases) {
      const r = await post(body, signatureHeaders(key, agent.mcpUrl, body, base, { created: now(), ...o }))
      expect([r.status, challenge(r)], code).toEqual([401, `Signature error="${code}"`])
    }
  })

  it('refuses the signatures of a revoked signing key, and of a key whose API key is revoked', async () => {
    const other = await agent.client('revoked agency')
    const a = signingKey('revoked-a')
    const b = signingKey('revoked-b')
    const apiKeyId = await apiKeyIdOf(agent.ctx.db, other.clientId)
    await addSigningKeys(agent.ctx.db, { apiKeyId, jwks: { keys: [a.jwk, b.jwk] }, now: agent.clock.now() })
    const body = rpc('get_signals', { signal_spec: 'sports fans' })
    expect((await post(body, signatureHeaders(a, agent.mcpUrl, body, base, { created: now() }))).status).toBe(200)
    await revokeSigningKey(agent.ctx.db, 'revoked-a', agent.clock.now())
    expect(challenge(await post(body, signatureHeaders(a, agent.mcpUrl, body, base, { created: now() })))).toBe(
      'Signature error="request_signature_key_revoked"',
    )
    await revokeKey(agent.ctx.db, apiKeyId, agent.clock.now())
    expect(challenge(await post(body, signatureHeaders(b, agent.mcpUrl, body, base, { created: now() })))).toBe(
      'Signature error="request_signature_key_revoked"',
    )
  })

  it('requires a signature to register webhook credentials, whatever bearer is sent; a bad bearer alone is still 401 Bearer', async () => {
    const pnc = {
      url: 'https://buyer.example.com/hook',
      authentication: { schemes: ['HMAC-SHA256'], credentials: 'a-shared-secret-of-at-least-32-characters' },
    }
    const body = rpc('get_signals', { signal_spec: 'sports fans', push_notification_config: pnc })
    for (const auth of [bearer(owner.key), bearer('test-bearer-token'), {}]) {
      const r = await post(body, { ...base, ...auth })
      expect([r.status, challenge(r)]).toEqual([401, 'Signature error="request_signature_required"'])
    }
    const plain = await post(rpc('get_signals', { signal_spec: 'sports fans' }), { ...base, ...bearer('test-bearer-token') })
    expect(plain.status).toBe(401)
    expect(challenge(plain)).toMatch(/^Bearer realm="curata".*error="invalid_token"/)
    const signed = await post(body, signatureHeaders(ed, agent.mcpUrl, body, base, { created: now() }))
    expect(signed.status).toBe(200)
  })
})
