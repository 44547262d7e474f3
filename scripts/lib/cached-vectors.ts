// Sentence vectors of many texts (src/content/semantic/), for training and benchmarks: encoded by two
// encoder processes (one per core) and cached in .cache/semantic-vectors/ under a hash of the texts, so
// a second run reads them back. Encoding takes 8–40 ms a text.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { childProcessEncoder } from '../../src/content/semantic/encoder.ts'
import { SEMANTIC_DIMENSIONS as D } from '../../src/content/semantic/vectors.ts'

const cacheDir = join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), '.cache/semantic-vectors')
const STEP = 256

/** One stored-form vector (as pages.semantic) per text, in order. */
export async function cachedVectors(texts: readonly string[]): Promise<Int8Array[]> {
  const file = join(cacheDir, `${createHash('sha1').update(texts.join('\n')).digest('hex').slice(0, 16)}.bin`)
  let bytes: Int8Array
  if (existsSync(file)) bytes = new Int8Array(readFileSync(file).buffer.slice(0))
  else {
    bytes = new Int8Array(texts.length * D)
    const encoders = [childProcessEncoder({ timeoutMs: 600_000 }), childProcessEncoder({ timeoutMs: 600_000 })]
    let next = 0
    try {
      await Promise.all(
        encoders.map(async (e) => {
          for (let i = next; i < texts.length; i = next) {
            next += STEP
            for (const [j, v] of (await e.encode(texts.slice(i, i + STEP))).entries()) bytes.set(v, (i + j) * D)
            if (texts.length > 20 * STEP && (i / STEP) % 20 === 0) console.log(`encoded ${i} of ${texts.length} texts`)
          }
        }),
      )
    } finally {
      await Promise.all(encoders.map((e) => e.close()))
    }
    mkdirSync(cacheDir, { recursive: true })
    writeFileSync(file, bytes)
  }
  return Array.from({ length: texts.length }, (_, i) => bytes.slice(i * D, (i + 1) * D))
}
