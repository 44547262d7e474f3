import type { AppContext } from '../../platform/context.ts'
import type { JobHandler } from '../../platform/jobs/handler.ts'
import { PermanentJobError } from '../../platform/jobs/handler.ts'
import { computeSegmentReport } from './compute.ts'
import type { SegmentReportJobPayload } from './repository.ts'
import { completeSegmentReport, failSegmentReport, markProcessing, SEGMENT_REPORT_JOB, segmentReportRequest } from './repository.ts'

/**
 * pending -> processing (claimed) -> complete (results and processed_date, committed with the job's
 * completion); after the last of 3 attempts -> failed with a reason. A retry recomputes from scratch.
 */
export function segmentReportJob(ctx: AppContext): JobHandler<SegmentReportJobPayload> {
  return {
    kind: SEGMENT_REPORT_JOB,
    maxAttempts: 3,
    async run(p, job) {
      const req = await segmentReportRequest(ctx.db, p.clientId, p.reportId)
      if (!req) throw new PermanentJobError(`segment report ${p.reportId} does not exist`)
      if (req.status === 'complete') return
      await job.withLease((tx) => markProcessing(tx, p.clientId, p.reportId))
      const result = await computeSegmentReport(ctx.db, p.clientId, req)
      await job.finish((tx) => completeSegmentReport(tx, p.clientId, p.reportId, result, job.clock.now()))
    },
    async onFailed(p, _reason, tx) {
      // The job's error (kept on the job row and in the log) may name internals; the client reads this.
      await failSegmentReport(tx, p.clientId, p.reportId, 'the report could not be computed; create it again, or contact the operator')
    },
  }
}
