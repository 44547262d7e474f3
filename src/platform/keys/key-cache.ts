import type { Db } from '../db/db.ts'
import type { Principal } from './keys.ts'
import { hashKey, keysChannel, verifyKey } from './keys.ts'

/**
 * Verified keys, remembered on the embedded engine so a request does not pay a database round trip
 * for auth. There every revocation passes through this one process (directly or via the control
 * socket) and its NOTIFY evicts the key before the revoke returns; the TTL is only a safety net.
 * On PostgreSQL another process may revoke, and NOTIFY arrives asynchronously, so every request is
 * checked against the database: a revoked key is refused at once. Unknown keys are never cached.
 */
export function createKeyVerifier(db: Db, opts: { ttlMs?: number; maxEntries?: number; now?: () => number } = {}) {
  const ttlMs = db.engine === 'pglite' ? (opts.ttlMs ?? 60_000) : 0
  const maxEntries = opts.maxEntries ?? 10_000
  const now = opts.now ?? Date.now
  const cache = new Map<string, { principal: Principal; expires: number }>()
  let unlisten: (() => Promise<void>) | null = null

  return {
    async start(): Promise<void> {
      if (ttlMs > 0) unlisten = await db.listen(keysChannel, () => cache.clear())
    },
    async stop(): Promise<void> {
      await unlisten?.()
      unlisten = null
    },
    async verify(key: string): Promise<Principal | null> {
      const hash = hashKey(key)
      const hit = cache.get(hash)
      if (hit && hit.expires > now()) return hit.principal
      cache.delete(hash)
      const principal = await verifyKey(db, key)
      if (principal && ttlMs > 0) {
        if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!)
        cache.set(hash, { principal, expires: now() + ttlMs })
      }
      return principal
    },
  }
}

export type KeyVerifier = ReturnType<typeof createKeyVerifier>
