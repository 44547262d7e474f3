/**
 * Turns a submitted `urls` array into the job's stored entries: normalized, de-duplicated in
 * submission order, cut into chunks of CHUNK_SIZE. Invalid entries are kept (as results with E002)
 * and listed, never dropped. Works in one pass over the parsed array, yielding to the event loop
 * now and then so a million-URL submission does not stall other requests.
 */
import { isNormalizeError, maxUrlLength, normalizeUrl } from '../../content/urls/normalize-url.ts'
import type { InvalidUrl } from '../schemas.ts'
import { maxListedInvalid } from '../schemas.ts'

/** Entries per stored chunk and per queue job: entry i lives in chunk i / CHUNK_SIZE. */
export const CHUNK_SIZE = 1000

export interface Chunk {
  /** Normalized URLs; for an invalid entry, the text as submitted (cut to maxUrlLength, NUL and lone surrogates replaced). */
  urls: string[]
  /** The reason at the position of each invalid entry, null elsewhere; null when all are valid. */
  invalid: (string | null)[] | null
}

export interface PreparedJob {
  chunks: Chunk[]
  submittedCount: number
  /** Distinct entries kept: the job's url_count. */
  urlCount: number
  invalidCount: number
  /** The first maxListedInvalid invalid entries, with their position in the submitted array. */
  invalidListed: InvalidUrl[]
}

const YIELD_EVERY = 20_000
// eslint-disable-next-line no-control-regex -- NUL is one of the characters looked for
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/** The submitted text of an invalid entry, cut and made storable (no NUL, no half surrogate pair). */
const storable = (raw: string): string => raw.slice(0, maxUrlLength).replace(UNSTORABLE, '\uFFFD')
const tick = () => new Promise<void>((resolve) => setImmediate(resolve))

export async function prepareUrls(input: readonly string[]): Promise<PreparedJob> {
  // Keys are normalized URLs; an invalid entry's key starts with NUL, which no normalized URL contains.
  const seen = new Set<string>()
  const chunks: Chunk[] = []
  const invalidListed: InvalidUrl[] = []
  let invalidCount = 0
  let current: Chunk = { urls: [], invalid: null }
  for (let i = 0; i < input.length; i++) {
    if (i % YIELD_EVERY === YIELD_EVERY - 1) await tick()
    const raw = input[i]!
    const n = normalizeUrl(raw)
    const bad = isNormalizeError(n)
    const stored = bad ? storable(raw) : n.url
    const key = bad ? `\u0000${stored}` : stored
    if (seen.has(key)) continue
    seen.add(key)
    if (bad) {
      current.invalid ??= new Array<string | null>(current.urls.length).fill(null)
      current.invalid.push(n.error)
      invalidCount++
      if (invalidListed.length < maxListedInvalid) invalidListed.push({ index: i, url: stored, reason: n.error })
    } else {
      current.invalid?.push(null)
    }
    current.urls.push(stored)
    if (current.urls.length === CHUNK_SIZE) {
      chunks.push(current)
      current = { urls: [], invalid: null }
    }
  }
  if (current.urls.length) chunks.push(current)
  return { chunks, submittedCount: input.length, urlCount: seen.size, invalidCount, invalidListed }
}
