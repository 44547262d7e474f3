import { activationJobs } from './activation/jobs.ts'
import { activationFeature } from './activation/routes.ts'
import { adcpFeature } from './adcp/http.ts'
import { adcpJobs } from './adcp/settle.ts'
import { consoleFeature } from './console/feature.ts'
import type { ServiceContext } from './context.ts'
import { curationFeature, curationJobs } from './curation/feature.ts'
import { clickUrlFeature } from './pixel/clicks/routes.ts'
import { collectorFeature } from './pixel/collector/feature.ts'
import { pixelJobs } from './pixel/jobs.ts'
import { pixelFeature } from './pixel/routes.ts'
import type { Feature } from './platform/http/app.ts'
import { opsFeature } from './platform/http/ops.ts'
import type { JobHandler } from './platform/jobs/handler.ts'
import type { Worker, WorkerLogger } from './platform/jobs/worker.ts'
import { createWorker } from './platform/jobs/worker.ts'
import { maintenanceJob } from './platform/maintenance.ts'
import { deliverJob } from './platform/webhooks/deliver.ts'
import { webhooksFeature } from './platform/webhooks/routes.ts'
import { scrapingFeature, scrapingJobs } from './scraping/feature.ts'
import { snowballFeature } from './snowball/routes.ts'

/** The composition root: which routes each role serves and which jobs workers run. */
export function apiFeatures(): Feature<ServiceContext>[] {
  return [
    opsFeature,
    snowballFeature,
    activationFeature,
    curationFeature,
    pixelFeature,
    clickUrlFeature,
    scrapingFeature,
    adcpFeature,
    consoleFeature,
    webhooksFeature,
  ]
}

export function collectorFeatures(): Feature<ServiceContext>[] {
  return [opsFeature, collectorFeature]
}

export function jobHandlers(ctx: ServiceContext): JobHandler[] {
  return [maintenanceJob(ctx), ...activationJobs(ctx), ...curationJobs(ctx), ...pixelJobs(ctx), ...scrapingJobs(ctx), ...adcpJobs(ctx), deliverJob(ctx)]
}

/** A started worker running every job handler with the configured concurrency, poll and lease. */
export async function startWorker(ctx: ServiceContext, logger: WorkerLogger): Promise<Worker> {
  const { jobs } = ctx.config
  const worker = createWorker({
    db: ctx.db,
    clock: ctx.clock,
    handlers: jobHandlers(ctx),
    concurrency: jobs.concurrency,
    pollMs: jobs.pollMs,
    leaseMs: jobs.leaseMs,
    logger,
    onJobDone: ctx.metrics.observeJob,
  })
  await worker.start()
  return worker
}
