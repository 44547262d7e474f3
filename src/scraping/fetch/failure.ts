/** Why a request produced no usable response, in words a user can act on. */
export type Fault =
  | 'invalid' // the URL itself cannot be fetched (scheme, syntax)
  | 'blocked' // SSRF guard or robots.txt refused it
  | 'dns' // the name does not resolve
  | 'network' // refused, reset, closed early
  | 'timeout' // connect, headers, idle or total deadline passed
  | 'redirect' // loop, too many hops, or a hop the caller's rules refuse
  | 'content' // bytes arrived but cannot be decoded (bad compression, unknown encoding)
  | 'aborted' // the caller's signal fired

export class FetchFailure extends Error {
  constructor(
    readonly fault: Fault,
    reason: string,
  ) {
    super(reason)
  }
}

const CODE_FAULTS: Record<string, Fault> = {
  ERR_SSRF_BLOCKED: 'blocked',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_NODATA: 'dns',
  ECONNREFUSED: 'network',
  ECONNRESET: 'network',
  EPIPE: 'network',
  EHOSTUNREACH: 'network',
  ENETUNREACH: 'network',
  UND_ERR_SOCKET: 'network',
  UND_ERR_CLOSED: 'network',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  ETIMEDOUT: 'timeout',
}

// zlib reports Z_DATA_ERROR and friends; Node's brotli decoder reports ERR__ERROR_FORMAT_* and similar.
function isDecoderCode(code: string): boolean {
  return code.startsWith('Z_') || code.startsWith('ERR__ERROR')
}

/** Maps anything thrown by undici, node:net, node:zlib or our own code to a fault and a reason. */
export function toFailure(err: unknown): FetchFailure {
  // Walk the cause chain: undici and AbortSignal wrap the error that matters.
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    if (e instanceof FetchFailure) return e
    if (typeof e !== 'object') break
    const { code, message, name } = e as { code?: unknown; message?: unknown; name?: unknown }
    const text = typeof message === 'string' ? message : String(e)
    const fault = typeof code !== 'string' ? undefined : (CODE_FAULTS[code] ?? (isDecoderCode(code) ? 'content' : undefined))
    if (fault) return new FetchFailure(fault, text)
    if (name === 'TimeoutError') return new FetchFailure('timeout', text)
    e = (e as { cause?: unknown }).cause
  }
  const text = err instanceof Error ? err.message : String(err)
  return new FetchFailure('network', text || 'request failed')
}
