// Signing secrets (docs/webhooks.md, "Secrets"). A subscription's secret is shown once, when it is
// created; the service needs it again for every delivery, so it is stored encrypted (AES-256-GCM)
// under the webhook key: WEBHOOK_SECRET_KEY when set, else a random key generated once and kept in
// the database (then a copy of the database alone is enough to read the secrets: set the variable
// to keep the key elsewhere). Secrets never reach a log line or an API answer after creation.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'

import type { Db } from '../db/db.ts'

export interface SecretCipher {
  encrypt(plain: string): string
  decrypt(sealed: string): string
}

/** A Standard Webhooks secret: `whsec_` and 24 random bytes in base64 (what verifiers base64-decode). */
export function generateSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`
}

/**
 * The HMAC key of a secret: for `whsec_…` the bytes after the prefix, base64-decoded (as Standard
 * Webhooks verifiers read it); any other secret (one a caller chose, e.g. an AdCP buyer) as UTF-8.
 */
export function secretKeyBytes(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice('whsec_'.length), 'base64') : Buffer.from(secret, 'utf8')
}

const VERSION = 'v1'

export function secretCipher(key: Buffer): SecretCipher {
  if (key.length !== 32) throw new Error('the webhook key must be 32 bytes')
  return {
    encrypt(plain) {
      const iv = randomBytes(12)
      const c = createCipheriv('aes-256-gcm', key, iv)
      const ct = Buffer.concat([c.update(plain, 'utf8'), c.final()])
      return [VERSION, iv.toString('base64url'), c.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.')
    },
    decrypt(sealed) {
      const [v, iv, tag, ct] = sealed.split('.')
      if (v !== VERSION || !iv || !tag || ct === undefined) throw new Error('not a sealed webhook secret')
      const d = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
      d.setAuthTag(Buffer.from(tag, 'base64url'))
      return Buffer.concat([d.update(Buffer.from(ct, 'base64url')), d.final()]).toString('utf8')
    },
  }
}

/**
 * The process's cipher, built once at start-up: under WEBHOOK_SECRET_KEY (hashed to 32 bytes) when
 * set, otherwise under the key generated once and kept in the database, so every process agrees.
 */
export async function createSecretCipher(db: Db, configured: string | null): Promise<SecretCipher> {
  if (configured !== null) return secretCipher(createHash('sha256').update(configured, 'utf8').digest())
  await db.query(`INSERT INTO webhook_key (id, key, created_at) VALUES (1, $1, now()) ON CONFLICT (id) DO NOTHING`, [randomBytes(32).toString('base64url')])
  const { rows } = await db.query<{ key: string }>('SELECT key FROM webhook_key WHERE id = 1')
  return secretCipher(Buffer.from(rows[0]!.key, 'base64url'))
}
