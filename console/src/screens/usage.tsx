import { useEffect, useState } from 'preact/hooks'

import type { RateLimit } from '../api.ts'
import { get, onRateLimit, rateLimit } from '../api.ts'
import { ErrorBox, fmt, Page } from '../ui/common.tsx'

/** The signed-in key's rate-limit window, read from the X-RateLimit-* headers every API answer carries. */
export function Usage() {
  const [rl, setRl] = useState<RateLimit | null>(rateLimit())
  const [error, setError] = useState<Error | null>(null)
  useEffect(() => {
    const off = onRateLimit(setRl)
    get('/v1/curation/dsps').catch((e: Error) => setError(e))
    return off
  }, [])
  const used = rl ? rl.limit - rl.remaining : 0
  return (
    <Page title="Keys & usage">
      <ErrorBox error={error} />
      <h2>Rate limit</h2>
      {rl ? (
        <>
          <p>
            <strong data-testid="rate-used">{fmt.int(used)}</strong> of {fmt.int(rl.limit)} requests used in the current minute; {fmt.int(rl.remaining)} left,
            the window resets in {rl.resetSeconds} s.
          </p>
          <div class="progress" role="progressbar" aria-label="Requests used this minute" aria-valuemin={0} aria-valuemax={rl.limit} aria-valuenow={used}>
            <div class="progress-bar" style={{ width: `${Math.min(100, (used / Math.max(1, rl.limit)) * 100)}%` }} />
          </div>
          <p class="muted">The console's own requests count against your key like any other client's. Beyond the limit the API answers 429 with Retry-After.</p>
        </>
      ) : (
        <p class="muted">No request made yet.</p>
      )}
      <h2>Keys</h2>
      <p>
        Keys are created and revoked by an operator with <code>npx curata keys create</code> and <code>npx curata keys revoke</code>. Revoking the key you
        signed in with ends this session at once.
      </p>
    </Page>
  )
}
