/** Decides whether a fetched body is a page we can read, and turns its bytes into text. */
import { decodeText } from './charset.ts'

/** Lower-cased media type without parameters ("text/html"), or null when absent. */
export function mediaType(contentType: string | null | undefined): string | null {
  const essence = (contentType ?? '').split(';')[0]?.trim().toLowerCase()
  return essence ? essence : null
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml'])
const PAGE_TYPES = new Set([...HTML_TYPES, 'text/plain'])

/** A missing Content-Type is accepted and sniffed; anything else must be HTML, XHTML or plain text. */
export function isPageType(contentType: string | null): boolean {
  const type = mediaType(contentType)
  return type === null || PAGE_TYPES.has(type)
}

// WHATWG MIME sniffing's "binary data bytes": control bytes no text encoding a page may use produces.
function isBinaryByte(b: number): boolean {
  return b <= 0x08 || b === 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f)
}

/** True when the first 1024 bytes cannot be text (images, archives, PDFs served as text/html). */
export function looksBinary(bytes: Buffer): boolean {
  // UTF-16 text is full of zero bytes; the BOM says it is text.
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return false
  const head = bytes.subarray(0, 1024)
  for (const b of head) if (isBinaryByte(b)) return true
  return false
}

export type Page = { ok: true; text: string; encoding: string } | { ok: false; reason: string }

// More replacement characters than this means the declared or guessed encoding is wrong.
const MAX_REPLACEMENT_RATIO = 0.1

export function readPage(bytes: Buffer, contentType: string | null, truncated = false): Page {
  if (looksBinary(bytes)) return { ok: false, reason: `binary content served as ${mediaType(contentType) ?? 'untyped'}` }
  const type = mediaType(contentType)
  const decoded = decodeText(bytes, contentType, { html: type === null || HTML_TYPES.has(type), truncated })
  let bad = 0
  for (const ch of decoded.text) if (ch === '\uFFFD') bad++
  if (decoded.text.length >= 32 && bad / decoded.text.length > MAX_REPLACEMENT_RATIO) {
    return { ok: false, reason: `body is not valid ${decoded.encoding}` }
  }
  return { ok: true, text: decoded.text, encoding: decoded.encoding }
}
