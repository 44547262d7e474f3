import { useCallback, useEffect, useRef, useState } from 'preact/hooks'

import { ApiError, get } from '../api.ts'

export interface Loaded<T> {
  data: T | null
  error: ApiError | Error | null
  loading: boolean
  reload(): void
}

/**
 * GET `path` (null: nothing yet) and keep the answer; with `pollMs`, fetch again while `keepPolling`
 * says the record is still changing (a build, a job, a report), so a screen follows it live.
 */
export function useApi<T>(path: string | null, opts: { pollMs?: number; keepPolling?: (data: T) => boolean } = {}): Loaded<T> {
  const [state, setState] = useState<{ data: T | null; error: ApiError | Error | null; loading: boolean }>({ data: null, error: null, loading: path !== null })
  const [tick, setTick] = useState(0)
  const keep = useRef(opts.keepPolling)
  keep.current = opts.keepPolling
  const reload = useCallback(() => setTick((n) => n + 1), [])

  useEffect(() => {
    if (path === null) return
    let live = true
    let timer: ReturnType<typeof setTimeout> | undefined
    const load = async () => {
      try {
        const data = await get<T>(path)
        if (!live) return
        setState({ data, error: null, loading: false })
        if (opts.pollMs && keep.current?.(data)) timer = setTimeout(load, opts.pollMs)
      } catch (e) {
        if (live) setState((s) => ({ data: s.data, error: e instanceof Error ? e : new Error(String(e)), loading: false }))
      }
    }
    setState((s) => ({ ...s, loading: true }))
    void load()
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [path, tick, opts.pollMs])

  return { ...state, reload }
}

/** A write: runs `fn`, remembering its error (field details shown inline) and whether it is in flight. */
export function useAction<A extends unknown[], R>(fn: (...args: A) => Promise<R>) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiError | Error | null>(null)
  const run = useCallback(
    async (...args: A): Promise<R | undefined> => {
      setBusy(true)
      setError(null)
      try {
        return await fn(...args)
      } catch (e) {
        setError(e instanceof Error ? e : new Error(String(e)))
        return undefined
      } finally {
        setBusy(false)
      }
    },
    [fn],
  )
  return { run, busy, error, setError }
}

export { ApiError }
