import { Type } from '@sinclair/typebox'

import type { Feature } from '../platform/http/app.ts'
import { notFound } from '../platform/http/errors.ts'
import { errorResponses, IdempotencyHeaders, IdParams } from '../platform/http/schemas.ts'
import type { ActivationContext } from './context.ts'
import { createActivation } from './create.ts'
import { dsps } from './registry.ts'
import { getActivation, listActivations, toActivation } from './repository.ts'
import { Activation, CreateActivationBody, DspEntry } from './schemas.ts'

/** Deal activation (spec 4.2) and the DSP registry. */
export const activationFeature: Feature<ActivationContext> = {
  prefix: '/v1/curation',
  routes(app, ctx) {
    const sandbox = () => ctx.connector.sandbox

    app.get(
      '/dsps',
      {
        schema: {
          tags: ['activation'],
          summary: 'The supported DSPs: use the slug (or an alias) as `dsp` when activating',
          response: { 200: Type.Array(DspEntry), ...errorResponses() },
        },
      },
      async () => [...dsps],
    )

    app.post(
      '/activations',
      {
        config: { idempotent: true },
        schema: {
          tags: ['activation'],
          summary: 'Activate complete segments as a Deal ID on a DSP for a buyer seat',
          headers: IdempotencyHeaders,
          body: CreateActivationBody,
          response: { 201: Activation, ...errorResponses(400, 404, 409, 415, 422) },
        },
      },
      async (req, reply) => {
        const row = await createActivation(ctx, req.principal!.clientId, req.body)
        reply.code(201)
        return toActivation(row, sandbox())
      },
    )

    app.get(
      '/activations',
      { schema: { tags: ['activation'], summary: 'List my activations', response: { 200: Type.Array(Activation), ...errorResponses() } } },
      async (req) => (await listActivations(ctx.db, req.principal!.clientId)).map((r) => toActivation(r, sandbox())),
    )

    app.get(
      '/activations/:id',
      {
        schema: {
          tags: ['activation'],
          summary: 'Get an activation; poll until status is complete (Deal ID set) or failed',
          params: IdParams,
          response: { 200: Activation, ...errorResponses(400, 404, 422) },
        },
      },
      async (req) => {
        const row = await getActivation(ctx.db, req.principal!.clientId, req.params.id)
        if (!row) throw notFound('activation')
        return toActivation(row, sandbox())
      },
    )
  },
}
