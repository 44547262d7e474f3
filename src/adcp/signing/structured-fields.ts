/**
 * The part of RFC 8941 (Structured Field Values) that Signature-Input, Signature and Content-Digest
 * use: a Dictionary whose members are Items or Inner Lists, with Parameters. Stricter than RFC 8941
 * where the AdCP signing profile is: a key repeated in a dictionary is an error (a proxy could
 * otherwise smuggle a second, weaker member past a verifier reading the first), and byte sequences
 * may use the base64url alphabet RFC 9421 signers emit, but not mixed with standard base64.
 */

export type BareItem = string | number | boolean | Token | Uint8Array
export class Token {
  constructor(readonly value: string) {}
}
export type Params = [string, BareItem][]
export interface Item {
  value: BareItem
  params: Params
}
export interface InnerList {
  items: Item[]
  params: Params
}
export type Member = Item | InnerList
export const isInnerList = (m: Member): m is InnerList => 'items' in m

export class StructuredFieldError extends Error {}

const fail = (message: string): never => {
  throw new StructuredFieldError(message)
}

class Parser {
  i = 0
  constructor(readonly s: string) {}

  dictionary(): Map<string, Member> {
    const out = new Map<string, Member>()
    this.skip(' ')
    if (this.i >= this.s.length) return out
    for (;;) {
      const key = this.key()
      if (out.has(key)) fail(`dictionary key "${key}" appears more than once`)
      let member: Member
      if (this.s[this.i] === '=') {
        this.i++
        member = this.s[this.i] === '(' ? this.innerList() : this.item()
      } else {
        member = { value: true, params: this.params() }
      }
      out.set(key, member)
      this.skip(' \t')
      if (this.i >= this.s.length) return out
      if (this.s[this.i] !== ',') fail(`expected "," at offset ${this.i}`)
      this.i++
      this.skip(' \t')
      if (this.i >= this.s.length) fail('trailing comma')
    }
  }

  private skip(chars: string) {
    while (this.i < this.s.length && chars.includes(this.s[this.i]!)) this.i++
  }

  private key(): string {
    const m = /^[a-z*][a-z0-9_\-.*]*/.exec(this.s.slice(this.i))
    if (!m) return fail(`expected a key at offset ${this.i}`)
    this.i += m[0].length
    return m[0]
  }

  private innerList(): InnerList {
    this.i++ // (
    const items: Item[] = []
    for (;;) {
      this.skip(' ')
      if (this.s[this.i] === ')') {
        this.i++
        return { items, params: this.params() }
      }
      items.push(this.item())
      const c = this.s[this.i]
      if (c !== ' ' && c !== ')') fail(`expected " " or ")" in inner list at offset ${this.i}`)
    }
  }

  private item(): Item {
    const value = this.bareItem()
    return { value, params: this.params() }
  }

  private params(): Params {
    const out: Params = []
    while (this.s[this.i] === ';') {
      this.i++
      this.skip(' ')
      const key = this.key()
      let value: BareItem = true
      if (this.s[this.i] === '=') {
        this.i++
        value = this.bareItem()
      }
      const at = out.findIndex(([k]) => k === key)
      if (at >= 0) fail(`parameter "${key}" appears more than once`)
      out.push([key, value])
    }
    return out
  }

  private bareItem(): BareItem {
    const c = this.s[this.i]
    if (c === undefined) return fail('unexpected end of value')
    if (c === '"') return this.string()
    if (c === ':') return this.bytes()
    if (c === '?') {
      const b = this.s[this.i + 1]
      if (b !== '0' && b !== '1') fail('bad boolean')
      this.i += 2
      return b === '1'
    }
    if (c === '-' || (c >= '0' && c <= '9')) return this.number()
    if (/[A-Za-z*]/.test(c)) {
      const m = /^[A-Za-z*][!#$%&'*+\-.^_`|~0-9A-Za-z:/]*/.exec(this.s.slice(this.i))!
      this.i += m[0].length
      return new Token(m[0])
    }
    return fail(`unexpected "${c}" at offset ${this.i}`)
  }

  private string(): string {
    let out = ''
    this.i++
    while (this.i < this.s.length) {
      const c = this.s[this.i++]!
      if (c === '\\') {
        const n = this.s[this.i++]
        if (n !== '"' && n !== '\\') fail('bad escape in string')
        out += n
      } else if (c === '"') {
        return out
      } else {
        const code = c.charCodeAt(0)
        if (code < 0x20 || code > 0x7e) fail('non-printable character in string')
        out += c
      }
    }
    return fail('unterminated string')
  }

  private bytes(): Uint8Array {
    const end = this.s.indexOf(':', this.i + 1)
    if (end < 0) fail('unterminated byte sequence')
    const b64 = this.s.slice(this.i + 1, end)
    this.i = end + 1
    if (!/^[A-Za-z0-9+/\-_]*={0,2}$/.test(b64)) fail('byte sequence is not base64')
    if (/[+/]/.test(b64) && /[-_]/.test(b64)) fail('byte sequence mixes base64 and base64url alphabets')
    return new Uint8Array(Buffer.from(b64.replace(/-/g, '+').replace(/_/g, '/'), 'base64'))
  }

  private number(): number {
    const m = /^-?\d{1,15}(\.\d{1,3})?/.exec(this.s.slice(this.i))
    if (!m) return fail(`bad number at offset ${this.i}`)
    this.i += m[0].length
    return Number(m[0])
  }
}

/** Parses a Dictionary field value (leading and trailing spaces allowed, as field values are trimmed). */
export function parseDictionary(value: string): Map<string, Member> {
  return new Parser(value.trim()).dictionary()
}

/** Serializes an inner list back (what `@signature-params` carries): strings quoted, tokens bare. */
export function serializeInnerList(list: InnerList): string {
  return `(${list.items.map((i) => serializeBare(i.value) + serializeParams(i.params)).join(' ')})${serializeParams(list.params)}`
}

function serializeParams(params: Params): string {
  return params.map(([k, v]) => (v === true ? `;${k}` : `;${k}=${serializeBare(v)}`)).join('')
}

function serializeBare(v: BareItem): string {
  if (typeof v === 'string') return `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
  if (typeof v === 'number') return String(v)
  if (typeof v === 'boolean') return v ? '?1' : '?0'
  if (v instanceof Token) return v.value
  return `:${Buffer.from(v).toString('base64')}:`
}
