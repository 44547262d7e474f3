// Access-log lines: the combined log format (Apache, nginx's default) and JSON lines with the field
// names of common log shippers (docs/pixel.md, "Server-log ingest" lists the aliases).

export interface LogLine {
  time: Date
  ip: string | null
  method: string
  /** Request target: a path ("/a?b") or an absolute URL. */
  target: string
  host: string | null
  status: number | null
  userAgent: string | undefined
  referer: string | null
}

export const MAX_LINE = 16 * 1024

// 127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /a.html HTTP/1.0" 200 2326 "http://x/" "Mozilla/5.0 …"
const COMBINED = /^(\S+) \S+ \S+ \[([^\]]+)\] "((?:[^"\\]|\\.)*)" (\d{3}|-) \S+ "((?:[^"\\]|\\.)*)" "((?:[^"\\]|\\.)*)"/
const CLF_TIME = /^(\d{2})\/([A-Za-z]{3})\/(\d{4}):(\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})$/
const MONTHS: Record<string, string> = {
  jan: '01',
  feb: '02',
  mar: '03',
  apr: '04',
  may: '05',
  jun: '06',
  jul: '07',
  aug: '08',
  sep: '09',
  oct: '10',
  nov: '11',
  dec: '12',
}

/** One line, or null when it is neither a combined-format line nor a usable JSON object. */
export function parseLogLine(line: string): LogLine | null {
  if (line.length > MAX_LINE) return null
  return line.startsWith('{') ? parseJsonLine(line) : parseCombined(line)
}

function parseCombined(line: string): LogLine | null {
  const m = COMBINED.exec(line)
  if (!m) return null
  const time = clfTime(m[2]!)
  const request = requestLine(unescape(m[3]!))
  if (!time || !request) return null
  const referer = unescape(m[5]!)
  const ua = unescape(m[6]!)
  return {
    time,
    ip: m[1] === '-' ? null : m[1]!,
    method: request.method,
    target: request.target,
    host: null,
    status: m[4] === '-' ? null : Number(m[4]),
    userAgent: ua === '-' || ua === '' ? undefined : ua,
    referer: referer === '-' || referer === '' ? null : referer,
  }
}

function clfTime(s: string): Date | null {
  const m = CLF_TIME.exec(s)
  const month = m && MONTHS[m[2]!.toLowerCase()]
  if (!m || !month) return null
  const d = new Date(`${m[3]}-${month}-${m[1]}T${m[4]}:${m[5]}:${m[6]}${m[7]}${m[8]}:${m[9]}`)
  return Number.isNaN(d.getTime()) ? null : d
}

function requestLine(r: string): { method: string; target: string } | null {
  const m = /^([A-Z]{3,10}) (\S+)(?: HTTP\/[\d.]+)?$/.exec(r)
  return m ? { method: m[1]!, target: m[2]! } : null
}

// nginx escapes " and non-printable bytes as \xHH; Apache writes \" and \\.
function unescape(s: string): string {
  if (!s.includes('\\')) return s
  return s.replace(/\\x([0-9a-fA-F]{2})|\\(.)/g, (_all, hex: string | undefined, ch: string | undefined) =>
    hex ? String.fromCharCode(parseInt(hex, 16)) : ch!,
  )
}

const ALIASES = {
  time: ['time', 'timestamp', 'ts', '@timestamp', 'time_local', 'EdgeStartTimestamp', 'date'],
  ip: ['ip', 'remote_addr', 'client_ip', 'clientIp', 'ClientIP', 'c-ip', 'remote_ip'],
  method: ['method', 'request_method', 'ClientRequestMethod', 'http_method'],
  target: ['path', 'uri', 'request_uri', 'url', 'ClientRequestURI', 'ClientRequestPath'],
  request: ['request'],
  host: ['host', 'http_host', 'ClientRequestHost', 'server_name'],
  status: ['status', 'status_code', 'EdgeResponseStatus', 'OriginResponseStatus'],
  userAgent: ['user_agent', 'userAgent', 'http_user_agent', 'ua', 'ClientRequestUserAgent'],
  referer: ['referer', 'referrer', 'http_referer', 'ClientRequestReferer'],
} as const

function pick(o: Record<string, unknown>, names: readonly string[]): unknown {
  for (const n of names) if (o[n] !== undefined && o[n] !== null && o[n] !== '') return o[n]
  return undefined
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null)

function parseJsonLine(line: string): LogLine | null {
  let o: unknown
  try {
    o = JSON.parse(line)
  } catch {
    return null
  }
  if (o === null || typeof o !== 'object' || Array.isArray(o)) return null
  const rec = o as Record<string, unknown>
  const time = jsonTime(pick(rec, ALIASES.time))
  let method = str(pick(rec, ALIASES.method))
  let target = str(pick(rec, ALIASES.target))
  const request = str(pick(rec, ALIASES.request))
  if (request && (!method || !target)) {
    const r = requestLine(request)
    method ??= r?.method ?? null
    target ??= r?.target ?? null
  }
  if (!time || !target) return null
  const status = Number(pick(rec, ALIASES.status))
  const ua = str(pick(rec, ALIASES.userAgent))
  return {
    time,
    ip: str(pick(rec, ALIASES.ip)),
    method: (method ?? 'GET').toUpperCase(),
    target,
    host: str(pick(rec, ALIASES.host)),
    status: Number.isInteger(status) ? status : null,
    userAgent: ua === null || ua === '-' ? undefined : ua,
    referer: str(pick(rec, ALIASES.referer)),
  }
}

/** ISO 8601 / RFC 3339 text, a combined-format time, or epoch seconds, ms, µs or ns. */
function jsonTime(v: unknown): Date | null {
  if (typeof v === 'number' && Number.isFinite(v) && v > 0) {
    const ms = v > 1e17 ? v / 1e6 : v > 1e14 ? v / 1e3 : v > 1e11 ? v : v * 1000
    const d = new Date(Math.round(ms))
    return Number.isNaN(d.getTime()) ? null : d
  }
  if (typeof v !== 'string') return null
  if (/^\d+(\.\d+)?$/.test(v)) return jsonTime(Number(v))
  const clf = clfTime(v)
  if (clf) return clf
  if (!/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(v)) return null
  const d = new Date(v)
  return Number.isNaN(d.getTime()) ? null : d
}

const ASSET =
  /\.(?:css|js|mjs|map|json|xml|txt|ico|png|jpe?g|gif|webp|avif|svg|bmp|tiff?|woff2?|ttf|otf|eot|mp[34]|webm|ogg|wav|avi|mov|pdf|zip|gz|tar|rar|7z|exe|dmg|apk|wasm|rss|atom)$/i

/**
 * Is this line a page load? GET of a non-asset path answered 2xx or 304. Robots.txt, feeds,
 * sitemaps, images, scripts, API calls with an error status, POSTs and HEADs are not.
 */
export function isPageLoad(l: LogLine): boolean {
  if (l.method !== 'GET') return false
  if (l.status !== null && !((l.status >= 200 && l.status < 300) || l.status === 304)) return false
  return !ASSET.test(pathOf(l.target))
}

/** The path of a request target ("/a/b?c" -> "/a/b"; "https://h/a?b" -> "/a"). */
export function pathOf(target: string): string {
  let t = target
  if (!t.startsWith('/')) {
    const scheme = t.indexOf('://')
    if (scheme >= 0) {
      const slash = t.indexOf('/', scheme + 3)
      t = slash < 0 ? '/' : t.slice(slash)
    }
  }
  const q = t.search(/[?#]/)
  return q < 0 ? t : t.slice(0, q)
}
