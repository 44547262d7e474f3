// The per-address abuse bound: a token bucket per client address (IPv6: per /64), in memory. Over
// the bound a hit is still answered with the GIF but not recorded (counted in
// pixel_hits_total{outcome="throttled"}). Idle buckets are swept; if a flood of distinct addresses
// fills the table anyway it is cleared, which fails open rather than growing without limit.

export interface TokenBucket {
  /** Takes one token for `key`; false when the bucket is empty. A null key (no address) is never limited. */
  take(key: number | string | null): boolean
  /** Drops buckets that have refilled completely (they hold no state worth keeping). */
  sweep(): void
  readonly size: number
}

export function createTokenBucket(opts: { ratePerSec: number; burst: number; maxKeys?: number; now?: () => number }): TokenBucket {
  const { ratePerSec, burst } = opts
  const maxKeys = opts.maxKeys ?? 100_000
  const now = opts.now ?? (() => performance.now())
  const buckets = new Map<number | string, { tokens: number; at: number }>()
  const refill = (b: { tokens: number; at: number }, t: number) => {
    b.tokens = Math.min(burst, b.tokens + ((t - b.at) * ratePerSec) / 1000)
    b.at = t
  }
  return {
    take(key) {
      if (ratePerSec === 0 || key === null) return true
      const t = now()
      const b = buckets.get(key)
      if (!b) {
        if (buckets.size >= maxKeys) buckets.clear()
        buckets.set(key, { tokens: burst - 1, at: t })
        return true
      }
      refill(b, t)
      if (b.tokens < 1) return false
      b.tokens -= 1
      return true
    },
    sweep() {
      const t = now()
      for (const [key, b] of buckets) {
        refill(b, t)
        if (b.tokens >= burst) buckets.delete(key)
      }
    },
    get size() {
      return buckets.size
    },
  }
}
