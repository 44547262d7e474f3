// Standard Webhooks signatures (https://www.standardwebhooks.com/): HMAC-SHA256 over
// `${webhook-id}.${webhook-timestamp}.${body}` with the secret's bytes, sent as `v1,<base64>`.
import { createHmac } from 'node:crypto'

import { secretKeyBytes } from './secrets.ts'

export function signature(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secretKeyBytes(secret)).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64')
  return `v1,${mac}`
}

/** The headers of one attempt: the id is the message's (stable across retries), the time the attempt's. */
export function signedHeaders(secret: string, messageId: string, timestampSeconds: number, body: string): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signature(secret, messageId, timestampSeconds, body),
  }
}
