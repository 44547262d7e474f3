/**
 * Request signing at /mcp: what `get_adcp_capabilities` declares as `request_signing`, and the glue
 * between the verifier and Fastify's hooks. A signed request is authenticated by its signature (the
 * key acts for the API key it is registered to); its headers are checked before the body is read
 * (steps 1–10), the body once read (Content-Digest, then the nonce is recorded). An unsigned request
 * that must have been signed (see `signatureRequired`) is refused whatever bearer it carries.
 */
import { Readable } from 'node:stream'

import type { FastifyRequest } from 'fastify'
import { ApiError } from '../../platform/http/errors.ts'
import type { SignedRequest } from './canonical.ts'
import { SignatureError } from './errors.ts'
import type { DigestPolicy } from './verify.ts'

/** Signatures are checked on every AdCP operation when present; none is required (bearer keys stay valid). */
export const digestPolicy: DigestPolicy = 'either'
export const requiredFor: readonly string[] = []
export const signableOperations = [
  'get_signals',
  'activate_signal',
  'get_adcp_capabilities',
  'get_task_status',
  'list_tasks',
  'comply_test_controller',
] as const

export function requestSigningCapability() {
  return {
    supported: true,
    covers_content_digest: digestPolicy,
    required_for: [...requiredFor],
    supported_for: [...signableOperations],
  }
}

export function signatureUnauthorized(err: SignatureError): ApiError {
  return new ApiError(401, 'unauthorized', `request signature: ${err.message}`, undefined, { 'www-authenticate': `Signature error="${err.code}"` })
}

/** The request as signed: the URL the caller reached (PUBLIC_URL's origin, else the request's), field values as received. */
export function signedRequestOf(req: FastifyRequest, origin: string): SignedRequest {
  const headers: Record<string, string[]> = {}
  // In-process requests (app.inject) have no headersDistinct: their header values, one each.
  const distinct = req.raw.headersDistinct ?? Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, v === undefined ? v : [v].flat()]))
  for (const [name, values] of Object.entries(distinct)) if (values) headers[name] = values
  return { method: req.method, url: `${origin}${req.url}`, headers }
}

export const hasBody = (req: FastifyRequest) => Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined

/** Reads the whole body (up to `limit` bytes: beyond, 413 as Fastify would). */
export async function readBody(payload: NodeJS.ReadableStream, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of payload as AsyncIterable<Buffer | string>) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    size += b.length
    if (size > limit) throw new ApiError(413, 'payload_too_large', `the body exceeds ${limit} bytes`)
    chunks.push(b)
  }
  return Buffer.concat(chunks)
}

/** The body again as a stream for Fastify's parser (with the length it checks against). */
export function replay(body: Buffer): NodeJS.ReadableStream {
  const stream = Readable.from([body]) as Readable & { receivedEncodedLength?: number }
  stream.receivedEncodedLength = body.length
  return stream
}

/** The AdCP operations (tools/call names) and JSON-RPC methods of an MCP body, single or batch. */
export function operationsOf(body: unknown): string[] {
  const msgs = Array.isArray(body) ? body : [body]
  return msgs.flatMap((m) => {
    if (!m || typeof m !== 'object') return []
    const { method, params } = m as { method?: unknown; params?: { name?: unknown } }
    if (method === 'tools/call' && typeof params?.name === 'string') return [params.name]
    return typeof method === 'string' ? [method] : []
  })
}

export const parseJson = (raw: Buffer): unknown => {
  try {
    return JSON.parse(raw.toString('utf8'))
  } catch {
    return undefined
  }
}

export { SignatureError }
