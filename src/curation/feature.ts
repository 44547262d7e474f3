import type { Feature } from '../platform/http/app.ts'
import type { JobHandler } from '../platform/jobs/handler.ts'
import { associationsJob } from './builder/associations.ts'
import { buildJob } from './builder/build-segment.ts'
import { catalogJob, catalogWatchJob } from './catalog/refresh.ts'
import { catalogRoutes } from './catalog/routes.ts'
import type { CurationContext } from './context.ts'
import { optimizeJob } from './optimizations/apply.ts'
import { optimizationRoutes } from './optimizations/routes.ts'
import { removalRoutes } from './removals/routes.ts'
import { segmentReportJob } from './reports/job.ts'
import { segmentReportRoutes } from './reports/routes.ts'
import { segmentRoutes } from './segments/routes.ts'
import { taxonomyRoutes } from './taxonomy/routes.ts'

/** Segment curation (docs/curation.md): routes under /v1/curation. */
export const curationFeature: Feature<CurationContext> = {
  prefix: '/v1/curation',
  routes(app, ctx) {
    taxonomyRoutes(app)
    segmentRoutes(app, ctx)
    removalRoutes(app, ctx)
    optimizationRoutes(app, ctx)
    catalogRoutes(app, ctx)
    segmentReportRoutes(app, ctx)
  },
}

/** Curation's jobs: segment builds, optimizations, segment performance reports, the periodic catalog refresh and term associations. */
export function curationJobs(ctx: CurationContext): JobHandler[] {
  return [buildJob(ctx), optimizeJob(ctx), segmentReportJob(ctx), catalogJob(ctx), catalogWatchJob(ctx), associationsJob(ctx)]
}
