import { PassThrough, Readable } from 'node:stream'
import zlib from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { decodersFor, readBody } from '../../../src/scraping/fetch/body.ts'
import { FetchFailure } from '../../../src/scraping/fetch/failure.ts'

const limits = { maxBytes: 1000, idleTimeoutMs: 200 }
const chunks = (...parts: (string | Buffer)[]): Readable => Readable.from(parts.map((p) => Buffer.from(p)))

describe('readBody', () => {
  it('reads an identity body under the cap', async () => {
    const body = await readBody(chunks('hello ', 'world'), null, limits)
    expect(body).toEqual({ bytes: Buffer.from('hello world'), truncated: false })
  })

  it('treats a body of exactly maxBytes as complete', async () => {
    const body = await readBody(chunks('x'.repeat(1000)), 'identity', limits)
    expect(body.truncated).toBe(false)
    expect(body.bytes.length).toBe(1000)
  })

  it('cuts at maxBytes and says so', async () => {
    const body = await readBody(chunks('x'.repeat(600), 'y'.repeat(600)), null, limits)
    expect(body.truncated).toBe(true)
    expect(body.bytes.toString()).toBe('x'.repeat(600) + 'y'.repeat(400))
  })

  it('bounds the decompressed size of gzip, deflate and br', async () => {
    const big = Buffer.alloc(1_000_000, 'z')
    for (const [coding, data] of [
      ['gzip', zlib.gzipSync(big)],
      ['deflate', zlib.deflateSync(big)],
      ['br', zlib.brotliCompressSync(big)],
    ] as const) {
      const body = await readBody(chunks(data), coding, limits)
      expect(body.truncated, coding).toBe(true)
      expect(body.bytes.length, coding).toBe(1000)
    }
  })

  it('bounds the raw size of a compressed stream that never produces output', async () => {
    // Empty gzip members, concatenated: valid, endless, and decoding to nothing.
    const empty = zlib.gzipSync(Buffer.alloc(0))
    const endless = new Readable({
      read() {
        this.push(Buffer.concat(Array.from({ length: 50 }, () => empty)))
      },
    })
    const body = await readBody(endless, 'gzip', limits)
    expect(body).toEqual({ bytes: Buffer.alloc(0), truncated: true })
  })

  it('accepts a compressed body cut short (as browsers do)', async () => {
    const data = zlib.gzipSync(Buffer.from('a'.repeat(500) + 'b'.repeat(500)))
    const body = await readBody(chunks(data.subarray(0, data.length - 12)), 'gzip', limits)
    expect(body.bytes.toString().startsWith('aaaa')).toBe(true)
  })

  it('fails on an idle stream after idleTimeoutMs', async () => {
    const stream = new PassThrough()
    stream.write('partial')
    const started = performance.now()
    const err = await readBody(stream, null, { ...limits, idleTimeoutMs: 50 }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(FetchFailure)
    expect((err as FetchFailure).fault).toBe('timeout')
    expect(performance.now() - started).toBeLessThan(300)
    expect(stream.destroyed).toBe(true)
  })

  it('stops when the signal fires, with the signal reason', async () => {
    const stream = new PassThrough()
    const ctl = new AbortController()
    setTimeout(() => ctl.abort(new FetchFailure('timeout', 'deadline')), 30)
    const err = await readBody(stream, 'gzip', { ...limits, signal: ctl.signal }).catch((e: unknown) => e)
    expect(err).toMatchObject({ fault: 'timeout', message: 'deadline' })
    expect(stream.destroyed).toBe(true)
  })

  it('refuses unknown and stacked-too-deep codings', () => {
    expect(() => decodersFor('zstd')).toThrow('unsupported content-encoding "zstd"')
    expect(() => decodersFor('gzip, gzip, gzip')).toThrow(/too many/)
    expect(decodersFor('GZIP, br')).toHaveLength(2)
    expect(decodersFor('')).toHaveLength(0)
  })
})
