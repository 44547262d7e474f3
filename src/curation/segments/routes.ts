import { Readable } from 'node:stream'

import { Type } from '@sinclair/typebox'

import type { App } from '../../platform/http/app.ts'
import { ApiError, notFound } from '../../platform/http/errors.ts'
import { errorResponses, IdempotencyHeaders, IdParams, StringEnum } from '../../platform/http/schemas.ts'
import type { CurationContext } from '../context.ts'
import { toCsv, wantsCsv } from './csv.ts'
import { csvRows, segmentCsvColumns, segmentUrlLines } from './export.ts'
import type { SegmentRow } from './repository.ts'
import {
  createSegmentRequest,
  deleteSegment,
  getSegment,
  listExclusions,
  listSegments,
  listSegmentUrls,
  readPrompt,
  rebuildSegment,
  renameSegment,
  toRecord,
} from './repository.ts'
import {
  CreateSegmentRequestBody,
  ExclusionPage,
  ExclusionsQuery,
  ListQuery,
  PromptReading,
  ReadPromptBody,
  SegmentRequest,
  SegmentUrlPage,
  UpdateSegmentRequestBody,
} from './schemas.ts'
import { notTopical, promptToRead, validateSegmentRequest } from './validate.ts'

const tags = ['curation']

const record = (row: SegmentRow): SegmentRequest => toRecord(row)

