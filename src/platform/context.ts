import type { Clock } from './clock.ts'
import type { Config } from './config.ts'
import type { Db } from './db/db.ts'
import type { Metrics } from './metrics.ts'

/** What every feature gets from the platform: passed explicitly to route plugins and job handlers. */
export interface AppContext {
  db: Db
  clock: Clock
  config: Config
  metrics: Metrics
}
