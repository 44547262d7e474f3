/**
 * The console's only way to data: the public /v1 API, authenticated by the session cookie the
 * browser sends by itself. Writes carry the session's CSRF token. Errors arrive as the API's
 * `{error, message, details}` and are thrown as ApiError for the screens to show.
 */

export interface ErrorDetail {
  path: string
  message: string
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly requestId: string | null = null,
    readonly retryAfter: number | null = null,
  ) {
    super(message)
  }
}

export interface Session {
  client_id: number
  client_name: string
  csrf_token: string
  expires_at: string
}

export interface RateLimit {
  limit: number
  remaining: number
  resetSeconds: number
  at: number
}

let csrf: string | null = null
let lastRateLimit: RateLimit | null = null
const rateListeners = new Set<(r: RateLimit) => void>()

/** Called when a request finds the session gone: the shell sends the user to the sign-in page. */
let onSignedOut: () => void = () => {}

export function setSignedOutHandler(fn: () => void): void {
  onSignedOut = fn
}

export function rateLimit(): RateLimit | null {
  return lastRateLimit
}

export function onRateLimit(fn: (r: RateLimit) => void): () => void {
  rateListeners.add(fn)
  return () => rateListeners.delete(fn)
}

function noteRateLimit(res: Response): void {
  const limit = res.headers.get('x-ratelimit-limit')
  const remaining = res.headers.get('x-ratelimit-remaining')
  if (limit === null || remaining === null) return
  lastRateLimit = { limit: Number(limit), remaining: Number(remaining), resetSeconds: Number(res.headers.get('x-ratelimit-reset') ?? 0), at: Date.now() }
  for (const fn of rateListeners) fn(lastRateLimit)
}

async function failure(res: Response): Promise<ApiError> {
  let body: { error?: string; message?: string; details?: ErrorDetail[] } = {}
  try {
    body = (await res.json()) as typeof body
  } catch {
    // not the API's JSON (a proxy's page): keep the status
  }
  const retry = res.headers.get('retry-after')
  return new ApiError(
    res.status,
    body.error ?? `http_${res.status}`,
    body.message ?? res.statusText ?? 'request failed',
    body.details ?? [],
    res.headers.get('x-request-id'),
    retry === null ? null : Number(retry),
  )
}

export interface RequestOptions {
  body?: unknown
  accept?: string
  signal?: AbortSignal
}

/** One request; the raw Response on success (2xx), ApiError otherwise. */
export async function request(method: string, path: string, opts: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { accept: opts.accept ?? 'application/json' }
  if (opts.body !== undefined) headers['content-type'] = 'application/json'
  if (method !== 'GET' && csrf) headers['x-csrf-token'] = csrf
  const res = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  })
  noteRateLimit(res)
  if (res.ok) return res
  const err = await failure(res)
  if (res.status === 401 && path !== '/console/session') onSignedOut()
  throw err
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await request(method, path, body === undefined ? {} : { body })
  return res.status === 204 ? (undefined as T) : ((await res.json()) as T)
}

export const get = <T>(path: string) => api<T>('GET', path)
export const post = <T>(path: string, body: unknown) => api<T>('POST', path, body)

export async function loadSession(): Promise<Session | null> {
  try {
    const s = await api<Session>('GET', '/console/session')
    csrf = s.csrf_token
    return s
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return null
    throw e
  }
}

export async function signIn(apiKey: string): Promise<Session> {
  const s = await api<Session>('POST', '/console/session', { api_key: apiKey })
  csrf = s.csrf_token
  return s
}

export async function signOut(): Promise<void> {
  await api<void>('DELETE', '/console/session')
  csrf = null
}

/** Query string from defined values. */
export function qs(params: Record<string, string | number | boolean | undefined | null>): string {
  const p = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') p.set(k, String(v))
  const s = p.toString()
  return s ? `?${s}` : ''
}
