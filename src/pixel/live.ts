import { Type } from '@sinclair/typebox'

import type { App } from '../platform/http/app.ts'
import { notFound } from '../platform/http/errors.ts'
import { errorResponses, IdParams } from '../platform/http/schemas.ts'
import { getPixelCampaign } from './campaigns-repository.ts'
import type { PixelContext } from './context.ts'

/** Counting stops here: a live counter needs "a lot", not an exact figure that scans a busy hour. */
export const LIVE_HITS_CAP = 100_000

const LiveQuery = Type.Object({
  window_seconds: Type.Optional(Type.Integer({ minimum: 10, maximum: 3600, default: 300, description: 'how far back to count, in seconds' })),
})

export const LiveHits = Type.Object(
  {
    campaign_id: Type.Integer(),
    window_seconds: Type.Integer(),
    since: Type.String({ format: 'date-time' }),
    hits: Type.Integer({ description: `hits stored in the window (pixel, beacon and log ingest), counted up to ${LIVE_HITS_CAP}` }),
    capped: Type.Boolean({ description: 'true: there were at least `hits`; counting stopped there' }),
    by_agent_type: Type.Record(Type.String(), Type.Integer(), { description: 'the counted hits by agent type (human, search, llm_training, …)' }),
    last_hit_date: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { title: 'PixelLiveHits' },
)

/**
 * GET /v1/pixel/campaigns/{id}/hits: the hits that arrived recently, for a live counter (the
 * console's pixel screen polls it). Reads the raw events over the window through their time index,
 * bounded by LIVE_HITS_CAP, so a busy campaign costs no more than that.
 */
export function liveRoutes(app: App, ctx: PixelContext): void {
  app.get(
    '/campaigns/:id/hits',
    {
      schema: {
        tags: ['pixel'],
        summary: 'Hits that arrived in the last minutes (a live count; an addition to the spec)',
        params: IdParams,
        querystring: LiveQuery,
        response: { 200: LiveHits, ...errorResponses(400, 404, 422) },
      },
    },
    async (req) => {
      const clientId = req.principal!.clientId
      const campaign = await getPixelCampaign(ctx.db, clientId, req.params.id)
      if (!campaign) throw notFound('campaign')
      const windowSeconds = req.query.window_seconds ?? 300
      const since = new Date(ctx.clock.now().getTime() - windowSeconds * 1000)
      const { rows } = await ctx.db.query<{ agent_type: string; n: number; last: Date }>(
        `SELECT agent_type, count(*)::int AS n, max(received_at) AS last
           FROM (SELECT agent_type, received_at FROM pixel_events
                  WHERE received_at > $3 AND campaign_id = $1 AND client_id = $2 AND invalid_reason IS NULL
                  LIMIT $4) recent
          GROUP BY agent_type`,
        [campaign.id, clientId, since, LIVE_HITS_CAP],
      )
      const hits = rows.reduce((sum, r) => sum + Number(r.n), 0)
      const last = rows.reduce<Date | null>((m, r) => (m === null || r.last > m ? r.last : m), null)
      return {
        campaign_id: campaign.id,
        window_seconds: windowSeconds,
        since: since.toISOString(),
        hits,
        capped: hits >= LIVE_HITS_CAP,
        by_agent_type: Object.fromEntries(rows.map((r) => [r.agent_type, Number(r.n)])),
        last_hit_date: last ? new Date(last).toISOString() : null,
      }
    },
  )
}
