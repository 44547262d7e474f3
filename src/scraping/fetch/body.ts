/**
 * Streaming body reader. Bounds memory twice: the decoded size (a gzip bomb stops at the cap, not
 * after inflating) and the raw size (a compressed stream that never produces output still ends).
 * Bounds time with an idle timeout between raw chunks and the caller's signal for the total deadline.
 */

import type { Readable } from 'node:stream'
import { pipeline, Transform } from 'node:stream'
import zlib from 'node:zlib'
import { FetchFailure } from './failure.ts'

export interface BodyLimits {
  /** Cap on both raw and decoded bytes. */
  maxBytes: number
  /** Longest silence between two raw chunks. */
  idleTimeoutMs: number
  /** Total deadline (and caller cancellation). */
  signal?: AbortSignal
}

export interface Body {
  bytes: Buffer
  /** True when the body went on past `maxBytes` and was cut there. */
  truncated: boolean
}

// Like browsers, accept a stream that ends without its trailer instead of failing the whole page.
const ZLIB_LENIENT = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH }
const BROTLI_LENIENT = {
  flush: zlib.constants.BROTLI_OPERATION_FLUSH,
  finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
}

function decoderFor(coding: string): Transform | null {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip(ZLIB_LENIENT)
    case 'deflate': // RFC 9110 deflate is the zlib format
      return zlib.createInflate(ZLIB_LENIENT)
    case 'br':
      return zlib.createBrotliDecompress(BROTLI_LENIENT)
    case 'identity':
      return null
    default:
      throw new FetchFailure('content', `unsupported content-encoding "${coding}"`)
  }
}

/** Decoders in the order to apply them: codings are listed in the order they were applied. */
export function decodersFor(contentEncoding: string | null | undefined): Transform[] {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter(Boolean)
  if (codings.length > 2) throw new FetchFailure('content', `too many content-encodings "${contentEncoding}"`)
  return codings
    .reverse()
    .map(decoderFor)
    .filter((d): d is Transform => d !== null)
}

/** Drops a stream we will not read. undici bodies emit an AbortError when destroyed; nobody needs it. */
export function discard(stream: Readable): void {
  stream.on('error', () => {})
  stream.destroy()
}

export async function readBody(source: Readable, contentEncoding: string | null | undefined, limits: BodyLimits): Promise<Body> {
  const { maxBytes, idleTimeoutMs, signal } = limits
  let decoders: Transform[]
  try {
    decoders = decodersFor(contentEncoding)
  } catch (err) {
    discard(source)
    throw err
  }

  let rawBytes = 0
  let rawCapped = false
  let idle: NodeJS.Timeout | undefined
  const armIdle = (): void => {
    clearTimeout(idle)
    idle = setTimeout(() => {
      meter.destroy(new FetchFailure('timeout', `no data for ${idleTimeoutMs} ms while reading the body`))
    }, idleTimeoutMs)
  }
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      armIdle()
      const room = maxBytes - rawBytes
      rawBytes += chunk.length
      if (chunk.length <= room) return done(null, chunk)
      // Past the raw cap: hand over the last allowed bytes and end the decoders' input, so they
      // flush what they hold. `done` is never called again, which stops the source by backpressure
      // until the reader below destroys it.
      rawCapped = true
      clearTimeout(idle)
      this.push(chunk.subarray(0, room))
      this.push(null)
    },
  })
  const onAbort = (): void => {
    meter.destroy(signal?.reason instanceof Error ? signal.reason : new FetchFailure('aborted', 'aborted'))
  }

  const streams = [source, meter, ...decoders]
  // pipeline destroys every stage when one fails; the finally below does it when we stop early.
  const out = pipeline(streams, () => {}) as unknown as Readable
  const chunks: Buffer[] = []
  let size = 0
  let truncated = false
  armIdle()
  if (signal?.aborted) onAbort()
  else signal?.addEventListener('abort', onAbort, { once: true })
  try {
    for await (const chunk of out as AsyncIterable<Buffer>) {
      const room = maxBytes - size
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room))
        size += room
        truncated = true
        break
      }
      chunks.push(chunk)
      size += chunk.length
    }
  } finally {
    clearTimeout(idle)
    signal?.removeEventListener('abort', onAbort)
    for (const s of streams) discard(s)
  }
  return { bytes: Buffer.concat(chunks, size), truncated: truncated || rawCapped }
}
