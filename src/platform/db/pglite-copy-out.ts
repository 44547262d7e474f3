// COPY … TO STDOUT on the embedded engine, read off PostgreSQL's wire protocol as the engine writes
// it (about 8 kB at a time, straight out of its WebAssembly memory): only the CopyData payloads are
// kept, copied into fixed-size pieces. The engine holds no result text and this thread builds no
// string, so an export batch costs its bytes once, wherever it is (issue 18; docs/scraping.md).
import type { SerializedError } from './pglite-protocol.ts'

/** Bytes per piece handed to the main thread (a batch of results is a few of them). */
export const COPY_PIECE = 256 * 1024

/** A simple-query message ('Q') for `sql`. */
export function queryMessage(sql: string): Uint8Array {
  const text = new TextEncoder().encode(sql)
  const msg = new Uint8Array(text.length + 6)
  msg[0] = 0x51
  new DataView(msg.buffer).setInt32(1, text.length + 5)
  msg.set(text, 5)
  return msg
}

/** The fields of an ErrorResponse payload: code letter, then a NUL-terminated text, then 0. */
function errorFields(payload: Uint8Array): SerializedError {
  const f = new Map<string, string>()
  const dec = new TextDecoder()
  for (let i = 0; i < payload.length && payload[i] !== 0; ) {
    const end = payload.indexOf(0, i + 1)
    f.set(String.fromCharCode(payload[i]!), dec.decode(payload.subarray(i + 1, end < 0 ? payload.length : end)))
    i = end < 0 ? payload.length : end + 1
  }
  return { message: f.get('M') ?? 'COPY failed', code: f.get('C'), detail: f.get('D'), constraint: f.get('n') }
}

/**
 * Reads backend messages from the chunks the engine writes (a message may span chunks): the
 * payloads of CopyData ('d') go into the pieces, an ErrorResponse ('E') is kept, the rest skipped
 * (no notification is lost: one is sent with the statement that commits it, never with a COPY TO).
 */
export class CopyOutReader {
  readonly pieces: Uint8Array<ArrayBuffer>[] = []
  error: SerializedError | null = null
  private piece: Uint8Array<ArrayBuffer> | null = null
  private used = 0
  private header = new Uint8Array(5)
  private headerLen = 0
  private type = 0
  private left = 0
  private errorBytes: Uint8Array[] = []

  push(chunk: Uint8Array): void {
    let pos = 0
    while (pos < chunk.length) {
      if (this.left === 0 && this.headerLen < 5) {
        const n = Math.min(5 - this.headerLen, chunk.length - pos)
        this.header.set(chunk.subarray(pos, pos + n), this.headerLen)
        this.headerLen += n
        pos += n
        if (this.headerLen < 5) return
        this.type = this.header[0]!
        this.left = new DataView(this.header.buffer).getInt32(1) - 4
        if (this.left === 0) this.headerLen = 0
        continue
      }
      const n = Math.min(this.left, chunk.length - pos)
      const part = chunk.subarray(pos, pos + n)
      if (this.type === 0x64) this.write(part)
      else if (this.type === 0x45) this.errorBytes.push(part.slice())
      pos += n
      this.left -= n
      if (this.left === 0) {
        this.headerLen = 0
        if (this.type === 0x45) {
          this.error = errorFields(Buffer.concat(this.errorBytes))
          this.errorBytes = []
        }
      }
    }
  }

  private write(bytes: Uint8Array): void {
    for (let at = 0; at < bytes.length; ) {
      this.piece ??= new Uint8Array(COPY_PIECE)
      const n = Math.min(COPY_PIECE - this.used, bytes.length - at)
      this.piece.set(bytes.subarray(at, at + n), this.used)
      this.used += n
      at += n
      if (this.used === COPY_PIECE) this.flush()
    }
  }

  private flush(): void {
    if (this.piece && this.used) this.pieces.push(this.piece.subarray(0, this.used))
    this.piece = null
    this.used = 0
  }

  /** The pieces written (each a view over a buffer of its own, to move to the main thread). */
  finish(): Uint8Array<ArrayBuffer>[] {
    this.flush()
    return this.pieces
  }
}
