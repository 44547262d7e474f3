/**
 * SSRF guard (the scraper and webhook deliveries): refuses connections to any address that is not plain public unicast.
 *
 * The check runs inside the undici connector, so it applies to every connection of every
 * redirect hop, and it looks at the address the socket actually connected to (defeats DNS
 * rebinding, where a name resolves to a public address when checked and a private one when used).
 */
import dns from 'node:dns'
import net from 'node:net'
import ipaddr from 'ipaddr.js'
import { Agent, buildConnector } from 'undici'

export interface ResolvedAddress {
  address: string
  family: 4 | 6
}

/** Resolves a host name to addresses. Injectable so tests can point a name at a private address. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>

export const systemResolver: Resolver = async (hostname) => {
  const all = await dns.promises.lookup(hostname, { all: true, verbatim: true })
  return all.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }))
}

/** Thrown by the connector; its `code` lets the fetcher report "blocked" rather than "network". */
export class SsrfBlockedError extends Error {
  readonly code = 'ERR_SSRF_BLOCKED'
  constructor(
    readonly address: string,
    readonly range: string,
  ) {
    super(`refused to connect to ${address} (${range} address)`)
  }
}

// ipaddr.js calls these 'unicast', yet they are not hosts on the public internet.
const EXTRA_BLOCKED = [
  '0.0.0.0/8',
  '100.64.0.0/10',
  '169.254.0.0/16',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '240.0.0.0/4',
  '2001:db8::/32',
  '64:ff9b:1::/48',
].map((cidr) => ipaddr.parseCIDR(cidr))

// IANA allocates global unicast IPv6 only from 2000::/3; everything else (::/8 with the deprecated
// IPv4-compatible ::/96, 4000::/2, fe00::/9 …) is refused. ::ffff:0:0/96 never gets here: process()
// has already turned it into IPv4.
const IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3')
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96')

/** Why an IP address must not be contacted, or null when it is public unicast. */
export function blockedRange(address: string): string | null {
  if (net.isIP(address) === 0) return 'invalid'
  // process() turns ::ffff:10.0.0.1 into 10.0.0.1, so mapped addresses get the IPv4 verdict.
  const ip = ipaddr.process(address)
  const range = ip.range()
  if (range !== 'unicast') return range
  if (ip.kind() === 'ipv6' && !ip.match(IPV6_GLOBAL_UNICAST)) return ip.match(IPV4_COMPATIBLE) ? 'ipv4Compatible' : 'reserved'
  for (const cidr of EXTRA_BLOCKED) {
    if (cidr[0].kind() === ip.kind() && ip.match(cidr)) return 'reserved'
  }
  return null
}

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host
}

/** A `net.connect` lookup that resolves through `resolver` and refuses names with any blocked address. */
function guardedLookup(resolver: Resolver, classify: Classifier | null): net.LookupFunction {
  return (hostname, options, callback) => {
    resolver(hostname).then(
      (found) => {
        const wanted = options.family === 4 || options.family === 6 ? found.filter((a) => a.family === options.family) : found
        const first = wanted[0]
        if (!first) {
          const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`)
          err.code = 'ENOTFOUND'
          callback(err, '')
          return
        }
        if (classify) {
          // One private answer is enough to refuse: a mixed answer is how rebinding attacks start.
          for (const a of wanted) {
            const range = classify(a.address)
            if (range) return callback(new SsrfBlockedError(`${hostname} → ${a.address}`, range), '')
          }
        }
        if (options.all) callback(null, wanted)
        else callback(null, first.address, first.family)
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    )
  }
}

/** Returns why an address is refused, or null to allow it. */
export type Classifier = (address: string) => string | null

export interface GuardOptions {
  allowPrivate: boolean
  resolver?: Resolver
  /** Replaces `blockedRange`; only tests set it, to let their loopback fixture count as public. */
  classify?: Classifier
  connectTimeoutMs: number
  headersTimeoutMs: number
  idleTimeoutMs: number
  /** Sockets kept per origin; small, since politeness allows few parallel requests per host. */
  connectionsPerOrigin?: number
}

/** An undici connector that checks IP-literal hosts before connecting and the peer address after. */
export function guardedConnector(opts: GuardOptions): buildConnector.connector {
  const classify = opts.allowPrivate ? null : (opts.classify ?? blockedRange)
  const base = buildConnector({ timeout: opts.connectTimeoutMs, lookup: guardedLookup(opts.resolver ?? systemResolver, classify) })
  if (!classify) return base
  return (connectOpts, callback) => {
    // net.connect skips lookup for IP literals, so they are checked here.
    const literal = stripBrackets(connectOpts.hostname)
    const literalRange = net.isIP(literal) === 0 ? null : classify(literal)
    if (literalRange) return callback(new SsrfBlockedError(literal, literalRange), null)
    base(connectOpts, (...args) => {
      const [err, socket] = args
      if (err) return callback(err, null)
      const peer = socket.remoteAddress
      const range = peer ? classify(peer) : 'unknown'
      if (range) {
        socket.destroy()
        return callback(new SsrfBlockedError(peer ?? 'unknown peer', range), null)
      }
      callback(null, socket)
    })
  }
}

/** The dispatcher every scraping request goes through. */
export function createGuardedAgent(opts: GuardOptions): Agent {
  return new Agent({
    connect: guardedConnector(opts),
    connections: opts.connectionsPerOrigin ?? 4,
    headersTimeout: opts.headersTimeoutMs,
    bodyTimeout: opts.idleTimeoutMs,
    keepAliveTimeout: 4_000,
  })
}
