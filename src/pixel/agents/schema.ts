// Shape of the curated agent data (agents.json) and the checks it must pass. Kept apart from the
// loaders so the build script can validate what it writes without importing the shipped file.

export type AgentType = 'search' | 'llm_training' | 'llm_retrieval' | 'scraper'
export const AGENT_TYPES: readonly AgentType[] = ['search', 'llm_training', 'llm_retrieval', 'scraper']

export interface AgentRecord {
  name: string
  operator: string | null
  type: AgentType
  /** Matcher patterns (syntax in matcher.ts). */
  tokens: string[]
  /** A robots.txt control token its operator never sends: a UA naming it is typed as the token but flagged spoofed. */
  robots_only?: true
  /** Key (or operator) in ip-ranges.json whose published ranges this agent crawls from. */
  verify?: { ranges_key: string }
  /** Known not to honour robots.txt (ai.robots.txt `respect: No`). */
  ignores_robots?: true
  /** An automation marker inside a browser UA (headless browser): it does not declare itself a bot. */
  headless?: true
  /** Stands for requests that carry no user-agent at all. */
  empty_ua?: true
  /** Stands for bots no entry names, recognised by the structure of their UA (structure.ts). */
  generic?: true
  /** Match precedence: 0 (omitted) named agents, 1 generic clients (libraries, headless, scanners). */
  tier?: 1
  /** Where the entry comes from: `ai.robots.txt`, `crawler-user-agents`, `research`, `curated` (joined by `+`). */
  source: string
}

export interface AgentsDocument {
  $comment?: string
  attribution: { name: string; url: string; license: string; copyright: string; commit: string; notice: string }[]
  agents: AgentRecord[]
}

const TOKEN_RE = /^=?(?:\^[\x20-\x7e]{2,}\$?|[A-Za-z0-9][\x20-\x7e]+)$/

/** Throws with every problem found; returns the records typed. */
export function validateAgents(doc: unknown): AgentRecord[] {
  const problems: string[] = []
  const agents = (doc as AgentsDocument | null)?.agents
  if (!Array.isArray(agents)) throw new Error('agents.json: `agents` must be an array')
  const seen = new Set<string>()
  agents.forEach((a: AgentRecord, i) => {
    const at = `agents[${i}] (${String(a?.name)})`
    if (typeof a?.name !== 'string' || a.name.trim() === '') problems.push(`${at}: name`)
    else if (seen.has(a.name.toLowerCase())) problems.push(`${at}: duplicate name`)
    else seen.add(a.name.toLowerCase())
    if (a.operator !== null && typeof a.operator !== 'string') problems.push(`${at}: operator`)
    if (!AGENT_TYPES.includes(a.type)) problems.push(`${at}: type ${String(a.type)}`)
    if (!Array.isArray(a.tokens)) problems.push(`${at}: tokens`)
    else {
      if (a.tokens.length === 0 && !a.empty_ua && !a.generic) problems.push(`${at}: no tokens`)
      for (const t of a.tokens) if (typeof t !== 'string' || !TOKEN_RE.test(t)) problems.push(`${at}: token ${JSON.stringify(t)}`)
    }
    if (a.verify !== undefined && typeof a.verify?.ranges_key !== 'string') problems.push(`${at}: verify.ranges_key`)
    if (a.tier !== undefined && a.tier !== 1) problems.push(`${at}: tier`)
    if (typeof a.source !== 'string' || a.source === '') problems.push(`${at}: source`)
  })
  if (problems.length) throw new Error(`agents.json is invalid:\n  ${problems.join('\n  ')}`)
  return agents
}
