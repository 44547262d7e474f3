import type { AppContext } from '../../platform/context.ts'
import type { JobHandler } from '../../platform/jobs/handler.ts'
import { PermanentJobError } from '../../platform/jobs/handler.ts'
import { computeReport } from './compute.ts'
import type { ReportJobPayload } from './repository.ts'
import { completeReport, failReport, markProcessing, REPORT_JOB, reportRequest } from './repository.ts'

/**
 * pending -> processing (claimed) -> complete (results and processed_date, committed with the job's
 * completion); after the last of 3 attempts -> failed with a reason. A retry recomputes from scratch.
 */
export function publisherReportJob(ctx: AppContext): JobHandler<ReportJobPayload> {
  return {
    kind: REPORT_JOB,
    maxAttempts: 3,
    async run(p, job) {
      const req = await reportRequest(ctx.db, p.clientId, p.reportId)
      if (!req) throw new PermanentJobError(`report ${p.reportId} does not exist`)
      if (req.status === 'complete') return
      await job.withLease((tx) => markProcessing(tx, p.clientId, p.reportId))
      const result = await computeReport(ctx.db, p.clientId, req)
      await job.finish((tx) => completeReport(tx, p.clientId, p.reportId, result, job.clock.now()))
    },
    async onFailed(p, _reason, tx) {
      // The job's error (kept on the job row and in the log) may name internals; the client reads this.
      await failReport(tx, p.clientId, p.reportId, 'the report could not be computed; create it again, or contact the operator')
    },
  }
}
