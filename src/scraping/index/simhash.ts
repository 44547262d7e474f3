import { createHash } from 'node:crypto'

/**
 * 64-bit SimHash of a text's word 3-shingles, as a signed bigint-compatible decimal string (the
 * column is a PostgreSQL bigint). Near-duplicate pages differ in few bits; see hammingDistance.
 */
export function simhash(text: string): string | null {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu)
  if (!words || words.length < 3) return null
  const weights = new Array<number>(64).fill(0)
  for (let i = 0; i + 2 < words.length; i++) {
    const h = createHash('md5').update(`${words[i]} ${words[i + 1]} ${words[i + 2]}`).digest()
    const hi = h.readUInt32BE(0)
    const lo = h.readUInt32BE(4)
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
