/**
 * Character-set detection in the HTML-spec order: byte-order mark, Content-Type charset, <meta>
 * prescan, then UTF-8 if the bytes are valid UTF-8 and windows-1252 if not. Two departures from the
 * letter of the spec, both what real pages need: the prescan goes on past the first 1024 bytes while it
 * is still in the <head> (pages put their charset after long script and style blocks), and a declared
 * legacy encoding yields to UTF-8 when the bytes carry non-ASCII and are valid UTF-8 (servers and CMS
 * templates keep an old ISO-8859-1 label on UTF-8 pages; Latin-1 text that happens to be valid UTF-8
 * is vanishingly rare). Decoding goes through iconv-lite, which covers the legacy encodings still seen
 * on the web.
 */
import { isAscii, isUtf8 } from 'node:buffer'
import iconv from 'iconv-lite'

/** `utf8` means a declared encoding was overruled because the bytes are valid UTF-8. */
export type CharsetSource = 'bom' | 'header' | 'meta' | 'utf8' | 'fallback'

export interface Sniffed {
  encoding: string
  source: CharsetSource
  bomLength: number
}

// Where the WHATWG Encoding Standard (what browsers do) differs from the label's literal meaning.
const WHATWG_ALIASES: Record<string, string> = {
  ascii: 'windows-1252',
  'us-ascii': 'windows-1252',
  'iso-8859-1': 'windows-1252',
  'iso8859-1': 'windows-1252',
  'iso_8859-1': 'windows-1252',
  latin1: 'windows-1252',
  l1: 'windows-1252',
  cp819: 'windows-1252',
  'x-user-defined': 'windows-1252',
  'iso-8859-9': 'windows-1254',
  latin5: 'windows-1254',
  'iso-8859-11': 'windows-874',
  'tis-620': 'windows-874',
  gb2312: 'gbk',
  'x-gbk': 'gbk',
  'ks_c_5601-1987': 'euc-kr',
  'utf-16': 'utf-16le',
  utf8: 'utf-8',
}

// iconv-lite also knows these, but they are not text encodings a web page may declare
// (UTF-7 is refused by browsers because it smuggles markup past filters).
const REFUSED = new Set(['base64', 'hex', 'binary', 'utf-7', 'utf7', 'utf-7-imap', 'unicode-1-1-utf-7', 'csunicode11utf7'])

/** The iconv-lite name for an encoding label, or null when the label is unknown or refused. */
export function encodingForLabel(label: string): string | null {
  const l = label
    .trim()
    .replace(/^["']|["']$/g, '')
    .toLowerCase()
  if (!l || REFUSED.has(l)) return null
  const name = WHATWG_ALIASES[l] ?? l
  return iconv.encodingExists(name) ? name : null
}

/** The charset parameter of a Content-Type header or of a meta http-equiv content attribute. */
export function charsetParam(value: string | null | undefined): string | null {
  const m = /charset\s*=\s*["']?([^"';,\s]+)/i.exec(value ?? '')
  return m?.[1] ?? null
}

function bom(bytes: Buffer): Sniffed | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', source: 'bom', bomLength: 3 }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', source: 'bom', bomLength: 2 }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', source: 'bom', bomLength: 2 }
  return null
}

const ATTRIBUTE = /([^\s=/>]+)\s*(?:=\s*(?:"([^"]*)"?|'([^']*)'?|([^\s>]+)))?/g

/** The spec's prescan window; a page whose <head> is still open there is scanned on, up to the cap. */
const PRESCAN_BYTES = 1024
const PRESCAN_HEAD_CAP = 64 * 1024

function metaCharset(head: string): string | null {
  for (const tag of head.replace(/<!--[\s\S]*?(?:-->|$)/g, '').matchAll(/<meta[\s/]([^>]*)/gi)) {
    const attrs = new Map<string, string>()
    for (const a of (tag[1] ?? '').matchAll(ATTRIBUTE)) {
      const name = (a[1] ?? '').toLowerCase()
      if (!attrs.has(name)) attrs.set(name, a[2] ?? a[3] ?? a[4] ?? '')
    }
    const label = attrs.get('charset') ?? (attrs.get('http-equiv')?.toLowerCase() === 'content-type' ? charsetParam(attrs.get('content')) : null)
    const encoding = label ? encodingForLabel(label) : null
    // The spec ignores a UTF-16 declaration in <meta>: the page could not have been read this far.
    if (encoding) return encoding.startsWith('utf-16') ? 'utf-8' : encoding
  }
  return null
}

/**
 * A simplified HTML prescan: the first <meta> naming a usable charset in the first 1024 bytes, else in
 * the rest of the <head> (up to 64 KiB; a declaration after <body> starts is not the page's).
 */
export function prescanMeta(bytes: Buffer): string | null {
  const first = metaCharset(bytes.subarray(0, PRESCAN_BYTES).toString('latin1'))
  if (first !== null || bytes.length <= PRESCAN_BYTES) return first
  const window = bytes.subarray(0, PRESCAN_HEAD_CAP).toString('latin1')
  const headEnd = window.search(/<\/head\s*>|<body[\s>]/i)
  return metaCharset(headEnd < 0 ? window : window.slice(0, headEnd))
}

/** Valid UTF-8; when the size cap cut the body, its last character may be incomplete. */
function looksUtf8(bytes: Buffer, truncated: boolean): boolean {
  if (isUtf8(bytes)) return true
  if (!truncated) return false
  for (let cut = 1; cut <= 3 && cut <= bytes.length; cut++) {
    if (isUtf8(bytes.subarray(0, bytes.length - cut))) return true
  }
  return false
}

export interface SniffOptions {
  /** Look for <meta> declarations (HTML only). */
  html: boolean
  /** The body was cut at the size cap. */
  truncated?: boolean
}

/** Bytes beyond ASCII that form valid UTF-8: a page in any other encoding almost never does. */
function provesUtf8(bytes: Buffer, truncated: boolean): boolean {
  return !isAscii(bytes) && looksUtf8(bytes, truncated)
}

export function sniffEncoding(bytes: Buffer, contentType: string | null, { html, truncated = false }: SniffOptions): Sniffed {
  const fromBom = bom(bytes)
  if (fromBom) return fromBom
  const fromHeader = encodingForLabel(charsetParam(contentType) ?? '')
  const declared = fromHeader ? { encoding: fromHeader, source: 'header' as const } : null
  const fromMeta = declared === null && html ? prescanMeta(bytes) : null
  const stated = declared ?? (fromMeta ? { encoding: fromMeta, source: 'meta' as const } : null)
  if (stated !== null) {
    // UTF-16 has no such test (its bytes are rarely valid UTF-8 anyway), and a UTF-8 label needs none.
    const legacy = stated.encoding !== 'utf-8' && !stated.encoding.startsWith('utf-16')
    if (legacy && provesUtf8(bytes, truncated)) return { encoding: 'utf-8', source: 'utf8', bomLength: 0 }
    return { ...stated, bomLength: 0 }
  }
  return { encoding: looksUtf8(bytes, truncated) ? 'utf-8' : 'windows-1252', source: 'fallback', bomLength: 0 }
}

export interface Decoded {
  text: string
  encoding: string
  source: CharsetSource
}

export function decodeText(bytes: Buffer, contentType: string | null, opts: SniffOptions): Decoded {
  const s = sniffEncoding(bytes, contentType, opts)
  const text = iconv.decode(bytes.subarray(s.bomLength), s.encoding, { stripBOM: false })
  return { text, encoding: s.encoding, source: s.source }
}
