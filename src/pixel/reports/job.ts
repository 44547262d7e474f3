import { reportJob } from '../../platform/jobs/report-job.ts'
import type { PixelContext } from '../context.ts'
import { computeReport } from './compute.ts'
import { getReport, REPORT_JOB, reportRequest } from './repository.ts'

/** Computes a publisher report from the rollups (the shared report-record state machine). */
export const publisherReportJob = (ctx: PixelContext) =>
  reportJob({
    kind: REPORT_JOB,
    clock: ctx.clock,
    table: 'pixel_publisher_reports',
    load: (clientId, id) => reportRequest(ctx.db, clientId, id),
    compute: (clientId, req) => computeReport(ctx.db, clientId, req),
    events: { completed: 'publisher_report.completed', failed: 'publisher_report.failed', view: getReport },
  })
