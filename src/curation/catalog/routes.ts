import { Type } from '@sinclair/typebox'

import type { App } from '../../platform/http/app.ts'
import { errorResponses, nullable, StringEnum } from '../../platform/http/schemas.ts'
import type { CurationContext } from '../context.ts'
import { listCatalog } from './list.ts'

const CatalogEntry = Type.Object(
  {
    id: Type.String({ description: 'stable id: iab:<taxonomy id>, seasonal:<slug>:<year> or segment:<segment id>' }),
    type: Type.Union([Type.Literal('public'), Type.Literal('seasonal'), Type.Literal('personal')]),
    name: Type.String(),
    description: Type.String(),
    taxonomy_id: nullable(Type.Integer()),
    level1_name: nullable(Type.String()),
    level2_name: nullable(Type.String()),
    level3_name: nullable(Type.String()),
    page_count: Type.Integer(),
    coverage: Type.Object({
      share_of_index: Type.Number({ description: 'share (0..1) of all indexed pages' }),
      percentage: Type.Number({ description: 'the same in percent' }),
      by_language: Type.Record(Type.String(), Type.Number(), { description: 'share (0..1) of the indexed pages of each language' }),
    }),
    pricing: Type.Object({ cpm: Type.Number(), currency: Type.String() }),
    window: nullable(Type.Object({ start: Type.String({ format: 'date' }), end: Type.String({ format: 'date' }), active: Type.Boolean() })),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { title: 'CatalogEntry' },
)

const CatalogQuery = Type.Object({
  type: Type.Optional(StringEnum(['public', 'seasonal', 'personal'] as const)),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'case-insensitive match on name and description' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
})

/** GET /v1/curation/catalog: public IAB and seasonal segments plus the client's own (docs/curation.md). */
export function catalogRoutes(app: App, ctx: CurationContext): void {
  app.get(
    '/catalog',
    {
      schema: {
        tags: ['curation'],
        summary: 'The segment catalog: public (IAB), seasonal, and personal (your own complete segments)',
        querystring: CatalogQuery,
        response: {
          200: Type.Object(
            { total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer(), entries: Type.Array(CatalogEntry) },
            { title: 'CatalogPage' },
          ),
          ...errorResponses(400, 422),
        },
      },
    },
    async (req) => {
      const limit = req.query.limit ?? 100
      const offset = req.query.offset ?? 0
      const page = await listCatalog(ctx.db, req.principal!.clientId, {
        ...(req.query.type ? { type: req.query.type } : {}),
        ...(req.query.q ? { q: req.query.q } : {}),
        limit,
        offset,
        now: ctx.clock.now(),
        config: ctx.config.curation,
      })
      return { total: page.total, limit, offset, entries: page.entries }
    },
  )
}
