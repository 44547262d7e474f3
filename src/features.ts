import type { Feature } from './platform/http/app.ts'
import { opsFeature } from './platform/http/ops.ts'
import type { JobHandler } from './platform/jobs/handler.ts'
import type { AppContext } from './platform/context.ts'
import { maintenanceJob } from './platform/maintenance.ts'
import { snowballFeature } from './snowball/routes.ts'

/** The composition root: which routes each role serves and which jobs workers run. */
export function apiFeatures(): Feature[] {
  return [opsFeature, snowballFeature]
}

export function collectorFeatures(): Feature[] {
  return [opsFeature]
}

export function jobHandlers(ctx: AppContext): JobHandler<never>[] {
  return [maintenanceJob(ctx)]
}
