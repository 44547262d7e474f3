// Clicks over HTTP: the public redirect on the collector (a raw front handler, plus a Fastify route
// for the OpenAPI document and in-process requests), and the API call that gives buyers signed
// click links for their landing pages (docs/pixel.md, "Clicks").

import type { Static } from '@sinclair/typebox'
import { Type } from '@sinclair/typebox'
import type { App, Feature, RawHandler } from '../../platform/http/app.ts'
import { notFound, unprocessable } from '../../platform/http/errors.ts'
import { errorResponses, Id, IdParams, nullable } from '../../platform/http/schemas.ts'
import { getPixelCampaign } from '../campaigns-repository.ts'
import type { PixelContext } from '../context.ts'
import { clickMacros, DSP_TEMPLATES, dealImpressionUrls } from '../tag.ts'
import { createClickRecorder } from './recorder.ts'
import { createClickHandler } from './redirect.ts'
import { clickDestination, MAX_DESTINATION } from './signing.ts'

/** The collector's click redirect: GET|HEAD /click/{campaign_id}. Stops (writing every counted click) when the app closes. */
export async function clickRedirectRoutes(app: App, ctx: PixelContext, front: (h: RawHandler) => void): Promise<void> {
  const config = ctx.config.pixel
  const signer = ctx.clickSigner
  const recorder = createClickRecorder({ db: ctx.db, flushMs: config.flushMs, log: app.log })
  recorder.start()
  const handle = createClickHandler({ signer, recorder, clock: ctx.clock, config, registry: ctx.metrics.registry })
  front(handle)
  app.addHook('onClose', () => recorder.stop())
  app.get(
    '/click/:id',
    {
      schema: {
        tags: ['pixel'],
        summary: 'Click redirect: GET /click/{campaign_id}?to=…&sig=…',
        description:
          'Public (no key). A link signed by POST /v1/pixel/campaigns/{id}/click-url answers 302 to its destination and counts the click ' +
          'when it carries a Deal ID (deal) of your activations; d is the serving domain. A missing, malformed or tampered link answers ' +
          '400 or 403 with a plain-text page and never redirects. See docs/pixel.md.',
        security: [],
        params: Type.Object({ id: Type.String() }),
        response: {
          302: { description: 'to the signed destination' },
          400: { description: 'the link is incomplete (plain text)' },
          403: { description: 'the signature does not match (plain text)' },
        },
      },
    },
    (req, reply) => {
      reply.hijack()
      if (!handle(req.raw, reply.raw)) reply.raw.writeHead(404).end()
    },
  )
}

const ClickUrlBody = Type.Object(
  {
    destination_url: Type.String({ minLength: 1, maxLength: MAX_DESTINATION, description: 'the landing page: an absolute http(s) URL' }),
    deal_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'write this Deal ID (one of your activations) into the links instead of a DSP macro' }),
    ),
  },
  { title: 'ClickUrlRequest' },
)
type ClickUrlBody = Static<typeof ClickUrlBody>

const ClickUrls = Type.Object(
  {
    campaign_id: Id,
    destination_url: Type.String({ description: 'the destination as signed (normalized)' }),
    deal_id: nullable(Type.String()),
    click_url: Type.String({ description: 'the signed link, without DSP macros (with deal_id when given)' }),
    click_urls: Type.Record(Type.String(), Type.String(), {
      description: 'per DSP: the signed link with that DSP’s deal-id and domain macros (only the domain macro when deal_id is given)',
    }),
    impression_urls: nullable(
      Type.Record(Type.String(), Type.String(), { description: 'with deal_id: each DSP’s impression tracker with the Deal ID written in' }),
    ),
  },
  { title: 'ClickUrls' },
)
type ClickUrls = Static<typeof ClickUrls>

/** POST /v1/pixel/campaigns/{id}/click-url: signed click links for one destination. */
export const clickUrlFeature: Feature<PixelContext> = {
  prefix: '/v1/pixel',
  routes(app, ctx) {
    app.post(
      '/campaigns/:id/click-url',
      {
        schema: {
          tags: ['pixel'],
          summary: 'Sign a landing page: click-tracking links that redirect to it',
          params: IdParams,
          body: ClickUrlBody,
          response: { 200: ClickUrls, ...errorResponses(400, 404, 415, 422) },
        },
      },
      async (req) => {
        const clientId = req.principal!.clientId
        const campaign = await getPixelCampaign(ctx.db, clientId, req.params.id)
        if (!campaign) throw notFound('campaign')
        return signedClickUrls(ctx, clientId, campaign.id, req.body, ctx.config.publicUrl?.replace(/\/+$/, '') ?? `${req.protocol}://${req.host}`)
      },
    )
  },
}

async function signedClickUrls(ctx: PixelContext, clientId: number, campaignId: number, b: ClickUrlBody, base: string): Promise<ClickUrls> {
  const destination = clickDestination(b.destination_url)
  if (destination === null) {
    throw unprocessable('destination_url must be an absolute http or https URL without user name or password', [
      { path: 'body.destination_url', message: 'not an absolute http(s) URL' },
    ])
  }
  const deal = b.deal_id ?? null
  if (deal !== null) {
    const { rows } = await ctx.db.query('SELECT 1 FROM activations WHERE client_id = $1 AND deal_id = $2', [clientId, deal])
    if (!rows.length) {
      throw unprocessable(`no activation of yours has Deal ID "${deal}"`, [{ path: 'body.deal_id', message: 'not one of your Deal IDs' }])
    }
  }
  const sig = ctx.clickSigner.sign(campaignId, destination)
  const link = `${base}/click/${campaignId}?to=${encodeURIComponent(destination)}&sig=${sig}`
  const clickUrl = deal === null ? link : `${link}&deal=${encodeURIComponent(deal)}`
  const clickUrls: Record<string, string> = {}
  for (const dsp of Object.keys(DSP_TEMPLATES)) {
    const macros = clickMacros(dsp)
      .split('&')
      .filter((p) => p && (deal === null || !p.startsWith('deal=')))
    clickUrls[dsp] = macros.length ? `${clickUrl}&${macros.join('&')}` : clickUrl
  }
  return {
    campaign_id: campaignId,
    destination_url: destination,
    deal_id: deal,
    click_url: clickUrl,
    click_urls: clickUrls,
    impression_urls: deal === null ? null : dealImpressionUrls(campaignId, base, deal),
  }
}
