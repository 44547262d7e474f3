import type { Static } from '@sinclair/typebox'
import { Type } from '@sinclair/typebox'

import { Id, Timestamp } from '../platform/http/schemas.ts'

export const RegisteredCampaign = Type.Object(
  {
    id: Id,
    client_id: Id,
    description: Type.String(),
    created_date: Timestamp,
    last_updated_date: Timestamp,
    deleted: Type.Boolean(),
  },
  { title: 'RegisteredCampaign' },
)
export type RegisteredCampaign = Static<typeof RegisteredCampaign>

export const RegisterCampaignBody = Type.Object(
  {
    // The spec sends client_id; the key decides the client, so the value is accepted and ignored.
    client_id: Type.Optional(
      Type.Union([Type.String({ maxLength: 200 }), Type.Integer(), Type.Null()], {
        description: 'ignored: the client is the one the API key belongs to',
      }),
    ),
    description: Type.String({ minLength: 1, maxLength: 10_000 }),
  },
  { title: 'RegisterCampaignRequest' },
)
export type RegisterCampaignBody = Static<typeof RegisterCampaignBody>

export const UpdateCampaignBody = Type.Object(
  { description: Type.String({ minLength: 1, maxLength: 10_000 }) },
  { title: 'UpdateCampaignRequest', additionalProperties: false },
)
export type UpdateCampaignBody = Static<typeof UpdateCampaignBody>
