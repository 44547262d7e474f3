import type { ScrapeJob } from '../schemas.ts'
import type { JobRow } from './repository.ts'

/** The job as the API shows it, without results. */
export function view(row: JobRow, done: number): ScrapeJob {
  return {
    id: row.id,
    status: row.status,
    url_count: row.url_count,
    created_date: row.created_date.toISOString(),
    processed_date: row.processed_date?.toISOString() ?? null,
    results: null,
    submitted_count: row.submitted_count,
    invalid_url_count: row.invalid_count,
    progress: { done: row.status === 'complete' ? row.url_count : done, total: row.url_count },
    failure_reason: row.failure_reason,
    max_age: row.max_age_ms === null ? null : Math.round(row.max_age_ms / 1000),
  }
}

/** Where a job's results are read in one streamed response (JSON Lines): webhook events link to it. */
export const exportPath = (id: number) => `/v1/scraping/jobs/${id}/export`

/** The job as webhook events carry it: as GET shows it, the results linked rather than inlined. */
export function eventView(row: JobRow, done: number): ScrapeJob & { results_url: string } {
  return { ...view(row, done), results_url: exportPath(row.id) }
}
