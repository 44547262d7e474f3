import type { Feature } from '../platform/http/app.ts'
import type { JobHandler } from '../platform/jobs/handler.ts'
import type { ScrapingContext } from './context.ts'
import { reclassifyJob } from './index/reclassify.ts'
import { semanticJob } from './index/semantic-vectors.ts'
import { scrapingJobs as jobs } from './jobs/handlers.ts'
import { jobRoutes } from './jobs/routes.ts'
import { searchRoutes } from './search/routes.ts'

/** Scraping and the content index (docs/scraping.md): routes under /v1/scraping. */
export const scrapingFeature: Feature<ScrapingContext> = {
  prefix: '/v1/scraping',
  routes(app, ctx) {
    searchRoutes(app, ctx)
    jobRoutes(app, ctx)
  },
}

/**
 * Scrape-job chunks, single-URL submissions from search, their housekeeping, and the index's
 * background work: reclassification, and sentence vectors when the encoder is on.
 */
export function scrapingJobs(ctx: ScrapingContext): JobHandler[] {
  return [...jobs(ctx), reclassifyJob(ctx), ...(ctx.encoder ? [semanticJob(ctx, ctx.encoder)] : [])]
}
