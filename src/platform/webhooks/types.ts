import type { Static } from '@sinclair/typebox'

import type { Delivery as DeliverySchema, Webhook as WebhookSchema } from './schemas.ts'

export type Webhook = Static<typeof WebhookSchema>
export type Delivery = Static<typeof DeliverySchema>
