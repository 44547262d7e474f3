/**
 * robots.txt per RFC 9309: groups by user-agent (ours matched case-insensitively by product token,
 * all matching groups merged, `*` as fallback), Allow/Disallow with `*` and a trailing `$`, the
 * longest pattern wins and Allow wins a tie. Matching is linear-time, so a hostile file with
 * patterns like `/*a*a*a*` cannot stall the crawler.
 */

export interface RobotsPolicy {
  /** `pathAndQuery` as in a request line: "/a/b?c=d". */
  isAllowed(pathAndQuery: string): boolean
}

export const ALLOW_ALL: RobotsPolicy = { isAllowed: () => true }
export const DISALLOW_ALL: RobotsPolicy = { isAllowed: (p) => p === '/robots.txt' }

/** RFC 9309 §2.5: parsers must read at least 500 KiB; anything after that is ignored. */
export const ROBOTS_MAX_BYTES = 500 * 1024

interface Rule {
  allow: boolean
  pattern: string
}

interface Group {
  agents: string[]
  rules: Rule[]
}

/** Upper-case %xx escapes and percent-encode what a URL would never carry raw (non-ASCII, spaces). */
function normalizePath(s: string): string {
  const upper = s.replace(/%[0-9a-f]{2}/gi, (m) => m.toUpperCase())
  return upper.replace(/[^\x21-\x7e]/gu, (c) => {
    try {
      return encodeURIComponent(c)
    } catch {
      return '' // a lone surrogate cannot come from a real URL
    }
  })
}

/** Glob match of a robots pattern against the start of `path`; `*` is any run, a final `$` anchors. */
export function patternMatches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$')
  const parts = (anchored ? pattern.slice(0, -1) : pattern).split('*')
  const first = parts[0] ?? ''
  if (!path.startsWith(first)) return false
  if (parts.length === 1) return !anchored || path.length === first.length
  let pos = first.length
  const last = parts.length - 1
  // Leftmost placement of each middle literal is always safe when the only wildcard is `*`.
  for (let i = 1; i < last; i++) {
    const part = parts[i] ?? ''
    const at = path.indexOf(part, pos)
    if (at < 0) return false
    pos = at + part.length
  }
  const tail = parts[last] ?? ''
  if (anchored) return path.length - tail.length >= pos && path.endsWith(tail)
  return path.indexOf(tail, pos) >= 0
}

function parseGroups(text: string): Group[] {
  const groups: Group[] = []
  let current: Group | null = null
  let inAgentLines = false
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = (raw.split('#')[0] ?? '').trim()
    const colon = line.indexOf(':')
    if (colon < 0) continue
    const key = line.slice(0, colon).trim().toLowerCase()
    const value = line.slice(colon + 1).trim()
    if (key === 'user-agent') {
      // Consecutive user-agent lines share one group; one after rules starts the next group.
      if (!current || !inAgentLines) {
        current = { agents: [], rules: [] }
        groups.push(current)
      }
      current.agents.push(value.toLowerCase())
      inAgentLines = true
    } else if (key === 'allow' || key === 'disallow') {
      inAgentLines = false
      // An empty value is "no rule"; rules before any user-agent line belong to no group.
      if (current && value) current.rules.push({ allow: key === 'allow', pattern: normalizePath(value) })
    }
    // Other lines (sitemap, crawl-delay, unknown) neither add rules nor end a user-agent run.
  }
  return groups
}

/** The product token of a User-Agent string: "CurataBot/0.1 (+url)" → "curatabot". */
export function productToken(userAgent: string): string {
  return (userAgent.trim().split(/[/\s]/)[0] ?? '').toLowerCase()
}

export function parseRobots(text: string, userAgent: string): RobotsPolicy {
  const token = productToken(userAgent)
  const groups = parseGroups(text)
  const agentName = (a: string): string => a.split(/[/\s]/)[0] ?? ''
  let chosen = groups.filter((g) => g.agents.some((a) => agentName(a) === token))
  if (chosen.length === 0) chosen = groups.filter((g) => g.agents.includes('*'))
  const rules = chosen.flatMap((g) => g.rules)
  if (rules.length === 0) return ALLOW_ALL
  return {
    isAllowed(pathAndQuery) {
      const path = normalizePath(pathAndQuery || '/')
      if (path === '/robots.txt') return true
      let best: Rule | null = null
      for (const rule of rules) {
        if (!patternMatches(rule.pattern, path)) continue
        const longer = !best || rule.pattern.length > best.pattern.length
        const tieWonByAllow = best !== null && rule.pattern.length === best.pattern.length && rule.allow
        if (longer || tieWonByAllow) best = rule
      }
      return best ? best.allow : true
    },
  }
}
