/**
 * Near-duplicate detection over 64-bit SimHashes (Manku et al., WWW 2007): two pages are
 * near-duplicates when their fingerprints differ in at most k ≤ 3 bits. With the 64 bits cut into
 * four 16-bit blocks, such a pair agrees exactly on at least one block, so each fingerprint is only
 * compared with those sharing a block — no all-pairs scan.
 */
export interface Fingerprint {
  hi: number
  lo: number
}

/** Parses the decimal (signed 64-bit) form stored in pages.simhash. */
export function fingerprint(simhash: string | number | bigint | null | undefined): Fingerprint | null {
  if (simhash === null || simhash === undefined || simhash === '') return null
  let v: bigint
  try {
    v = BigInt.asUintN(64, BigInt(simhash))
  } catch {
    return null
  }
  return { hi: Number(v >> 32n), lo: Number(v & 0xffffffffn) }
}

function popcount32(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555)
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333)
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24
}

export function distance(a: Fingerprint, b: Fingerprint): number {
  return popcount32((a.hi ^ b.hi) >>> 0) + popcount32((a.lo ^ b.lo) >>> 0)
}

const blocks = (f: Fingerprint): number[] => [f.hi >>> 16, f.hi & 0xffff, f.lo >>> 16, f.lo & 0xffff]

/**
 * Keeps the first of every group of near-duplicates: feed pages best-ranked first; `check` answers
 * the key of the kept page a new one duplicates (or null), `add` records a kept page.
 */
export function nearDuplicateIndex<K>(maxBits = 3) {
  if (maxBits > 3) throw new Error('the block index finds distances up to 3 bits')
  const buckets: Map<number, { f: Fingerprint; key: K }[]>[] = [new Map(), new Map(), new Map(), new Map()]
  return {
    check(f: Fingerprint): { key: K; distance: number } | null {
      const bs = blocks(f)
      for (let i = 0; i < 4; i++) {
        for (const e of buckets[i]!.get(bs[i]!) ?? []) {
          const d = distance(f, e.f)
          if (d <= maxBits) return { key: e.key, distance: d }
        }
      }
      return null
    },
    add(f: Fingerprint, key: K): void {
      const bs = blocks(f)
      for (let i = 0; i < 4; i++) {
        const m = buckets[i]!
        const list = m.get(bs[i]!)
        if (list) list.push({ f, key })
        else m.set(bs[i]!, [{ f, key }])
      }
    },
  }
}
