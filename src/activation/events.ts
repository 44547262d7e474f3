import type { Queryable } from '../platform/db/db.ts'
import type { WebhookEventType } from '../platform/webhooks/events.ts'
import { emitEvent } from '../platform/webhooks/outbox.ts'
import type { ActivationContext } from './context.ts'
import { getActivation, toActivation } from './repository.ts'

/** The activation's webhook event, in the transaction that changed it: the record as GET returns it. */
export async function emitActivationEvent(
  ctx: ActivationContext,
  tx: Queryable,
  clientId: number,
  id: number,
  type: WebhookEventType,
  now: Date,
): Promise<void> {
  const row = await getActivation(tx, clientId, id)
  if (row) await emitEvent(tx, { clientId, type, data: toActivation(row, ctx.connector.sandbox), now })
}
