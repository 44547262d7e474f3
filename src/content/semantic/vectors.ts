// Sentence vectors of pages and prompts (encoder.ts): what a page is about in the encoder's terms,
// beyond its words and topics. Stored as signed bytes, each vector divided by its largest component
// (cosines move by about 0.01), so a page costs 512 bytes.

/** Dimensions of the encoder's vectors (Universal Sentence Encoder lite). */
export const SEMANTIC_DIMENSIONS = 512

/** Characters of main text read after the title: the lead says what a page is about. */
const LEAD_CHARS = 400

/** What a page's vector is computed from: its title and the opening of its main text. */
export function semanticInput(title: string | null, text: string): string {
  const lead = text.replace(/\s+/g, ' ').trim().slice(0, LEAD_CHARS)
  const head = (title ?? '').replace(/\s+/g, ' ').trim()
  return head ? `${head}. ${lead}` : lead
}

/** A vector as signed bytes, scaled so its largest component is ±127. */
export function quantize(v: ArrayLike<number>): Int8Array {
  let max = 0
  for (let i = 0; i < v.length; i++) max = Math.max(max, Math.abs(v[i] as number))
  const out = new Int8Array(v.length)
  if (max === 0) return out
  for (let i = 0; i < v.length; i++) out[i] = Math.round(((v[i] as number) / max) * 127)
  return out
}

/** Cosine of two stored vectors; 0 when either is empty or all zero. */
export function semanticCosine(a: Int8Array, b: Int8Array): number {
  if (a.length !== b.length || a.length === 0) return 0
  let dot = 0
  let na = 0
  let nb = 0
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number
    const y = b[i] as number
    dot += x * y
    na += x * x
    nb += y * y
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0
}

/** A stored vector from the database's bytes (a Buffer from node-postgres, a Uint8Array from PGlite). */
export function vectorOf(bytes: Uint8Array | null): Int8Array | null {
  return bytes && bytes.length === SEMANTIC_DIMENSIONS ? new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length) : null
}
