// IP address and CIDR parsing into 128-bit values held as four uint32 words. IPv4 is stored as its
// IPv4-mapped IPv6 form (::ffff:a.b.c.d) so one comparison path serves both families and a client
// that reaches us over a dual-stack socket ("::ffff:66.249.66.1") matches the IPv4 ranges.

/** Parses `ip` into `out` (4 words); false when it is not a literal address. No allocation. */
export function parseIp(ip: string, out: Uint32Array): boolean {
  let start = 0
  let end = ip.length
  if (end > 0 && ip.charCodeAt(0) === 91 && ip.charCodeAt(end - 1) === 93) {
    start++
    end--
  } // [v6]
  const zone = ip.indexOf('%', start)
  if (zone >= 0 && zone < end) end = zone // fe80::1%eth0
  if (end - start < 2 || end - start > 45) return false
  if (ip.indexOf(':', start) < 0) {
    const v4 = parseV4(ip, start, end)
    if (v4 < 0) return false
    out[0] = 0
    out[1] = 0
    out[2] = 0xffff
    out[3] = v4
    return true
  }
  return parseV6(ip, start, end, out)
}

/** Dotted quad -> uint32, or -1. Leading zeros are refused (some stacks read them as octal). */
function parseV4(s: string, start: number, end: number): number {
  let value = 0
  let parts = 0
  let i = start
  while (parts < 4) {
    const from = i
    let octet = 0
    while (i < end) {
      const c = s.charCodeAt(i)
      if (c < 48 || c > 57) break
      octet = octet * 10 + (c - 48)
      i++
    }
    const digits = i - from
    if (digits === 0 || digits > 3 || octet > 255 || (digits > 1 && s.charCodeAt(from) === 48)) return -1
    value = value * 256 + octet
    parts++
    if (parts < 4) {
      if (i >= end || s.charCodeAt(i) !== 46) return -1
      i++
    }
  }
  return i === end ? value >>> 0 : -1
}

const groups = new Uint16Array(8)

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48
  const l = c | 32
  return l >= 97 && l <= 102 ? l - 87 : -1
}

function parseV6(s: string, start: number, end: number, out: Uint32Array): boolean {
  let n = 0
  let gap = -1 // index in `groups` where "::" stands
  let i = start
  if (s.charCodeAt(i) === 58) {
    if (s.charCodeAt(i + 1) !== 58) return false
    gap = 0
    i += 2
  }
  while (i < end) {
    let j = i
    let value = 0
    while (j < end && j - i <= 4) {
      const h = hexValue(s.charCodeAt(j))
      if (h < 0) break
      value = value * 16 + h
      j++
    }
    if (j < end && s.charCodeAt(j) === 46) {
      // embedded IPv4 tail
      const v4 = parseV4(s, i, end)
      if (v4 < 0 || n > 6) return false
      groups[n++] = v4 >>> 16
      groups[n++] = v4 & 0xffff
      i = end
      break
    }
    if (j === i || j - i > 4 || n >= 8) return false
    groups[n++] = value
    if (j === end) {
      i = end
      break
    }
    if (s.charCodeAt(j) !== 58) return false
    j++
    if (j < end && s.charCodeAt(j) === 58) {
      if (gap >= 0) return false
      gap = n
      j++
    } else if (j === end) return false
    i = j
  }
  if (gap >= 0) {
    if (n >= 8) return false
    const tail = n - gap
    for (let k = 0; k < tail; k++) groups[7 - k] = groups[n - 1 - k]!
    for (let k = gap; k < 8 - tail; k++) groups[k] = 0
  } else if (n !== 8) return false
  for (let k = 0; k < 4; k++) out[k] = ((groups[2 * k]! << 16) | groups[2 * k + 1]!) >>> 0
  return true
}

/** "a.b.c.d/n" or "v6/n" -> first and last address (host bits ignored); null when malformed. */
export function parseCidr(cidr: string): { first: Uint32Array; last: Uint32Array } | null {
  const slash = cidr.indexOf('/')
  if (slash < 0) return null
  const first = new Uint32Array(4)
  if (!parseIp(cidr.slice(0, slash), first)) return null
  const bitsText = cidr.slice(slash + 1)
  if (!/^\d{1,3}$/.test(bitsText)) return null
  const isV4 = !cidr.includes(':')
  const bits = Number(bitsText) + (isV4 ? 96 : 0)
  if (bits > 128) return null
  const last = new Uint32Array(4)
  for (let k = 0; k < 4; k++) {
    const keep = Math.max(0, Math.min(32, bits - 32 * k)) // prefix bits inside this word
    const mask = keep === 0 ? 0 : keep === 32 ? 0xffffffff : (0xffffffff << (32 - keep)) >>> 0
    first[k] = (first[k]! & mask) >>> 0
    last[k] = (first[k]! | ~mask) >>> 0
  }
  return { first, last }
}

/** Lexicographic comparison of two 4-word values stored at offsets in (possibly) larger arrays. */
export function compare128(a: Uint32Array, ai: number, b: Uint32Array, bi: number): number {
  for (let k = 0; k < 4; k++) {
    const x = a[ai + k]!
    const y = b[bi + k]!
    if (x !== y) return x < y ? -1 : 1
  }
  return 0
}
