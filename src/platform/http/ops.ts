import { Type } from '@sinclair/typebox'

import { pendingMigrations } from '../db/migrate.ts'
import type { Feature } from './app.ts'

/** Liveness, readiness and Prometheus metrics: unauthenticated, outside /v1. */
export const opsFeature: Feature = {
  prefix: '',
  routes(app, ctx) {
    app.get(
      '/healthz',
      { schema: { tags: ['operations'], summary: 'Process is alive', security: [], response: { 200: Type.Object({ status: Type.Literal('ok') }) } } },
      async () => ({ status: 'ok' as const }),
    )

    const Ready = Type.Object({
      status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')]),
      database: Type.Boolean(),
      pending_migrations: Type.Array(Type.Integer()),
    })
    app.get(
      '/readyz',
      { schema: { tags: ['operations'], summary: 'Database reachable and migrations current', security: [], response: { 200: Ready, 503: Ready } } },
      async (_req, reply) => {
        const database = await ctx.db.query('SELECT 1').then(
          () => true,
          () => false,
        )
        const pending = database ? await pendingMigrations(ctx.db) : []
        const ready = database && pending.length === 0
        reply.code(ready ? 200 : 503)
        return { status: ready ? ('ready' as const) : ('not_ready' as const), database, pending_migrations: pending }
      },
    )

    app.get('/metrics', { schema: { tags: ['operations'], summary: 'Prometheus metrics', security: [] } }, async (_req, reply) => {
      reply.type(ctx.metrics.registry.contentType)
      return ctx.metrics.registry.metrics()
    })
  },
}
