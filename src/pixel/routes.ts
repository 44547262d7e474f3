import { Type } from '@sinclair/typebox'

import type { App, Feature } from '../platform/http/app.ts'
import { ApiError, badRequest, checkDateRange, notFound, unprocessable } from '../platform/http/errors.ts'
import { errorResponses, IdempotencyHeaders, IdParams, SmallPaging } from '../platform/http/schemas.ts'
import type { PixelCampaignRow } from './campaigns-repository.ts'
import { createPixelCampaign, deletePixelCampaign, getPixelCampaign, listPixelCampaigns, updatePixelCampaign } from './campaigns-repository.ts'
import type { PixelContext } from './context.ts'
import { ingestLogs } from './ingest/logs.ts'
import { liveRoutes } from './live.ts'
import { createReport, getReport, listReports } from './reports/repository.ts'
import {
  CreatePixelCampaignBody,
  CreatePublisherReportBody,
  LogIngestResult,
  PixelCampaign,
  PixelTag,
  PUBLISHER_USE_CASES,
  PublisherReport,
  UpdatePixelCampaignBody,
} from './schemas.ts'
import { buildTag } from './tag.ts'

const tags = ['pixel']
const asCampaign = (row: PixelCampaignRow): PixelCampaign => row

/** Largest access-log upload accepted in one request. */
export const LOG_BODY_LIMIT = 50 * 1024 * 1024
const LOG_TYPES = ['text/plain', 'application/x-ndjson', 'application/jsonl', 'application/jsonlines', 'application/x-jsonlines']

/** Pixel campaigns, tag code, server-log ingest and publisher reports (spec 2.4, 2.6, 4.5, 4.6). */
export const pixelFeature: Feature<PixelContext> = {
  prefix: '/v1/pixel',
  async routes(app, ctx) {
    campaignRoutes(app, ctx)
    liveRoutes(app, ctx)
    await app.register(async (scope) => logRoutes(scope as App, ctx))
    reportRoutes(app, ctx)
  },
}

function campaignRoutes(app: App, ctx: PixelContext): void {
  app.post(
    '/campaigns',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Create a pixel campaign',
        headers: IdempotencyHeaders,
        body: CreatePixelCampaignBody,
        response: { 201: PixelCampaign, ...errorResponses(400, 409, 415, 422) },
      },
    },
    async (req, reply) => {
      const row = await ctx.db.transaction((tx) => createPixelCampaign(tx, req.principal!.clientId, req.body, ctx.clock.now()))
      reply.code(201)
      return asCampaign(row)
    },
  )

  app.get(
    '/campaigns',
    { schema: { tags, summary: "List this key's pixel campaigns", response: { 200: Type.Array(PixelCampaign), ...errorResponses() } } },
    async (req) => (await listPixelCampaigns(ctx.db, req.principal!.clientId)).map(asCampaign),
  )

  app.get(
    '/campaigns/:id',
    {
      schema: { tags, summary: 'Get a pixel campaign', params: IdParams, response: { 200: PixelCampaign, ...errorResponses(400, 404, 422) } },
    },
    async (req) => asCampaign(await ownCampaign(ctx, req.principal!.clientId, req.params.id)),
  )

  app.delete(
    '/campaigns/:id',
    {
      schema: {
        tags,
        summary: 'Delete a pixel campaign (an addition to the spec)',
        description:
          'From then on the collector records its hits as unknown_campaign, and the campaign is no longer listed or found; ' +
          'its events, rollups and reports stay, and reports already made can still be read. A second delete answers 404.',
        params: IdParams,
        response: { 204: Type.Null({ description: 'deleted' }), ...errorResponses(400, 404, 422) },
      },
    },
    async (req, reply) => {
      const row = await ctx.db.transaction((tx) => deletePixelCampaign(tx, req.principal!.clientId, req.params.id, ctx.clock.now()))
      if (!row) throw notFound('campaign')
      return reply.code(204).send(null)
    },
  )

  app.put(
    '/campaigns/:id',
    {
      schema: {
        tags,
        summary: 'Update a pixel campaign (omitted fields stay unchanged)',
        params: IdParams,
        body: UpdatePixelCampaignBody,
        response: { 200: PixelCampaign, ...errorResponses(400, 404, 415, 422) },
      },
    },
    async (req) => {
      const b = req.body
      if (b.name === undefined && b.use_case === undefined && b.description === undefined) {
        throw badRequest('send at least one of name, use_case, description')
      }
      const row = await updatePixelCampaign(ctx.db, req.principal!.clientId, req.params.id, b, ctx.clock.now())
      if (!row) throw notFound('campaign')
      return asCampaign(row)
    },
  )

  app.get(
    '/campaigns/:id/tag',
    {
      schema: {
        tags,
        summary: 'Tag code: <img> pixel, JS beacon, and impression URLs with each DSP’s macros',
        params: IdParams,
        response: { 200: PixelTag, ...errorResponses(400, 404, 422) },
      },
    },
    async (req) => {
      const campaign = await ownCampaign(ctx, req.principal!.clientId, req.params.id)
      const base = ctx.config.publicUrl?.replace(/\/+$/, '') ?? `${req.protocol}://${req.host}`
      return buildTag(campaign.id, base)
    },
  )
}

