/**
 * Per-host politeness across worker processes, through the database: one row per host holds when the
 * next request may start and a lease per request in flight. A claim is one atomic INSERT … ON CONFLICT
 * DO UPDATE (the row lock orders competing claims), so however many processes crawl, a host sees at
 * most `perHostConcurrency` requests at once and request starts `perHostDelayMs` apart. A lease
 * outlives its request's deadline by a margin, so a crashed worker's leases lapse on their own.
 */
import type { Queryable } from '../../platform/db/db.ts'
import type { HostClaim, SharedHostGate } from './politeness.ts'

// Database-clock microseconds, evaluated once per statement.
const NOW = `(SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint AS us)`

const CLAIM = `
WITH now AS ${NOW}
INSERT INTO scrape_host_gates AS g (host, next_start, leases)
SELECT $1, now.us + $2, ARRAY[now.us + $4] FROM now
ON CONFLICT (host) DO UPDATE
   SET next_start = (SELECT us FROM now) + $2,
       leases = array_append(
         ARRAY(SELECT l FROM unnest(g.leases) AS l WHERE l > (SELECT us FROM now)),
         -- A lease is its expiry, and unique in its row: the embedded engine's clock ticks in
         -- milliseconds, so two claims in one tick would expire together and one release free both.
         greatest((SELECT us FROM now) + $4, (SELECT max(l) + 1 FROM unnest(g.leases) AS l)))
 WHERE g.next_start <= (SELECT us FROM now)
   AND cardinality(ARRAY(SELECT l FROM unnest(g.leases) AS l WHERE l > (SELECT us FROM now))) < $3
RETURNING g.leases[cardinality(g.leases)] AS lease`

const WAIT = `
WITH now AS ${NOW}
SELECT greatest(g.next_start - now.us, 0) AS wait_us
  FROM scrape_host_gates AS g, now
 WHERE g.host = $1`

// A lease is removed by value: CLAIM keeps a host's leases distinct.
const RELEASE = `UPDATE scrape_host_gates SET leases = array_remove(leases, $2::bigint) WHERE host = $1`

const PAUSE = `
WITH now AS ${NOW}
INSERT INTO scrape_host_gates AS g (host, next_start)
SELECT $1, now.us + $2 FROM now
ON CONFLICT (host) DO UPDATE SET next_start = greatest(g.next_start, excluded.next_start)`

const SWEEP = `
WITH now AS ${NOW}
DELETE FROM scrape_host_gates AS g USING now
 WHERE g.next_start < now.us - $1
   AND NOT EXISTS (SELECT 1 FROM unnest(g.leases) AS l WHERE l > now.us)`

// How soon to ask again when the host is at its concurrency limit (the slot frees when a request ends).
const BUSY_POLL_MS = 25

export interface DbHostGateOptions {
  perHostConcurrency: number
  perHostDelayMs: number
  /** How long a lease holds when its holder never releases it: the request's deadline plus a margin. */
  leaseMs: number
}

export function createDbHostGate(db: Queryable, opts: DbHostGateOptions): SharedHostGate {
  const delayUs = Math.round(opts.perHostDelayMs * 1000)
  const leaseUs = Math.round(opts.leaseMs * 1000)
  return {
    async tryClaim(host): Promise<HostClaim> {
      const { rows } = await db.query<{ lease: number }>(CLAIM, [host, delayUs, opts.perHostConcurrency, leaseUs])
      if (rows[0]) return { lease: rows[0].lease }
      const wait = await db.query<{ wait_us: number }>(WAIT, [host])
      const waitMs = Math.ceil((wait.rows[0]?.wait_us ?? 0) / 1000)
      return { retryInMs: waitMs > 0 ? waitMs : BUSY_POLL_MS }
    },
    async release(host, lease) {
      await db.query(RELEASE, [host, lease])
    },
    async pause(host, ms) {
      await db.query(PAUSE, [host, Math.round(ms * 1000)])
    },
  }
}

/** Drops the rows of hosts left alone for `idleMs` (none in flight): the table stays the size of the active crawl. */
export async function sweepHostGates(db: Queryable, idleMs = 3_600_000): Promise<number> {
  const { rowCount } = await db.query(SWEEP, [Math.round(idleMs * 1000)])
  return rowCount
}
