import { sleep } from './sleep.ts'

/**
 * Crawl politeness: at most `perHostConcurrency` requests in flight per host, request starts to one
 * host spaced by at least `perHostDelayMs`, a host-wide pause after 429/Retry-After, and at most
 * `globalConcurrency` requests in flight overall. Uses the monotonic clock: a test clock that
 * jumps must not make the crawler hammer a host. With `sharedHosts`, the per-host limits also hold
 * across every process sharing it (db-host-gate.ts); without, they hold per process.
 */
export interface PolitenessOptions {
  perHostConcurrency: number
  perHostDelayMs: number
  globalConcurrency: number
  /** The same per-host limits kept for all worker processes together. */
  sharedHosts?: SharedHostGate
}

/** A lease on one request slot of a host, or how long to wait before asking again. */
export type HostClaim = { lease: number } | { retryInMs: number }

/** Per-host slots and spacing shared between processes. */
export interface SharedHostGate {
  /** Takes a slot of `host` if one is free and the spacing allows a start now; never waits. */
  tryClaim(host: string): Promise<HostClaim>
  release(host: string, lease: number): Promise<void>
  /** Holds back every process's requests to `host` for `ms` from now. */
  pause(host: string, ms: number): Promise<void>
}

export type Release = () => void

export interface Politeness {
  /** Waits for a slot on `host` and a global slot; call the returned function when the request is over. */
  acquire(host: string, signal?: AbortSignal): Promise<Release>
  /** Holds back every request to `host` for `ms` from now (a 429 or 503 with Retry-After); resolves once shared. */
  pause(host: string, ms: number): Promise<void>
}

interface Waiter {
  grant: () => void
}

/** Queues a waiter until someone calls its grant; the caller's signal removes it from the queue. */
function waitInQueue(queue: Waiter[], signal: AbortSignal | undefined, onQueued: () => void): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = (): void => {
      const i = queue.indexOf(waiter)
      if (i >= 0) queue.splice(i, 1)
      reject(signal?.reason)
    }
    const waiter: Waiter = {
      grant: () => {
        signal?.removeEventListener('abort', onAbort)
        resolve()
      },
    }
    signal?.addEventListener('abort', onAbort, { once: true })
    queue.push(waiter)
    onQueued()
  })
}

interface HostState {
  active: number
  nextStart: number
  queue: Waiter[]
  timer: NodeJS.Timeout | null
}

// Idle host entries are dropped once the map grows past this, so a million-host crawl stays small.
const HOST_SWEEP_THRESHOLD = 10_000

export function createPoliteness(opts: PolitenessOptions): Politeness {
  const hosts = new Map<string, HostState>()
  const globalQueue: Waiter[] = []
  let globalActive = 0

  const isIdle = (s: HostState, now: number): boolean => s.active === 0 && s.queue.length === 0 && s.timer === null && s.nextStart <= now

  function hostState(host: string): HostState {
    let s = hosts.get(host)
    if (!s) {
      if (hosts.size >= HOST_SWEEP_THRESHOLD) {
        const now = performance.now()
        for (const [h, st] of hosts) if (isIdle(st, now)) hosts.delete(h)
      }
      s = { active: 0, nextStart: 0, queue: [], timer: null }
      hosts.set(host, s)
    }
    return s
  }

  function pumpHost(s: HostState): void {
    while (s.queue.length > 0 && s.active < opts.perHostConcurrency) {
      const now = performance.now()
      const wait = s.nextStart - now
      if (wait > 0) {
        s.timer ??= setTimeout(() => {
          s.timer = null
          pumpHost(s)
        }, Math.ceil(wait))
        return
      }
      s.active++
      s.nextStart = now + opts.perHostDelayMs
      s.queue.shift()?.grant()
    }
  }

  function pumpGlobal(): void {
    while (globalQueue.length > 0 && globalActive < opts.globalConcurrency) {
      globalActive++
      globalQueue.shift()?.grant()
    }
  }

  const releaseGlobal = (): void => {
    globalActive--
    pumpGlobal()
  }

  /** A shared lease, or null when the shared gate cannot be asked (the in-process limits still hold). */
  async function claimShared(shared: SharedHostGate, host: string): Promise<HostClaim | { lease: null }> {
    try {
      return await shared.tryClaim(host)
    } catch {
      return { lease: null }
    }
  }

  return {
    async acquire(host, signal) {
      const s = hostState(host)
      await waitInQueue(s.queue, signal, () => pumpHost(s))
      const releaseHost = (): void => {
        s.active--
        pumpHost(s)
      }
      let lease: number | null = null
      try {
        for (;;) {
          // Host first, then global: a request waiting out a host delay must not hold a global slot.
          await waitInQueue(globalQueue, signal, pumpGlobal)
          if (!opts.sharedHosts) break
          const claim = await claimShared(opts.sharedHosts, host)
          if ('lease' in claim) {
            lease = claim.lease
            break
          }
          // Another process holds the host: give the global slot back while waiting.
          releaseGlobal()
          await sleep(claim.retryInMs, signal)
        }
      } catch (err) {
        releaseHost()
        throw err
      }
      let released = false
      return () => {
        if (released) return
        released = true
        releaseGlobal()
        releaseHost()
        if (lease !== null) opts.sharedHosts?.release(host, lease).catch(() => {}) // an unreleased lease lapses
      }
    },

    async pause(host, ms) {
      const s = hostState(host)
      s.nextStart = Math.max(s.nextStart, performance.now() + ms)
      if (s.timer) {
        // Re-arm so the pending wake-up honours the longer pause.
        clearTimeout(s.timer)
        s.timer = null
        pumpHost(s)
      }
      await opts.sharedHosts?.pause(host, ms).catch(() => {}) // the in-process pause above still holds
    },
  }
}
