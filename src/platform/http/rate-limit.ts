import type { Clock } from '../clock.ts'
import type { Queryable } from '../db/db.ts'
import { ApiError } from './errors.ts'

export interface RateLimitState {
  limit: number
  remaining: number
  resetSeconds: number
}

/**
 * Fixed one-minute windows counted in the database, so every API process sharing a PostgreSQL
 * server enforces one limit per key. The upsert is atomic: concurrent requests never both get the
 * last slot.
 */
export function createRateLimiter(db: Queryable, clock: Clock, perMinute: number) {
  return {
    async hit(keyId: number): Promise<RateLimitState> {
      const now = clock.now().getTime()
      const windowStart = new Date(now - (now % 60_000))
      const { rows } = await db.query<{ count: number }>(
        `INSERT INTO rate_limit_windows (api_key_id, window_start, count) VALUES ($1, $2, 1)
         ON CONFLICT (api_key_id, window_start) DO UPDATE SET count = rate_limit_windows.count + 1
         RETURNING count`,
        [keyId, windowStart],
      )
      const count = rows[0]!.count
      const resetSeconds = Math.max(1, Math.ceil((windowStart.getTime() + 60_000 - now) / 1000))
      const state = { limit: perMinute, remaining: Math.max(0, perMinute - count), resetSeconds }
      if (count > perMinute) {
        throw new ApiError(
          429,
          'rate_limited',
          `rate limit of ${perMinute} requests per minute exceeded; retry after ${resetSeconds} s`,
          undefined,
          { 'retry-after': String(resetSeconds), ...headersFor(state) },
        )
      }
      return state
    },
    /** Drops windows older than an hour (run by the maintenance job). */
    async prune(): Promise<void> {
      await db.query('DELETE FROM rate_limit_windows WHERE window_start < $1', [
        new Date(clock.now().getTime() - 3_600_000),
      ])
    },
  }
}

export type RateLimiter = ReturnType<typeof createRateLimiter>

export function headersFor(s: RateLimitState): Record<string, string> {
  return {
    'x-ratelimit-limit': String(s.limit),
    'x-ratelimit-remaining': String(s.remaining),
    'x-ratelimit-reset': String(s.resetSeconds),
  }
}
