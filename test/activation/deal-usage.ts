import type { Queryable } from '../../src/platform/db/db.ts'

/**
 * Records impressions that carried a deal id: the deal is "in use" and the lifecycle keeps it live.
 * In production the pixel's batch writes fill deal_usage (src/pixel/rollups.ts) and the hourly
 * lifecycle job carries the last day of use over to activations.last_used_at; this is the same
 * write for one event, with last_used_at moved at once, for tests that record use without the pixel.
 */
export async function recordDealUse(q: Queryable, dealId: string, at: Date, impressions = 1): Promise<void> {
  await q.query(
    `INSERT INTO deal_usage (deal_id, day, impressions) VALUES ($1, $2::date, $3)
     ON CONFLICT (deal_id, day) DO UPDATE SET impressions = deal_usage.impressions + EXCLUDED.impressions`,
    [dealId, at.toISOString().slice(0, 10), impressions],
  )
  await q.query(`UPDATE activations SET last_used_at = GREATEST(coalesce(last_used_at, $2), $2) WHERE deal_id = $1`, [dealId, at])
}
