/** Queue job kinds of the scraping feature (src/platform/jobs). */
import type { Periodic } from '../../platform/jobs/kinds.ts'

export const chunkJobKind = 'scrape.chunk'
export const urlJobKind = 'scrape.url'
export const registerJobKind = 'scrape.register'
export const maintenanceJobKind = 'scrape.maintenance'

export interface ChunkPayload {
  job_id: number
  chunk_no: number
}

export interface RegisterPayload {
  job_id: number
}

export interface UrlPayload {
  url: string
  /** The search's max_age (force and the minimum applied), when it asked for one. */
  max_age_ms?: number
}

declare module '../../platform/jobs/kinds.ts' {
  interface JobPayloads {
    'scrape.chunk': ChunkPayload
    'scrape.url': UrlPayload
    'scrape.register': RegisterPayload
    'scrape.maintenance': Periodic
  }
}
