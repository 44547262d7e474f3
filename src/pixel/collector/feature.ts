// The collector role: the raw hot path in front of Fastify, plus Fastify routes for the same paths.
// The routes are what the OpenAPI document shows, and what in-process requests (app.inject, which
// never passes through the server) reach; they hand the raw request to the same handler.
import type { FastifyReply, FastifyRequest } from 'fastify'

import type { Feature } from '../../platform/http/app.ts'
import { clickRedirectRoutes } from '../clicks/routes.ts'
import type { PixelContext } from '../context.ts'
import { createCollector } from './collector.ts'

const gifResponse = {
  200: {
    description: 'always the 43-byte transparent GIF, with no-cache headers, whatever the input',
    content: { 'image/gif': { schema: { type: 'string', format: 'binary' } } },
  },
  503: { description: 'the collector cannot buffer more hits (its database is unreachable)' },
}

const parameters =
  'Parameters (all optional): u page URL, r referrer, d serving domain, deal, price, cur, cb (cachebuster), ' +
  'imp (auction/impression id), site, dsp; see docs/pixel.md. Unknown campaigns and junk values are recorded ' +
  'as invalid; DSP macros left unexpanded are flagged.'

/** The pixel collector (no API key), with the PIXEL_* settings of the context's configuration. */
export const collectorFeature: Feature<PixelContext> = {
  prefix: '',
  async routes(app, ctx, front) {
    const config = ctx.config.pixel
    const collector = createCollector({
      db: ctx.db,
      clock: ctx.clock,
      config,
      registry: ctx.metrics.registry,
      log: app.log,
    })
    await collector.start()
    front(collector.handle)
    app.addHook('preClose', async () => collector.closing())
    // onClose runs once the server has stopped and its connections are done: nothing more can
    // be acknowledged, so this final write leaves nothing behind.
    app.addHook('onClose', () => collector.stop())
    // The click redirect (/click/…): its own raw handler and buffer (src/pixel/clicks/).
    await clickRedirectRoutes(app, ctx, front)

    // The beacon body is read by the collector itself, whatever its type.
    app.removeAllContentTypeParsers()
    app.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined))

    const File = { type: 'object', properties: { file: { type: 'string', description: '{campaign_id}.gif' } } }
    // Both routes hand the raw request to the hot-path handler, as the server's front does.
    const toCollector = (req: FastifyRequest, reply: FastifyReply): void => {
      reply.hijack()
      collector.handle(req.raw, reply.raw)
    }
    app.get(
      '/px/:file',
      {
        config: { rawInput: true },
        schema: {
          tags: ['pixel'],
          summary: 'Pixel load: GET /px/{campaign_id}.gif',
          description: parameters,
          security: [],
          params: File,
          response: gifResponse,
        },
      },
      toCollector,
    )
    app.post(
      '/px/:file',
      {
        config: { rawInput: true },
        schema: {
          tags: ['pixel'],
          summary: 'JS beacon: POST /px/{campaign_id} (navigator.sendBeacon, text/plain)',
          description: `The body carries the same parameters as a query string, or as a flat JSON object (16 KiB at most). ${parameters}`,
          security: [],
          params: File,
          response: gifResponse,
        },
      },
      toCollector,
    )
  },
}
