import { Type } from '@sinclair/typebox'

import type { App } from '../../platform/http/app.ts'
import { badRequest, notFound, unprocessable } from '../../platform/http/errors.ts'
import { errorResponses, Id, IdempotencyHeaders, IdParams } from '../../platform/http/schemas.ts'
import type { CurationContext } from '../context.ts'
import { getSegment } from '../segments/repository.ts'
import { checkDomains, checkKeywords, checkUrls } from '../segments/validate.ts'
import type { BlockSpec, ExpandSpec, OptimizationRow } from './repository.ts'
import { createOptimization, getOptimization, listOptimizations, toRecord } from './repository.ts'
import { CreateOptimizationBody, Optimization } from './schemas.ts'

const tags = ['curation']
const record = (row: OptimizationRow): Optimization => toRecord(row)

const ListOptimizationsQuery = Type.Object({
  segment_id: Type.Optional(Id),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, default: 1000 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647, default: 0 })),
})

/** Optimizations (spec 2.3, 4.3). */
export function optimizationRoutes(app: App, ctx: CurationContext): void {
  app.post(
    '/optimizations',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: 'Expand or block a complete segment (applied asynchronously; status is always accepted)',
        description:
          'At least one of expand / block with at least one entry (400 otherwise). The segment must be this client’s (404) and complete (422). ' +
          'Answers 201 with the optimization; the change reaches the segment within minutes and live deals within estimated_propagation_hours. ' +
          'Limits: expand 100 URLs and 100 domains; block 1000 URLs, 1000 domains, 200 keywords.',
        headers: IdempotencyHeaders,
        body: CreateOptimizationBody,
        response: { 201: Optimization, ...errorResponses(400, 404, 409, 413, 415, 422) },
      },
    },
    async (req, reply) => {
      const { segment_id, expand, block } = req.body
      const entries =
        (expand?.urls?.length ?? 0) +
        (expand?.domains?.length ?? 0) +
        (block?.urls?.length ?? 0) +
        (block?.domains?.length ?? 0) +
        (block?.keywords?.length ?? 0)
      if ((!expand && !block) || entries === 0) {
        throw badRequest('send expand, block, or both, with at least one URL, domain or keyword', [
          { path: 'body.expand', message: 'expand or block is required' },
        ])
      }
      const clientId = req.principal!.clientId
      const seg = await getSegment(ctx.db, clientId, segment_id)
      if (!seg) throw notFound('segment request')
      if (seg.status !== 'complete') {
        throw unprocessable(`segment request ${seg.id} is not complete yet (status ${seg.status}); optimize it once processed_date is set`, [
          { path: 'body.segment_id', message: 'segment is not complete' },
        ])
      }
      // Validated, but stored as submitted (missing lists as []).
      if (expand) {
        checkUrls(expand.urls ?? [], 'body.expand.urls')
        checkDomains(expand.domains ?? [], 'body.expand.domains')
      }
      if (block) {
        checkUrls(block.urls ?? [], 'body.block.urls')
        checkDomains(block.domains ?? [], 'body.block.domains')
        checkKeywords(block.keywords ?? [], 'body.block.keywords')
      }
      const e: ExpandSpec | null = expand ? { urls: expand.urls ?? [], domains: expand.domains ?? [] } : null
      const b: BlockSpec | null = block ? { urls: block.urls ?? [], domains: block.domains ?? [], keywords: block.keywords ?? [] } : null
      const row = await ctx.db.transaction((tx) => createOptimization(tx, clientId, seg.id, e, b, ctx.clock.now()))
      reply.code(201)
      return record(row)
    },
  )

  app.get(
    '/optimizations/:id',
    {
      schema: {
        tags,
        summary: 'Get an optimization',
        params: IdParams,
        response: { 200: Optimization, ...errorResponses(400, 404, 422) },
      },
    },
    async (req) => {
      const row = await getOptimization(ctx.db, req.principal!.clientId, req.params.id)
      if (!row) throw notFound('optimization')
      return record(row)
    },
  )

  app.get(
    '/optimizations',
    {
      schema: {
        tags,
        summary: "List this key's optimizations (optionally of one segment), oldest first",
        querystring: ListOptimizationsQuery,
        response: { 200: Type.Array(Optimization), ...errorResponses(400, 422) },
      },
    },
    async (req) => {
      const rows = await listOptimizations(ctx.db, req.principal!.clientId, req.query.segment_id ?? null, req.query.limit ?? 1000, req.query.offset ?? 0)
      return rows.map(record)
    },
  )
}
