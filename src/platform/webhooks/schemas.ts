import { Type } from '@sinclair/typebox'

import { Id, NullableTimestamp, nullable, StringEnum, Timestamp } from '../http/schemas.ts'
import { webhookEventTypes } from './events.ts'

export const MAX_WEBHOOK_URL = 2048
/** Subscriptions one client may have. */
export const MAX_SUBSCRIPTIONS = 20

export const EventType = StringEnum(webhookEventTypes, { description: 'an event type (docs/webhooks.md lists them)' })

export const CreateWebhookBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: MAX_WEBHOOK_URL, description: 'http(s) URL receiving POSTs; it must reach a public address' }),
    event_types: Type.Array(EventType, { minItems: 1, maxItems: webhookEventTypes.length, uniqueItems: true }),
    description: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
)

export const Webhook = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  event_types: Type.Array(Type.String()),
  description: nullable(Type.String()),
  status: StringEnum(['active', 'failing'] as const, {
    description: '`failing` once a delivery has exhausted its retries; the next successful delivery makes it `active` again',
  }),
  failing_since: NullableTimestamp,
  created_date: Timestamp,
})

export const CreatedWebhook = Type.Composite([
  Webhook,
  Type.Object({ secret: Type.String({ description: 'the signing secret (`whsec_…`): shown only in this answer' }) }),
])

export const Delivery = Type.Object({
  id: Type.Integer(),
  webhook_id: Type.String({ description: 'the `webhook-id` header: the same on every attempt and redelivery' }),
  event_type: Type.String(),
  status: StringEnum(['pending', 'delivered', 'failed'] as const),
  attempts: Type.Integer(),
  next_attempt_date: NullableTimestamp,
  last_attempt_date: NullableTimestamp,
  last_response_status: nullable(Type.Integer()),
  last_error: nullable(Type.String()),
  delivered_date: NullableTimestamp,
  created_date: Timestamp,
  payload: Type.Unknown({ description: 'the body sent' }),
})

export const DeliveryParams = Type.Object({ id: Id, deliveryId: Id })

export const DeliveryQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0 })),
  status: Type.Optional(StringEnum(['pending', 'delivered', 'failed'] as const)),
})
