// Signed click links (docs/pixel.md, "Clicks"). The redirect goes only where the service itself
// signed it to go: an HMAC-SHA256 of the campaign id and the exact destination, under a server
// secret. Without it the collector would be an open redirect, usable to dress phishing links in
// our host name. The deal and domain parameters are left out of the signature on purpose: the DSP
// fills them at serve time, after the link was signed.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

import type { Db } from '../../platform/db/db.ts'

/** Longest destination accepted, as for page URLs. */
export const MAX_DESTINATION = 2048

/** A signature: the first 128 bits of the HMAC, base64url (22 characters). */
const SIG_BYTES = 16

export interface ClickSigner {
  sign(campaignId: number, destination: string): string
  verify(campaignId: number, destination: string, sig: string): boolean
}

export function clickSigner(secret: Buffer): ClickSigner {
  const mac = (campaignId: number, destination: string) =>
    createHmac('sha256', secret).update(`click:v1\n${campaignId}\n${destination}`).digest().subarray(0, SIG_BYTES)
  return {
    sign: (campaignId, destination) => mac(campaignId, destination).toString('base64url'),
    verify(campaignId, destination, sig) {
      const given = Buffer.from(sig, 'base64url')
      return given.length === SIG_BYTES && given.toString('base64url') === sig && timingSafeEqual(given, mac(campaignId, destination))
    },
  }
}

/**
 * The process's signer, built once at start-up: under PIXEL_CLICK_SECRET (the configuration checks
 * it has at least 32 characters) when set; otherwise under a random secret generated once and kept
 * in the database, so every process and restart signs alike.
 */
export async function createClickSigner(db: Db, configured: string | null): Promise<ClickSigner> {
  return clickSigner(configured !== null ? Buffer.from(configured, 'utf8') : await storedSecret(db))
}

async function storedSecret(db: Db): Promise<Buffer> {
  await db.query(`INSERT INTO pixel_click_secret (id, secret, created_at) VALUES (1, $1, now()) ON CONFLICT (id) DO NOTHING`, [
    randomBytes(32).toString('base64url'),
  ])
  const { rows } = await db.query<{ secret: string }>('SELECT secret FROM pixel_click_secret WHERE id = 1')
  return Buffer.from(rows[0]!.secret, 'utf8')
}

/** A destination the redirect may go to: an absolute http(s) URL, normalized; null otherwise. */
export function clickDestination(v: string): string | null {
  if (v.length > MAX_DESTINATION || !/^https?:\/\//i.test(v)) return null
  try {
    const u = new URL(v)
    if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !u.hostname || u.username || u.password) return null
    return u.href.length > MAX_DESTINATION ? null : u.href
  } catch {
    return null
  }
}
