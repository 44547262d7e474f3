import { reportJob } from '../../platform/jobs/report-job.ts'
import type { CurationContext } from '../context.ts'
import { computeSegmentReport } from './compute.ts'
import { getSegmentReport, SEGMENT_REPORT_JOB, segmentReportRequest } from './repository.ts'

/** Computes a segment performance report (the shared report-record state machine). */
export const segmentReportJob = (ctx: CurationContext) =>
  reportJob({
    kind: SEGMENT_REPORT_JOB,
    clock: ctx.clock,
    table: 'segment_reports',
    load: (clientId, id) => segmentReportRequest(ctx.db, clientId, id),
    compute: (clientId, req) => computeSegmentReport(ctx.db, clientId, req),
    events: { completed: 'performance_report.completed', failed: 'performance_report.failed', view: getSegmentReport },
  })
