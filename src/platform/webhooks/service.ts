import type { Dispatcher } from 'undici'

import type { Db } from '../db/db.ts'
import { createGuardedAgent } from '../net/ssrf-guard.ts'
import type { SecretCipher } from './secrets.ts'
import { createSecretCipher } from './secrets.ts'

/** What webhook delivery needs from the process: the secret cipher and the HTTP connections. */
export interface WebhookService {
  cipher: SecretCipher
  /**
   * The connection pool deliveries go through: guarded like the scraper's (no private, loopback or
   * link-local peer, checked at connect time on every address) unless the private-address switch
   * (SCRAPE_ALLOW_PRIVATE) is on. Chosen per attempt, since the switch is read at use.
   */
  dispatcher(allowPrivate: boolean): Dispatcher
  close(): Promise<void>
}

export interface WebhookContext {
  webhooks: WebhookService
}

export async function createWebhookService(db: Db, secretKey: string | null, timeoutMs: number): Promise<WebhookService> {
  const cipher = await createSecretCipher(db, secretKey)
  const pools = new Map<boolean, Dispatcher>()
  const timeouts = { connectTimeoutMs: timeoutMs, headersTimeoutMs: timeoutMs, idleTimeoutMs: timeoutMs }
  return {
    cipher,
    dispatcher(allowPrivate) {
      let d = pools.get(allowPrivate)
      if (!d) {
        d = createGuardedAgent({ allowPrivate, ...timeouts, connectionsPerOrigin: 16 })
        pools.set(allowPrivate, d)
      }
      return d
    },
    async close() {
      await Promise.all([...pools.values()].map((d) => d.close().catch(() => {})))
      pools.clear()
    },
  }
}
