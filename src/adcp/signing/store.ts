/**
 * Where the verifier's state lives (migrations/0019): the registered public keys, bound to an API
 * key (a signed request acts for that key's client), and the replay cache of (keyid, nonce), in
 * the database so every API process shares it. Expired nonces are pruned at most once a minute.
 */
import type { Queryable } from '../../platform/db/db.ts'
import type { Principal } from '../../platform/keys/keys.ts'
import type { RegisteredKey, VerifierDeps } from './verify.ts'

/** The production floor of the per-key nonce cap (AdCP security.mdx: at least 1,000,000 per keyid). */
export const defaultReplayCap = 1_000_000

export interface SigningKeyRow {
  kid: string
  api_key_id: number
  client_id: number
  adcp_use: string | null
  alg: string | null
  replay_cap: number
  revoked_at: string | null
  created_at: string
}

const toSec = (d: Date) => Math.floor(d.getTime() / 1000)
const toDate = (sec: number) => new Date(sec * 1000)

export function verifierStore(db: Queryable, now: () => Date): Omit<VerifierDeps<Principal>, 'digestPolicy'> {
  let prunedAt = 0
  return {
    nowSec: () => toSec(now()),
    async findKey(kid): Promise<RegisteredKey<Principal> | null> {
      const { rows } = await db.query<{
        jwk: Record<string, unknown>
        replay_cap: number
        revoked: boolean
        api_key_id: number
        client_id: number
        live: boolean
      }>(
        `SELECT s.jwk, s.replay_cap, s.revoked_at IS NOT NULL AS revoked, s.api_key_id, s.client_id, k.revoked_at IS NULL AS live
           FROM adcp_signing_keys s JOIN api_keys k ON k.id = s.api_key_id WHERE s.kid = $1`,
        [kid],
      )
      const r = rows[0]
      if (!r) return null
      const jwk = typeof r.jwk === 'string' ? (JSON.parse(r.jwk) as Record<string, unknown>) : r.jwk
      return {
        kid,
        jwk,
        revoked: r.revoked,
        replayCap: r.replay_cap,
        principal: r.live ? { keyId: Number(r.api_key_id), clientId: Number(r.client_id) } : null,
      }
    },
    async recentNonces(kid, sinceSec, limit) {
      const { rows } = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM (SELECT 1 FROM adcp_signature_nonces WHERE kid = $1 AND created_at > $2 LIMIT $3) t`,
        [kid, toDate(sinceSec), limit],
      )
      return rows[0]?.n ?? 0
    },
    async seen(kid, nonce, nowSec) {
      const { rows } = await db.query('SELECT 1 FROM adcp_signature_nonces WHERE kid = $1 AND nonce = $2 AND expires_at > $3', [kid, nonce, toDate(nowSec)])
      return rows.length > 0
    },
    async record(kid, nonce, nowSec, expiresSec) {
      if (nowSec - prunedAt >= 60) {
        prunedAt = nowSec
        await db.query('DELETE FROM adcp_signature_nonces WHERE expires_at <= $1', [toDate(nowSec)])
      }
      // An expired row for the same pair may linger until the next prune: take it over.
      const { rows } = await db.query(
        `INSERT INTO adcp_signature_nonces (kid, nonce, created_at, expires_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (kid, nonce) DO UPDATE SET created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
           WHERE adcp_signature_nonces.expires_at <= EXCLUDED.created_at
         RETURNING 1`,
        [kid, nonce, toDate(nowSec), toDate(expiresSec)],
      )
      return rows.length > 0
    },
  }
}

/** Registers (or replaces) the public keys of a JWKS for an API key. Private members are refused. */
export async function addSigningKeys(
  db: Queryable,
  opts: { apiKeyId: number; jwks: unknown; revoked?: string[]; replayCap?: number; now: Date },
): Promise<SigningKeyRow[]> {
  const keys = (opts.jwks as { keys?: unknown })?.keys
  if (!Array.isArray(keys) || keys.length === 0) throw new Error('the JWKS must be {"keys": [...]} with at least one key')
  const { rows: owner } = await db.query<{ client_id: number }>('SELECT client_id FROM api_keys WHERE id = $1 AND revoked_at IS NULL', [opts.apiKeyId])
  if (!owner[0]) throw new Error(`no live API key with id ${opts.apiKeyId}`)
  const cap = opts.replayCap ?? defaultReplayCap
  if (!Number.isInteger(cap) || cap < 1) throw new Error('the replay cap must be a positive integer')
  const kids = new Set<string>()
  for (const k of keys as Record<string, unknown>[]) {
    if (typeof k?.kid !== 'string' || !k.kid) throw new Error('every key needs a kid')
    if (typeof k.kty !== 'string' || typeof k.x !== 'string') throw new Error(`key ${k.kid}: kty and x are required`)
    kids.add(k.kid)
  }
  for (const r of opts.revoked ?? []) if (!kids.has(r)) throw new Error(`--revoked ${r} is not a kid of the JWKS`)
  for (const k of keys as Record<string, unknown>[]) {
    // public members only: the private half (d, and the test vectors' _private_d_for_test_only) is never stored
    const jwk = Object.fromEntries(Object.entries(k).filter(([name]) => name !== 'd' && !name.startsWith('_') && !name.startsWith('$')))
    const revokedAt = opts.revoked?.includes(k.kid as string) ? opts.now : null
    await db.query(
      `INSERT INTO adcp_signing_keys (kid, api_key_id, client_id, jwk, replay_cap, revoked_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (kid) DO UPDATE SET api_key_id = EXCLUDED.api_key_id, client_id = EXCLUDED.client_id, jwk = EXCLUDED.jwk,
         replay_cap = EXCLUDED.replay_cap, revoked_at = EXCLUDED.revoked_at`,
      [k.kid, opts.apiKeyId, owner[0].client_id, JSON.stringify(jwk), cap, revokedAt, opts.now],
    )
  }
  return (await listSigningKeys(db)).filter((r) => kids.has(r.kid))
}

export async function listSigningKeys(db: Queryable): Promise<SigningKeyRow[]> {
  const { rows } = await db.query<{
    kid: string
    api_key_id: number
    client_id: number
    jwk: unknown
    replay_cap: number
    revoked_at: Date | null
    created_at: Date
  }>('SELECT kid, api_key_id, client_id, jwk, replay_cap, revoked_at, created_at FROM adcp_signing_keys ORDER BY created_at, kid')
  return rows.map((r) => {
    const jwk = (typeof r.jwk === 'string' ? JSON.parse(r.jwk) : r.jwk) as Record<string, unknown>
    return {
      kid: r.kid,
      api_key_id: Number(r.api_key_id),
      client_id: Number(r.client_id),
      adcp_use: typeof jwk.adcp_use === 'string' ? jwk.adcp_use : null,
      alg: typeof jwk.alg === 'string' ? jwk.alg : null,
      replay_cap: r.replay_cap,
      revoked_at: r.revoked_at ? new Date(r.revoked_at).toISOString() : null,
      created_at: new Date(r.created_at).toISOString(),
    }
  })
}

export async function revokeSigningKey(db: Queryable, kid: string, now: Date): Promise<boolean> {
  const { rows } = await db.query('UPDATE adcp_signing_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE kid = $1 RETURNING kid', [kid, now])
  return rows.length > 0
}