// Its own scope: the access-log content types and the 50 MiB limit apply to this route only.
function logRoutes(app: App, ctx: PixelContext): void {
  const unsupported = Symbol('unsupported')
  app.removeAllContentTypeParsers()
  app.addContentTypeParser(LOG_TYPES, { parseAs: 'string', bodyLimit: LOG_BODY_LIMIT }, (_req, body, done) => done(null, body))
  app.addContentTypeParser('*', (_req, _payload, done) => done(null, unsupported))

  const text = { schema: { type: 'string', description: 'one access-log line per line' } }
  app.post(
    '/campaigns/:id/logs',
    {
      bodyLimit: LOG_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Ingest server access-log lines (combined log format, or JSON lines)',
        description:
          'Lines in the combined log format (text/plain) or JSON objects one per line (application/x-ndjson), up to 50 MiB. ' +
          'Page loads go through the same classification and rollups as pixel hits; loads the pixel already recorded are not counted twice. See docs/pixel.md.',
        params: IdParams,
        body: { content: Object.fromEntries(LOG_TYPES.map((t) => [t, text])) },
        response: { 200: LogIngestResult, ...errorResponses(400, 404, 413, 415, 422) },
      },
    },
    async (req) => {
      const body: unknown = req.body
      if (typeof body !== 'string') {
        throw new ApiError(415, 'unsupported_media_type', 'send access-log lines as text/plain (combined log format) or application/x-ndjson')
      }
      const campaign = await ownCampaign(ctx, req.principal!.clientId, req.params.id)
      return ingestLogs(ctx.db, ctx.clock, { id: campaign.id, clientId: req.principal!.clientId }, body)
    },
  )
}

function reportRoutes(app: App, ctx: PixelContext): void {
  app.post(
    '/reports/publisher',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Create a publisher report (201, pending; poll GET every 30 s)',
        headers: IdempotencyHeaders,
        body: CreatePublisherReportBody,
        response: { 201: PublisherReport, ...errorResponses(400, 404, 409, 415, 422) },
      },
    },
    async (req, reply) => {
      const clientId = req.principal!.clientId
      const b = req.body
      const campaign = await ownCampaign(ctx, clientId, b.campaign_id)
      if (!PUBLISHER_USE_CASES.includes(campaign.use_case)) {
        throw unprocessable(`campaign ${campaign.id} has use_case "${campaign.use_case}"; publisher reports need ${PUBLISHER_USE_CASES.join(' or ')}`, [
          { path: 'body.campaign_id', message: 'not a publisher campaign' },
        ])
      }
      checkDateRange(b)
      const report = await ctx.db.transaction((tx) =>
        createReport(
          tx,
          clientId,
          {
            campaignId: campaign.id,
            startDate: b.start_date,
            endDate: b.end_date,
            dimensions: b.dimensions ?? [],
            hotSpotMinLoads: b.hot_spot_min_loads ?? 100,
          },
          ctx.clock.now(),
        ),
      )
      reply.code(201)
      return report
    },
  )

  app.get(
    '/reports/publisher',
    {
      schema: {
        tags,
        summary: "List this client's publisher reports, newest first (an addition to the spec)",
        querystring: SmallPaging,
        response: { 200: Type.Array(PublisherReport), ...errorResponses(400, 422) },
      },
    },
    async (req) => listReports(ctx.db, req.principal!.clientId, req.query.limit ?? 20, req.query.offset ?? 0),
  )

  app.get(
    '/reports/publisher/:id',
    {
      schema: { tags, summary: 'Get a publisher report', params: IdParams, response: { 200: PublisherReport, ...errorResponses(400, 404, 422) } },
    },
    async (req) => {
      const report = await getReport(ctx.db, req.principal!.clientId, req.params.id)
      if (!report) throw notFound('report')
      return report
    },
  )
}

async function ownCampaign(ctx: PixelContext, clientId: number, id: number): Promise<PixelCampaignRow> {
  const row = await getPixelCampaign(ctx.db, clientId, id)
  if (!row) throw notFound('campaign')
  return row
}
