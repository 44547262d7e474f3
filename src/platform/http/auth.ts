import type { FastifyRequest } from 'fastify'

import type { KeyVerifier } from '../keys/key-cache.ts'
import type { Principal } from '../keys/keys.ts'
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

export async function authenticate(keys: KeyVerifier, headers: FastifyRequest['headers']): Promise<Principal> {
  const key = presentedKey(headers)
  if (!key) throw new ApiError(401, 'unauthorized', 'missing API key: send it in the X-API-Key header')
  const principal = await keys.verify(key)
  if (!principal) throw new ApiError(401, 'unauthorized', 'invalid or revoked API key')
  return principal
}
