// POST /v1/curation/reports, GET /v1/curation/reports/{id} (spec 4.4) and GET /v1/curation/reports (docs/reports.md).
import { Type } from '@sinclair/typebox'

import type { App } from '../../platform/http/app.ts'
import { ApiError, checkDateRange, notFound } from '../../platform/http/errors.ts'
import { errorResponses, IdempotencyHeaders, IdParams, SmallPaging } from '../../platform/http/schemas.ts'
import type { CurationContext } from '../context.ts'
import { createSegmentReport, getSegmentReport, listSegmentReports, ownSegmentIds } from './repository.ts'
import { CreateSegmentReportBody, SegmentReport } from './schemas.ts'

const tags = ['curation']

export function segmentReportRoutes(app: App, ctx: CurationContext): void {
  app.post(
    '/reports',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Create a segment performance report (201, pending; poll GET)',
        description: 'Impressions, clicks, CTR, spend and eCPM of the deals activated for these segments, with a domain breakdown. See docs/reports.md.',
        headers: IdempotencyHeaders,
        body: CreateSegmentReportBody,
        response: { 201: SegmentReport, ...errorResponses(400, 404, 409, 415, 422) },
      },
    },
    async (req, reply) => {
      const clientId = req.principal!.clientId
      const b = req.body
      const own = await ownSegmentIds(ctx.db, clientId, b.segment_ids)
      const missing = b.segment_ids.filter((id) => !own.has(id))
      if (missing.length) throw new ApiError(404, 'not_found', `segment ${missing.join(', ')} not found`)
      checkDateRange(b)
      const report = await ctx.db.transaction((tx) =>
        createSegmentReport(
          tx,
          clientId,
          { segmentIds: b.segment_ids, startDate: b.start_date, endDate: b.end_date, dimensions: b.dimensions ?? [] },
          ctx.clock.now(),
        ),
      )
      reply.code(201)
      return report
    },
  )

  app.get(
    '/reports',
    {
      schema: {
        tags,
        summary: "List this client's segment performance reports, newest first (an addition to the spec)",
        querystring: SmallPaging,
        response: { 200: Type.Array(SegmentReport), ...errorResponses(400, 422) },
      },
    },
    async (req) => listSegmentReports(ctx.db, req.principal!.clientId, req.query.limit ?? 20, req.query.offset ?? 0),
  )

  app.get(
    '/reports/:id',
    { schema: { tags, summary: 'Get a segment performance report', params: IdParams, response: { 200: SegmentReport, ...errorResponses(400, 404, 422) } } },
    async (req) => {
      const report = await getSegmentReport(ctx.db, req.principal!.clientId, req.params.id)
      if (!report) throw notFound('report')
      return report
    },
  )
}
