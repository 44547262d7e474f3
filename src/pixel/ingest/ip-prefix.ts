// What is kept of a client's address. The full address is used at ingest (range verification, the
// per-address abuse bound) and then dropped: only the /24 (IPv4) or /48 (IPv6) network is stored.
import { parseIp } from '../agents/ip.ts'

const words = new Uint32Array(4)

const isV4Mapped = (w: Uint32Array) => w[0] === 0 && w[1] === 0 && w[2] === 0xffff

/** "203.0.113.77" -> "203.0.113.0/24", "2001:db8:1:2::5" -> "2001:db8:1::/48"; null when not an address. */
export function ipPrefix(ip: string | null | undefined): string | null {
  if (!ip || !parseIp(ip, words)) return null
  if (isV4Mapped(words)) {
    const v4 = words[3]!
    return `${v4 >>> 24}.${(v4 >>> 16) & 255}.${(v4 >>> 8) & 255}.0/24`
  }
  const g0 = words[0]! >>> 16
  const g1 = words[0]! & 0xffff
  const g2 = words[1]! >>> 16
  return `${g0.toString(16)}:${g1.toString(16)}:${g2.toString(16)}::/48`
}

/**
 * The key the abuse bound counts under: the whole IPv4 address, or the /64 of an IPv6 address (one
 * host usually holds a whole /64 and could rotate through it). Null when not an address.
 */
export function abuseKey(ip: string | undefined): number | string | null {
  if (!ip || !parseIp(ip, words)) return null
  if (isV4Mapped(words)) return words[3]!
  return `${words[0]}:${words[1]}`
}
