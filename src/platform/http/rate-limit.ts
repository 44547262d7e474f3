import type { Clock } from '../clock.ts'
import type { Db } from '../db/db.ts'
import { ApiError } from './errors.ts'

export interface RateLimitState {
  limit: number
  remaining: number
  resetSeconds: number
}

export interface RateLimiter {
  /** Counts one request of the key; throws 429 rate_limited past the limit. */
  hit(keyId: number): Promise<RateLimitState>
  /** Forgets windows older than an hour. */
  prune(): Promise<void>
}

/**
 * Fixed one-minute windows per key. On PostgreSQL the count lives in the database, so every API
 * process sharing it enforces one limit (the upsert is atomic: two requests never both get the last
 * slot). The embedded engine is locked to one process, so there the count stays in memory and costs
 * no query.
 */
export function createRateLimiter(db: Db, clock: Clock, perMinute: number): RateLimiter {
  const counter = db.engine === 'postgres' ? databaseCounter(db) : memoryCounter()
  return {
    async hit(keyId) {
      const now = clock.now().getTime()
      const windowStart = now - (now % 60_000)
      const count = await counter.increment(keyId, windowStart)
      const resetSeconds = Math.max(1, Math.ceil((windowStart + 60_000 - now) / 1000))
      const state = { limit: perMinute, remaining: Math.max(0, perMinute - count), resetSeconds }
      if (count > perMinute) {
        throw new ApiError(429, 'rate_limited', `rate limit of ${perMinute} requests per minute exceeded; retry after ${resetSeconds} s`, undefined, {
          'retry-after': String(resetSeconds),
          ...headersFor(state),
        })
      }
      return state
    },
    prune: () => counter.prune(clock.now().getTime() - 3_600_000),
  }
}

interface Counter {
  increment(keyId: number, windowStart: number): Promise<number>
  prune(before: number): Promise<void>
}

function databaseCounter(db: Db): Counter {
  return {
    async increment(keyId, windowStart) {
      const { rows } = await db.query<{ count: number }>(
        `INSERT INTO rate_limit_windows (api_key_id, window_start, count) VALUES ($1, $2, 1)
         ON CONFLICT (api_key_id, window_start) DO UPDATE SET count = rate_limit_windows.count + 1
         RETURNING count`,
        [keyId, new Date(windowStart)],
      )
      return rows[0]!.count
    },
    async prune(before) {
      await db.query('DELETE FROM rate_limit_windows WHERE window_start < $1', [new Date(before)])
    },
  }
}

function memoryCounter(): Counter {
  const windows = new Map<number, { start: number; count: number }>()
  return {
    async increment(keyId, windowStart) {
      const w = windows.get(keyId)
      if (w && w.start === windowStart) return ++w.count
      windows.set(keyId, { start: windowStart, count: 1 })
      return 1
    },
    async prune(before) {
      for (const [k, w] of windows) if (w.start < before) windows.delete(k)
    },
  }
}

export function headersFor(s: RateLimitState): Record<string, string> {
  return {
    'x-ratelimit-limit': String(s.limit),
    'x-ratelimit-remaining': String(s.remaining),
    'x-ratelimit-reset': String(s.resetSeconds),
  }
}
