/**
 * 64-bit SimHash of a text's word 3-shingles, as a signed bigint-compatible decimal string (the
 * column is a PostgreSQL bigint). Near-duplicate pages differ in few bits; see hammingDistance.
 *
 * Words are hashed once (two independent 32-bit FNV-1a variants with a murmur3 finalizer) and a
 * shingle's hash mixes its three word hashes in order: no per-shingle string or digest is built,
 * which kept a cryptographic hash per shingle from being a tenth of a crawler's CPU time.
 */
function fmix32(h: number): number {
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

function wordHashes(word: string): [number, number] {
  let a = 0x811c9dc5
  let b = 0x9747b28c
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i)
    a = Math.imul(a ^ c, 0x01000193)
    b = Math.imul(b ^ c, 0x5bd1e995)
  }
  return [fmix32(a ^ word.length), fmix32(b + word.length)]
}

const mix3 = (x: number, y: number, z: number, seed: number): number => fmix32(x ^ fmix32(y ^ fmix32(z ^ seed)))

export function simhash(text: string): string | null {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu)
  if (!words || words.length < 3) return null
  const hashes = words.map(wordHashes)
  const weights = new Array<number>(64).fill(0)
  for (let i = 0; i + 2 < hashes.length; i++) {
    const [a1, b1] = hashes[i]!
    const [a2, b2] = hashes[i + 1]!
    const [a3, b3] = hashes[i + 2]!
    const hi = mix3(a1, a2, a3, 0x2545f491)
    const lo = mix3(b1, b2, b3, 0x6a09e667)
    for (let b = 0; b < 32; b++) {
      weights[b]! += (hi >>> b) & 1 ? 1 : -1
      weights[b + 32]! += (lo >>> b) & 1 ? 1 : -1
    }
  }
  let v = 0n
  for (let b = 0; b < 64; b++) if (weights[b]! > 0) v |= 1n << BigInt(b)
  return BigInt.asIntN(64, v).toString()
}

export function hammingDistance(a: string | number | bigint, b: string | number | bigint): number {
  let x = BigInt.asUintN(64, BigInt(a) ^ BigInt(b))
  let n = 0
  while (x) {
    x &= x - 1n
    n++
  }
  return n
}
