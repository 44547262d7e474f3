// PostgreSQL's COPY text format, what Session.copyFrom loads: one line per row, columns separated
// by a tab, \N for null, and backslash, tab, newline and carriage return escaped with a backslash.
// Text must not hold NUL (PostgreSQL text cannot store it); callers strip it, as for any parameter.

const SPECIAL = /[\\\t\n\r]/
const SPECIALS = /[\\\t\n\r]/g
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' }

/** One column's value: a string (escaped), a number or boolean (as written), or null (\N). */
export function copyField(v: string | number | boolean | null): string {
  if (v === null) return '\\N'
  if (typeof v !== 'string') return String(v)
  return SPECIAL.test(v) ? v.replace(SPECIALS, (c) => ESCAPES[c]!) : v
}

const ARRAY_SPECIAL = /["\\]/g

/** A text[] column: an array literal with every element quoted, then escaped as one field. */
export function copyTextArray(values: readonly string[]): string {
  if (values.length === 0) return '{}'
  let out = '{'
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ','
    out += `"${values[i]!.replace(ARRAY_SPECIAL, '\\$&')}"`
  }
  return copyField(out + '}')
}

/**
 * Rows being encoded for one COPY. Each row is encoded to UTF-8 as it is added: appending rows to
 * one string instead builds a tree of thousands of pieces that costs more to flatten and collect
 * than the rows cost to format.
 */
export class CopyRows {
  #bytes: Buffer
  #used = 0

  constructor(expectedBytes = 64 * 1024) {
    this.#bytes = Buffer.from(new ArrayBuffer(expectedBytes))
  }

  /** Adds one row: its fields already passed through copyField, joined by tabs, ending in "\n". */
  add(line: string): void {
    // A UTF-16 unit takes at most 3 bytes in UTF-8.
    if (this.#used + line.length * 3 > this.#bytes.length) {
      const grown = Buffer.from(new ArrayBuffer(Math.max(this.#bytes.length * 2, this.#used + line.length * 3)))
      this.#bytes.copy(grown, 0, 0, this.#used)
      this.#bytes = grown
    }
    this.#used += this.#bytes.write(line, this.#used)
  }

  /** Bytes used so far. */
  get size(): number {
    return this.#used
  }

  /**
   * A copy of the encoded rows, in a buffer of exactly their size: copyFrom may move it to another
   * thread, and a failed write is retried from the rows kept here.
   */
  bytes(): Uint8Array {
    return new Uint8Array(this.#bytes.buffer.slice(0, this.#used))
  }

  /** The rows added, each with its "\n" (an escaped newline inside a field is two characters). */
  lines(): string[] {
    return this.#bytes
      .toString('utf8', 0, this.#used)
      .split(/(?<=\n)/)
      .filter((l) => l !== '')
  }
}