/** Segment requests (spec 2.1, 4.1): create, read, list, and the built URL list with its exclusions. */
export function segmentRoutes(app: App, ctx: CurationContext): void {
  app.post(
    '/segment-requests',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Request a segment (built asynchronously; ready when processed_date is set)',
        description:
          'Send a prompt, example URLs, or both; optionally a taxonomy node (taxonomy_id and/or level names), block_tlds, block_keywords and extra_hops_count. ' +
          'Limits: 100 example URLs, 1000 block_tlds, 200 block_keywords. The creation response shows client_id and extra_hops_count as null (spec 2.1).',
        headers: IdempotencyHeaders,
        body: CreateSegmentRequestBody,
        response: { 201: SegmentRequest, ...errorResponses(400, 409, 413, 415, 422) },
      },
    },
    async (req, reply) => {
      const input = validateSegmentRequest(req.body)
      const clientId = req.principal!.clientId
      const row = await ctx.db.transaction((tx) => createSegmentRequest(tx, clientId, input, ctx.clock.now()))
      reply.code(201)
      // Spec 2.1: client_id and extra_hops_count are null in the creation response.
      return { ...record(row), client_id: null, extra_hops_count: null }
    },
  )

  app.post(
    '/prompt-interpretations',
    {
      schema: {
        tags,
        summary: 'Read a prompt as a segment request would, without creating one',
        description:
          'Answers the `interpretation` a segment request with this prompt would get (its topics, words, learned expansions, audience words, places, exclusions and ignored words) ' +
          'and whether it names a content topic at all; nothing is stored and no build runs. For trying prompts before requesting a segment.',
        body: ReadPromptBody,
        response: { 200: PromptReading, ...errorResponses(400, 413, 415) },
      },
    },
    async (req) => {
      const prompt = promptToRead(req.body.prompt)
      const intent = await readPrompt(ctx.db, prompt)
      const why = notTopical(intent)
      return { prompt, topical: why === null, message: why === null ? null : `the prompt ${why}`, interpretation: intent.interpretation }
    },
  )

  app.get(
    '/segment-requests',
    {
      schema: {
        tags,
        summary: "List this key's segment requests, oldest first",
        querystring: ListQuery,
        response: { 200: Type.Array(SegmentRequest), ...errorResponses(400, 422) },
      },
    },
    async (req) => {
      const rows = await listSegments(ctx.db, req.principal!.clientId, req.query.limit ?? 1000, req.query.offset ?? 0)
      return rows.map(record)
    },
  )

  app.get(
    '/segment-requests/:id',
    {
      schema: {
        tags,
        summary: 'Get a segment request; ready when processed_date is non-null',
        params: IdParams,
        response: { 200: SegmentRequest, ...errorResponses(400, 404, 422) },
      },
    },
    async (req) => {
      const row = await getSegment(ctx.db, req.principal!.clientId, req.params.id)
      if (!row) throw notFound('segment request')
      return record(row)
    },
  )

  app.patch(
    '/segment-requests/:id',
    {
      schema: {
        tags,
        summary: 'Rename a segment request (not in the spec)',
        params: IdParams,
        body: UpdateSegmentRequestBody,
        response: { 200: SegmentRequest, ...errorResponses(400, 404, 415, 422) },
      },
    },
    async (req) => {
      const name = req.body.name === null ? null : req.body.name.trim() || null
      const row = await renameSegment(ctx.db, req.principal!.clientId, req.params.id, name, ctx.clock.now())
      if (!row) throw notFound('segment request')
      return record(row)
    },
  )

  app.delete(
    '/segment-requests/:id',
    {
      schema: {
        tags,
        summary: 'Delete a segment request (soft: answered with deleted true, then not found; its live deals stop; not in the spec)',
        params: IdParams,
        response: { 200: SegmentRequest, ...errorResponses(400, 404, 422) },
      },
    },
    async (req) => {
      const clientId = req.principal!.clientId
      const row = await ctx.db.transaction((tx) => deleteSegment(tx, clientId, req.params.id, ctx.clock.now()))
      if (!row) throw notFound('segment request')
      return record(row)
    },
  )

  app.post(
    '/segment-requests/:id/rebuild',
    {
      schema: {
        tags,
        summary: 'Build a complete segment again over the index as it is now (not in the spec)',
        description:
          'The answer is the record with status pending. The current URL list keeps serving, and live deals keep it, until the new build replaces it; ' +
          'processed_date then moves to the new build. 409 while a build of the segment is pending or processing.',
        params: IdParams,
        response: { 202: SegmentRequest, ...errorResponses(400, 404, 409, 422) },
      },
    },
    async (req, reply) => {
      const clientId = req.principal!.clientId
      const out = await ctx.db.transaction((tx) => rebuildSegment(tx, clientId, req.params.id, ctx.clock.now()))
      if (!out) throw notFound('segment request')
      if ('busy' in out)
        throw new ApiError(409, 'conflict', `segment request ${out.busy.id} is still building (status ${out.busy.status}); rebuild it once it is complete`)
      reply.code(202)
      return record(out.row)
    },
  )

  app.get(
    '/segment-requests/:id/urls',
    {
      schema: {
        tags,
        summary: "A page of the segment's URLs in rank order (Accept: text/csv for CSV)",
        description: 'limit (default 1000, at most 10000) and offset (default 0) page through the list; the order is stable. Empty until the build completes.',
        params: IdParams,
        querystring: ListQuery,
        response: {
          200: {
            description: 'the URLs, as JSON or (Accept: text/csv) as CSV with a header row',
            content: { 'application/json': { schema: SegmentUrlPage }, 'text/csv': { schema: Type.String() } },
          },
          ...errorResponses(400, 404, 422),
        },
      },
    },
    async (req, reply) => {
      const clientId = req.principal!.clientId
      const seg = await getSegment(ctx.db, clientId, req.params.id)
      if (!seg) throw notFound('segment request')
      const limit = req.query.limit ?? 1000
      const offset = req.query.offset ?? 0
      const page = await listSegmentUrls(ctx.db, clientId, seg.id, limit, offset)
      if (wantsCsv(req.headers.accept)) {
        reply.header('x-total-count', String(page.total)).type('text/csv; charset=utf-8')
        return toCsv(segmentCsvColumns, csvRows(page.urls))
      }
      reply.type('application/json; charset=utf-8')
      return { segment_id: seg.id, status: seg.status, total: page.total, limit, offset, urls: page.urls }
    },
  )

  app.get(
    '/segment-requests/:id/export',
    {
      schema: {
        tags,
        summary: "The segment's whole URL list as CSV or JSON Lines, in one streamed response (an extension of the spec)",
        description:
          'The entries of GET …/urls in the same order, all of them: `format=csv` (default; a header row when offset is 0) or ' +
          '`format=jsonl` (one object per line). To resume a broken download, ask again with `offset` = the number of entries ' +
          '(data lines) received. `X-Total-Count` is the number of URLs.',
        params: IdParams,
        querystring: Type.Object({
          format: Type.Optional(StringEnum(['csv', 'jsonl'] as const)),
          offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647, default: 0 })),
        }),
        response: {
          200: {
            description: 'CSV (text/csv) or JSON Lines (application/x-ndjson)',
            content: { 'text/csv': { schema: Type.String() }, 'application/x-ndjson': { schema: Type.String() } },
          },
          ...errorResponses(400, 404, 422),
        },
      },
    },
    async (req, reply) => {
      const clientId = req.principal!.clientId
      const seg = await getSegment(ctx.db, clientId, req.params.id)
      if (!seg) throw notFound('segment request')
      const format = req.query.format ?? 'csv'
      reply.type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8').header('x-total-count', String(seg.url_count ?? 0))
      // A stream skips the response serializer; Readable.from pulls the next page only as the client reads.
      return reply.send(Readable.from(segmentUrlLines(ctx.db, clientId, seg.id, format, req.query.offset ?? 0), { objectMode: false }) as unknown as string)
    },
  )

  app.get(
    '/segment-requests/:id/exclusions',
    {
      schema: {
        tags,
        summary: 'URLs the quality filters or blocks left out of the segment, with the reason',
        params: IdParams,
        querystring: ExclusionsQuery,
        response: { 200: ExclusionPage, ...errorResponses(400, 404, 422) },
      },
    },
    async (req) => {
      const clientId = req.principal!.clientId
      const seg = await getSegment(ctx.db, clientId, req.params.id)
      if (!seg) throw notFound('segment request')
      const limit = req.query.limit ?? 1000
      const offset = req.query.offset ?? 0
      const page = await listExclusions(ctx.db, clientId, seg.id, req.query.reason ?? null, limit, offset)
      return { segment_id: seg.id, limit, offset, ...page }
    },
  )
}
