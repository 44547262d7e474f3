import { Type } from '@sinclair/typebox'

import type { Feature } from '../platform/http/app.ts'
import { notFound } from '../platform/http/errors.ts'
import { errorResponses, IdempotencyHeaders, IdParams } from '../platform/http/schemas.ts'
import { deleteCampaign, getCampaign, listCampaigns, registerCampaign, updateCampaign } from './repository.ts'
import { RegisterCampaignBody, RegisteredCampaign, UpdateCampaignBody } from './schemas.ts'

/** Campaign registration group (spec 2.5, 4.8). */
export const snowballFeature: Feature = {
  prefix: '/v1/snowball',
  routes(app, ctx) {
    app.post(
      '/campaigns',
      {
        config: { idempotent: true },
        schema: {
          tags: ['snowball'],
          summary: 'Register a campaign',
          headers: IdempotencyHeaders,
          body: RegisterCampaignBody,
          response: { 201: RegisteredCampaign, ...errorResponses(400, 409, 415, 422) },
        },
      },
      async (req, reply) => {
        const row = await registerCampaign(ctx.db, req.principal!.clientId, req.body.description, ctx.clock.now())
        reply.code(201)
        return row
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
      async (req) => listCampaigns(ctx.db, req.principal!.clientId),
    )

    app.get(
      '/campaigns/:id',
      {
        schema: {
          tags: ['snowball'],
          summary: 'Get one registered campaign (not in the spec; 404 for another client’s)',
          params: IdParams,
          response: { 200: RegisteredCampaign, ...errorResponses(400, 404, 422) },
        },
      },
      async (req) => {
        const row = await getCampaign(ctx.db, req.principal!.clientId, req.params.id)
        if (!row) throw notFound('campaign')
        return row
      },
    )

    app.patch(
      '/campaigns/:id',
      {
        schema: {
          tags: ['snowball'],
          summary: 'Change a registered campaign’s description (not in the spec)',
          params: IdParams,
          body: UpdateCampaignBody,
          response: { 200: RegisteredCampaign, ...errorResponses(400, 404, 415, 422) },
        },
      },
      async (req) => {
        const row = await updateCampaign(ctx.db, req.principal!.clientId, req.params.id, req.body.description, ctx.clock.now())
        if (!row) throw notFound('campaign')
        return row
      },
    )

    app.delete(
      '/campaigns/:id',
      {
        schema: {
          tags: ['snowball'],
          summary: 'Delete a registered campaign (soft: answered with deleted true, then no longer listed or found; not in the spec)',
          params: IdParams,
          response: { 200: RegisteredCampaign, ...errorResponses(400, 404, 422) },
        },
      },
      async (req) => {
        const row = await deleteCampaign(ctx.db, req.principal!.clientId, req.params.id, ctx.clock.now())
        if (!row) throw notFound('campaign')
        return row
      },
    )
  },
}
