import type { Db } from '../platform/db/db.ts'
import type { JobHandler } from '../platform/jobs/handler.ts'
import type { PixelContext } from './context.ts'
import { publisherReportJob } from './reports/job.ts'

/** The pixel feature's jobs: publisher reports and raw-event retention. */
export function pixelJobs(ctx: PixelContext): JobHandler[] {
  return [publisherReportJob(ctx), retentionJob(ctx, ctx.config.pixel.rawRetentionDays)]
}

const DELETE_BATCH = 10_000

/**
 * Hourly: deletes raw events older than PIXEL_RAW_RETENTION_DAYS, in batches so no statement holds
 * locks for long. The rollups, which reports read, are kept.
 */
export function retentionJob(ctx: PixelContext, days: number): JobHandler<'pixel.retention'> {
  return {
    kind: 'pixel.retention',
    everyMs: 3_600_000,
    async run() {
      await deleteRawEventsBefore(ctx.db, new Date(ctx.clock.now().getTime() - days * 86_400_000))
    },
  }
}

export async function deleteRawEventsBefore(db: Db, cutoff: Date): Promise<number> {
  let deleted = 0
  for (;;) {
    const { rowCount } = await db.query(`DELETE FROM pixel_events WHERE ctid IN (SELECT ctid FROM pixel_events WHERE received_at < $1 LIMIT ${DELETE_BATCH})`, [
      cutoff.toISOString(),
    ])
    deleted += rowCount
    if (rowCount < DELETE_BATCH) return deleted
  }
}
