import { Type } from '@sinclair/typebox'

import type { AppContext } from '../context.ts'
import type { Feature } from '../http/app.ts'
import { ApiError, notFound, unprocessable } from '../http/errors.ts'
import { errorResponses, IdParams } from '../http/schemas.ts'
import { testEventType } from './events.ts'
import { emitTest, enqueueDeliveries } from './outbox.ts'
import type { DeliveryRow } from './repository.ts'
import {
  countSubscriptions,
  createSubscription,
  deleteSubscription,
  deliveryColumns,
  deliveryView,
  getDelivery,
  getSubscription,
  listDeliveries,
  listSubscriptions,
  resetDelivery,
} from './repository.ts'
import { CreatedWebhook, CreateWebhookBody, Delivery, DeliveryParams, DeliveryQuery, MAX_SUBSCRIPTIONS, Webhook } from './schemas.ts'
import { generateSecret } from './secrets.ts'
import type { WebhookContext } from './service.ts'
import { checkWebhookUrl } from './url-check.ts'

const tags = ['webhooks']

/** /v1/webhooks: subscriptions, their deliveries, test events and redelivery (an extension of the spec; docs/webhooks.md). */
export const webhooksFeature: Feature<AppContext & WebhookContext> = {
  prefix: '/v1/webhooks',
  routes(app, ctx) {
    async function owned(clientId: number, id: number) {
      const sub = await getSubscription(ctx.db, clientId, id)
      if (!sub) throw notFound('webhook')
      return sub
    }

    app.post(
      '/',
      {
        schema: {
          tags,
          summary: 'Subscribe a URL to events',
          description:
            'The answer carries the signing secret (`whsec_…`) once; it is stored encrypted and never shown again. Deliveries are signed ' +
            'per Standard Webhooks. The URL must resolve to public addresses only (unless the operator turned SCRAPE_ALLOW_PRIVATE on). ' +
            `At most ${MAX_SUBSCRIPTIONS} subscriptions per client.`,
          body: CreateWebhookBody,
          response: { 201: CreatedWebhook, ...errorResponses(400, 415, 422) },
        },
      },
      async (req, reply) => {
        const clientId = req.principal!.clientId
        const problem = await checkWebhookUrl(req.body.url, ctx.config.scrape.allowPrivate)
        if (problem) throw unprocessable(`url ${problem}`, [{ path: 'body.url', message: problem }])
        if ((await countSubscriptions(ctx.db, clientId)) >= MAX_SUBSCRIPTIONS) {
          throw unprocessable(`at most ${MAX_SUBSCRIPTIONS} webhooks per client; delete one first`)
        }
        const secret = generateSecret()
        const sub = await createSubscription(
          ctx.db,
          clientId,
          { url: req.body.url, eventTypes: req.body.event_types, description: req.body.description ?? null, secretEnc: ctx.webhooks.cipher.encrypt(secret) },
          ctx.clock.now(),
        )
        reply.code(201)
        return { ...sub, secret }
      },
    )

    app.get('/', { schema: { tags, summary: "List this client's webhooks", response: { 200: Type.Array(Webhook), ...errorResponses() } } }, async (req) =>
      listSubscriptions(ctx.db, req.principal!.clientId),
    )

    app.get(
      '/:id',
      { schema: { tags, summary: 'Get one webhook (without its secret)', params: IdParams, response: { 200: Webhook, ...errorResponses(400, 404, 422) } } },
      async (req) => owned(req.principal!.clientId, req.params.id),
    )

    app.delete(
      '/:id',
      {
        schema: {
          tags,
          summary: 'Delete a webhook: nothing more is sent to it, pending deliveries included',
          params: IdParams,
          response: { 204: Type.Null(), ...errorResponses(400, 404, 422) },
        },
      },
      async (req, reply) => {
        if (!(await deleteSubscription(ctx.db, req.principal!.clientId, req.params.id, ctx.clock.now()))) throw notFound('webhook')
        reply.code(204)
        return null
      },
    )

    app.post(
      '/:id/test',
      {
        schema: {
          tags,
          summary: 'Send a `webhook.test` event to this webhook now',
          params: IdParams,
          response: { 202: Delivery, ...errorResponses(400, 404, 422) },
        },
      },
      async (req, reply) => {
        const clientId = req.principal!.clientId
        const sub = await owned(clientId, req.params.id)
        const now = ctx.clock.now()
        // The delivery as the answer shows it comes back from the INSERT: no second read.
        const row = await emitTest<DeliveryRow>(
          ctx.db,
          clientId,
          sub.id,
          testEventType,
          { webhook: sub, message: 'a test event from Curata' },
          now,
          deliveryColumns,
        )
        if (row === null) throw notFound('webhook')
        reply.code(202)
        return deliveryView(row)
      },
    )

    app.get(
      '/:id/deliveries',
      {
        schema: {
          tags,
          summary: "A webhook's deliveries, newest first (each with its attempts and last answer)",
          params: IdParams,
          querystring: DeliveryQuery,
          response: { 200: Type.Array(Delivery), ...errorResponses(400, 404, 422) },
        },
      },
      async (req) => {
        const clientId = req.principal!.clientId
        const sub = await owned(clientId, req.params.id)
        return listDeliveries(ctx.db, clientId, sub.id, { limit: req.query.limit ?? 20, offset: req.query.offset ?? 0, status: req.query.status })
      },
    )

    app.get(
      '/:id/deliveries/:deliveryId',
      {
        schema: { tags, summary: 'One delivery', params: DeliveryParams, response: { 200: Delivery, ...errorResponses(400, 404, 422) } },
      },
      async (req) => {
        const clientId = req.principal!.clientId
        const sub = await owned(clientId, req.params.id)
        const d = await getDelivery(ctx.db, clientId, sub.id, req.params.deliveryId)
        if (!d) throw notFound('delivery')
        return d
      },
    )

    app.post(
      '/:id/deliveries/:deliveryId/redeliver',
      {
        schema: {
          tags,
          summary: 'Send a delivered or failed delivery again, with the same webhook-id and a fresh round of retries',
          params: DeliveryParams,
          response: { 202: Delivery, ...errorResponses(400, 404, 409, 422) },
        },
      },
      async (req, reply) => {
        const clientId = req.principal!.clientId
        const sub = await owned(clientId, req.params.id)
        const now = ctx.clock.now()
        const d = await ctx.db.transaction(async (tx) => {
          const reset = await resetDelivery(tx, clientId, sub.id, req.params.deliveryId, now)
          if (reset) await enqueueDeliveries(tx, [reset], now)
          return reset
        })
        if (!d) {
          const existing = await getDelivery(ctx.db, clientId, sub.id, req.params.deliveryId)
          if (!existing) throw notFound('delivery')
          throw new ApiError(409, 'conflict', `delivery ${existing.id} is still pending (attempt ${existing.attempts + 1} is scheduled); wait for it to finish`)
        }
        reply.code(202)
        return d
      },
    )
  },
}
