import type { Clock } from './clock.ts'
import type { Config } from './config.ts'
import type { Db } from './db/db.ts'
import type { RateLimiter } from './http/rate-limit.ts'
import { createRateLimiter } from './http/rate-limit.ts'
import type { Metrics } from './metrics.ts'
import { createMetrics } from './metrics.ts'

/** What every feature gets from the platform: passed explicitly to route plugins and job handlers. */
export interface AppContext {
  db: Db
  clock: Clock
  config: Config
  metrics: Metrics
  /** One per process: the embedded engine keeps its counts in memory. */
  rateLimiter: RateLimiter
}

export function createContext(db: Db, clock: Clock, config: Config): AppContext {
  return {
    db,
    clock,
    config,
    metrics: createMetrics(db),
    rateLimiter: createRateLimiter(db, clock, config.rateLimitPerMinute),
  }
}
