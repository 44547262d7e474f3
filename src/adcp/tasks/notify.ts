/**
 * A task's push_notification_config webhook: when a task reaches a terminal state, one AdCP webhook
 * payload (mcp-webhook-payload) is queued through the platform's delivery outbox
 * (src/platform/webhooks), which signs, sends and retries it. The payload — its idempotency_key
 * included — is stored once, so every retry carries the same bytes.
 */
import { randomUUID } from 'node:crypto'

import { enqueueDelivery } from '../../platform/webhooks/outbox.ts'
import { checkWebhookUrl } from '../../platform/webhooks/url-check.ts'
import type { AgentDeps } from '../agent.ts'
import { DomainError } from '../results.ts'
import type { PushNotificationConfig } from '../schemas.ts'
import type { TaskRow } from './repository.ts'

interface WebhookAuth {
  token: string | null
  scheme: string | null
  credentials: string | null
}

/** Checks a push_notification_config and seals its secrets for storage with the task. */
export async function webhookFor(deps: AgentDeps, c: PushNotificationConfig | undefined, field: string) {
  if (!c) return null
  const why = await checkWebhookUrl(c.url, deps.ctx.config.scrape.allowPrivate)
  if (why) throw new DomainError('INVALID_REQUEST', `${field}.url ${why}`, 'correctable', `${field}.url`)
  const scheme = c.authentication?.schemes?.[0] ?? null
  const auth: WebhookAuth = { token: c.token ?? null, scheme, credentials: c.authentication?.credentials ?? null }
  const sealed = auth.token || auth.credentials ? deps.ctx.webhooks.cipher.encrypt(JSON.stringify(auth)) : null
  return { url: c.url, operation_id: c.operation_id ?? null, authEnc: sealed }
}

/** Queues the task's terminal webhook, once (a second call for the same state queues nothing). */
export async function notifyTask(deps: AgentDeps, clientId: number, task: TaskRow): Promise<void> {
  if (!task.webhook_url) return
  const { ctx } = deps
  const now = ctx.clock.now()
  const auth: WebhookAuth = task.webhook_auth_enc
    ? JSON.parse(ctx.webhooks.cipher.decrypt(task.webhook_auth_enc))
    : { token: null, scheme: null, credentials: null }
  const payload = {
    idempotency_key: randomUUID(),
    operation_id: task.webhook_operation ?? task.task_id,
    task_id: task.task_id,
    task_type: task.task_type,
    protocol: 'signals',
    status: task.status,
    timestamp: now.toISOString(),
    ...(task.message ? { message: task.message } : {}),
    ...(task.result ? { result: task.result } : {}),
    ...(auth.token ? { token: auth.token } : {}),
  }
  const bearer = auth.scheme === 'Bearer' && auth.credentials ? { authorization: `Bearer ${auth.credentials}` } : undefined
  await enqueueDelivery(ctx.db, ctx.webhooks.cipher, {
    clientId,
    url: task.webhook_url,
    secret: auth.scheme === 'HMAC-SHA256' ? auth.credentials : null,
    ...(bearer ? { headers: bearer } : {}),
    eventType: `adcp.task.${task.status}`,
    payload,
    // The receiver's token travels in the body: stored encrypted, like the credentials.
    ...(auth.token ? { sealed: { redacted: { ...payload, token: '[sealed]' } } } : {}),
    idempotencyKey: `adcp-task:${task.task_id}:${task.created_at.valueOf()}:${task.status}`,
    now,
  })
}
