/** The REST API of a running Curata service, as the client commands call it. */
import { ApiFailure } from './errors.ts'
import type { Target } from './settings.ts'

export type Query = Record<string, string | number | undefined>

export interface Api {
  get<T>(path: string, query?: Query): Promise<T>
  post<T>(path: string, body?: unknown): Promise<T>
  delete(path: string): Promise<void>
  /** A streamed response (exports), its body still unread. */
  stream(path: string, query?: Query): Promise<Response>
}

function withQuery(path: string, query: Query = {}): string {
  const q = Object.entries(query).filter(([, v]) => v !== undefined)
  return q.length ? `${path}?${new URLSearchParams(q.map(([k, v]): [string, string] => [k, String(v)])).toString()}` : path
}

export function createApi(target: Target): Api {
  async function call(method: string, path: string, body?: unknown): Promise<Response> {
    let res: Response
    try {
      res = await fetch(`${target.url}${path}`, {
        method,
        headers: { 'x-api-key': target.apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause
      throw new ApiFailure(null, 'unreachable', `could not reach ${target.url}: ${cause?.code ?? cause?.message ?? (err as Error).message}`)
    }
    if (res.ok) return res
    const text = await res.text()
    let code = `http_${res.status}`
    let message = text.slice(0, 500) || res.statusText
    try {
      const e = JSON.parse(text) as { error?: string; message?: string }
      if (e.error) code = e.error
      if (e.message) message = e.message
    } catch {
      // not the API's error body (a proxy's page): shown as it came
    }
    throw new ApiFailure(res.status, code, `${res.status} ${code}: ${message}`)
  }
  const json = async <T>(res: Response): Promise<T> => (res.status === 204 ? (undefined as T) : ((await res.json()) as T))
  return {
    get: async (path, query) => json(await call('GET', withQuery(path, query))),
    post: async (path, body) => json(await call('POST', path, body ?? {})),
    delete: async (path) => void (await call('DELETE', path)),
    stream: (path, query) => call('GET', withQuery(path, query)),
  }
}
