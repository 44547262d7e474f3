import { Type } from '@sinclair/typebox'

import type { Feature } from '../platform/http/app.ts'
import { errorResponses } from '../platform/http/schemas.ts'
import { listCampaigns, registerCampaign } from './repository.ts'
import { RegisterCampaignBody, RegisteredCampaign } from './schemas.ts'

/** Campaign registration group (spec 2.5, 4.8). */
export const snowballFeature: Feature = {
  prefix: '/v1/snowball',
  routes(app, ctx) {
    app.post(
      '/campaigns',
      {
        schema: {
          tags: ['snowball'],
          summary: 'Register a campaign',
          body: RegisterCampaignBody,
          response: { 201: RegisteredCampaign, ...errorResponses(400, 415, 422) },
        },
      },
      async (req, reply) => {
        const row = await registerCampaign(ctx.db, req.principal!.clientId, req.body.description, ctx.clock.now())
        reply.code(201)
        return row as unknown as RegisteredCampaign
      },
    )

    app.get(
      '/campaigns',
      {
        schema: {
          tags: ['snowball'],
          summary: "List this key's registered campaigns",
          response: { 200: Type.Array(RegisteredCampaign), ...errorResponses() },
        },
      },
      async (req) => (await listCampaigns(ctx.db, req.principal!.clientId)) as unknown as RegisteredCampaign[],
    )
  },
}
