// General-purpose English word vectors (GloVe, 100 dimensions, the 64,000 most frequent words;
// vectors/PROVENANCE.md). The topic model knows the words of its training corpora; these vectors
// know most English words, so a prompt word the model never saw ("espresso", "triathlon") can be
// read through its nearest words that it did see ("coffee", "ironman").
// Loaded once, on first use: 6.4 MB of signed bytes.
import { readFileSync } from 'node:fs'

export const DIMENSIONS = 100
export const VECTOR_WORDS = 64_000

interface Vectors {
  words: string[]
  index: Map<string, number>
  /** row-major, DIMENSIONS signed bytes a word */
  data: Int8Array
  /** 1 / Euclidean norm of each word's row */
  inverseNorm: Float32Array
}

let cached: Vectors | undefined

/** The vectors' words, most frequent first. */
export function vectorWords(): string[] {
  return readFileSync(new URL('./vectors/glove-100d.words.txt', import.meta.url), 'utf8')
    .split(/\r?\n/)
    .filter(Boolean)
}

function vectors(): Vectors {
  if (cached) return cached
  const words = vectorWords()
  const bytes = readFileSync(new URL('./vectors/glove-100d.i8', import.meta.url))
  if (bytes.length !== words.length * DIMENSIONS) throw new Error('word vectors: glove-100d.i8 does not match its word list')
  const data = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length)
  const inverseNorm = new Float32Array(words.length)
  for (let i = 0; i < words.length; i++) {
    let n = 0
    for (let d = 0; d < DIMENSIONS; d++) n += data[i * DIMENSIONS + d]! ** 2
    inverseNorm[i] = n > 0 ? 1 / Math.sqrt(n) : 0
  }
  cached = { words, index: new Map(words.map((w, i) => [w, i])), data, inverseNorm }
  return cached
}

export interface Neighbour {
  word: string
  cosine: number
}

/**
 * The k words nearest to a word (cosine ≥ minCosine) that `accept` takes, best first; none for a
 * word without a vector. A scan of every vector: 10–30 ms.
 */
export function nearestWords(word: string, k: number, minCosine: number, accept: (w: string) => boolean = () => true): Neighbour[] {
  const v = vectors()
  const q = v.index.get(word)
  if (q === undefined) return []
  const best: Neighbour[] = []
  for (let i = 0; i < v.words.length; i++) {
    if (i === q) continue
    const cosine = cosineAt(v, q, i)
    if (cosine < minCosine || (best.length === k && cosine <= best[k - 1]!.cosine)) continue
    const w = v.words[i]!
    if (!accept(w)) continue
    best.push({ word: w, cosine })
    best.sort((a, b) => b.cosine - a.cosine)
    if (best.length > k) best.pop()
  }
  return best
}

/** The cosine of two words' vectors, or null when either has none. */
export function wordCosine(a: string, b: string): number | null {
  const v = vectors()
  const i = v.index.get(a)
  const j = v.index.get(b)
  return i === undefined || j === undefined ? null : cosineAt(v, i, j)
}

/** The cosine of the vectors of rows i and j. */
function cosineAt(v: Vectors, i: number, j: number): number {
  let dot = 0
  const a = i * DIMENSIONS
  const b = j * DIMENSIONS
  for (let d = 0; d < DIMENSIONS; d++) dot += v.data[a + d]! * v.data[b + d]!
  return dot * v.inverseNorm[i]! * v.inverseNorm[j]!
}
