import type { AppContext } from './context.ts'
import type { JobHandler } from './jobs/handler.ts'
import { pruneSessions } from './keys/sessions.ts'

/** Hourly housekeeping: old rate-limit windows, expired console sessions, finished jobs older than a week. */
export function maintenanceJob(ctx: AppContext): JobHandler<'platform.maintenance'> {
  return {
    kind: 'platform.maintenance',
    everyMs: 3_600_000,
    async run() {
      await ctx.rateLimiter.prune()
      await pruneSessions(ctx.db, ctx.clock.now())
      await ctx.db.query(`DELETE FROM jobs WHERE status IN ('done', 'failed') AND finished_at < $1`, [new Date(ctx.clock.now().getTime() - 7 * 86_400_000)])
    },
  }
}
