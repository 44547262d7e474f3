import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

import type { Queryable } from '../db/db.ts'
import type { Principal } from './keys.ts'

/**
 * Console sessions: an API key exchanged once for a random token kept in an HttpOnly cookie, so the
 * key itself never sits in the browser. The session acts as the key it was made from (same client,
 * same rate limit) until it expires, is signed out, or the key is revoked. Only the token's hash is
 * stored. Writes made with the cookie also need the CSRF token derived from it (docs/console.md).
 */
export const sessionCookie = 'curata_session'
export const csrfHeader = 'x-csrf-token'
export const sessionTtlMs = 12 * 3_600_000

const tokenPattern = /^[A-Za-z0-9_-]{43}$/

const hash = (token: string) => createHash('sha256').update(token).digest('hex')

/** The CSRF token of a session: derived from the secret cookie value, so nothing else is stored. */
export function csrfTokenFor(token: string): string {
  return createHash('sha256').update(`csrf:${token}`).digest('base64url')
}

export function csrfMatches(token: string, presented: string | undefined): boolean {
  if (!presented) return false
  const want = Buffer.from(csrfTokenFor(token))
  const got = Buffer.from(presented)
  return want.length === got.length && timingSafeEqual(want, got)
}

export async function createSession(db: Queryable, principal: Principal, now: Date): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url')
  const expiresAt = new Date(now.getTime() + sessionTtlMs)
  await db.query('INSERT INTO console_sessions (token_hash, api_key_id, client_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)', [
    hash(token),
    principal.keyId,
    principal.clientId,
    now,
    expiresAt,
  ])
  return { token, expiresAt }
}

/** The principal of a live session: not expired, its key not revoked; otherwise null. */
export async function findSession(db: Queryable, token: string, now: Date): Promise<(Principal & { expiresAt: Date }) | null> {
  if (!tokenPattern.test(token)) return null
  const { rows } = await db.query<{ api_key_id: number; client_id: number; expires_at: Date }>(
    `SELECT s.api_key_id, s.client_id, s.expires_at FROM console_sessions s JOIN api_keys k ON k.id = s.api_key_id
      WHERE s.token_hash = $1 AND s.expires_at > $2 AND k.revoked_at IS NULL`,
    [hash(token), now],
  )
  const row = rows[0]
  return row ? { keyId: Number(row.api_key_id), clientId: Number(row.client_id), expiresAt: row.expires_at } : null
}

export async function deleteSession(db: Queryable, token: string): Promise<void> {
  if (tokenPattern.test(token)) await db.query('DELETE FROM console_sessions WHERE token_hash = $1', [hash(token)])
}

export async function pruneSessions(db: Queryable, now: Date): Promise<void> {
  await db.query('DELETE FROM console_sessions WHERE expires_at <= $1', [now])
}

/** The value of one cookie in a Cookie header (no dependency needed for reading one name). */
export function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim()
  }
  return null
}
