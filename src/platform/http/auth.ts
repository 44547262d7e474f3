import type { FastifyRequest } from 'fastify'

import type { KeyVerifier } from '../keys/key-cache.ts'
import type { Principal } from '../keys/keys.ts'
import { csrfHeader, csrfMatches, readCookie, sessionCookie } from '../keys/sessions.ts'
import { ApiError } from './errors.ts'

/** The key from `X-API-Key`, or `Authorization: Bearer <key>` (and `x-adcp-auth` for AdCP clients). */
export function presentedKey(headers: FastifyRequest['headers']): string | null {
  const direct = headers['x-api-key'] ?? headers['x-adcp-auth']
  if (typeof direct === 'string' && direct.trim()) return direct.trim()
  const auth = headers.authorization
  if (typeof auth === 'string') {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth)
    if (m) return m[1]!
  }
  return null
}

/** Looks a console session token up (the platform's sessions table, at the request's time). */
export type SessionLookup = (token: string) => Promise<Principal | null>

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * An API key in a header, or else the console's session cookie. A browser sends the cookie by
 * itself, so a write made with it must also carry the session's CSRF token (a header another
 * site cannot set); a key in a header is never sent by a browser unasked.
 */
export async function authenticate(keys: KeyVerifier, req: Pick<FastifyRequest, 'headers' | 'method'>, sessions?: SessionLookup): Promise<Principal> {
  const key = presentedKey(req.headers)
  if (!key) {
    const token = sessions ? readCookie(req.headers.cookie, sessionCookie) : null
    if (token && sessions) {
      const principal = await sessions(token)
      if (!principal) throw new ApiError(401, 'unauthorized', 'the console session has expired or was signed out: sign in again')
      const presented = req.headers[csrfHeader]
      if (!safeMethods.has(req.method) && !csrfMatches(token, typeof presented === 'string' ? presented : undefined)) {
        throw new ApiError(403, 'forbidden', `a write made with the console session needs its CSRF token in the ${csrfHeader} header`)
      }
      return principal
    }
    throw new ApiError(401, 'unauthorized', 'missing API key: send it in the X-API-Key header')
  }
  const principal = await keys.verify(key)
  if (!principal) throw new ApiError(401, 'unauthorized', 'invalid or revoked API key')
  return principal
}
