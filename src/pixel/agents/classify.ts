// Entry point of agent classification: user-agent string -> agent, operator, type. Pure and offline:
// the curated data is compiled once at module load; the hot path allocates nothing and returns shared,
// frozen results.
import agentsDoc from './agents.json' with { type: 'json' }
import { compileMatcher } from './matcher.ts'
import { validateAgents } from './schema.ts'
import type { AgentRecord, AgentType } from './schema.ts'

export type { AgentRecord, AgentType } from './schema.ts'

export interface Classification {
  /** Agent name from agents.json; null for humans. */
  agent: string | null
  operator: string | null
  type: AgentType | 'human'
  /** The UA names the agent itself (false for humans, headless-browser markers and empty UAs). */
  declared: boolean
}

/** Longer UAs are only scanned this far: real ones are < 512 chars, and the cost must stay bounded. */
export const MAX_SCAN = 2048

export const agents: readonly AgentRecord[] = validateAgents(agentsDoc)

const byName = new Map(agents.map((a) => [a.name, a]))
const results: readonly Classification[] = agents.map((a) =>
  Object.freeze({ agent: a.name, operator: a.operator, type: a.type, declared: !a.headless && !a.empty_ua }),
)
const HUMAN: Classification = Object.freeze({ agent: null, operator: null, type: 'human', declared: false })
const emptyIndex = agents.findIndex((a) => a.empty_ua)
if (emptyIndex < 0) throw new Error('agents.json: no entry with empty_ua')
const EMPTY = results[emptyIndex]!

// Robots-only tokens are never compiled: they cannot count as seen.
const match = compileMatcher(
  agents.flatMap((a, id) => (a.robots_only ? [] : a.tokens.map((token) => ({ token, id, tier: a.tier ?? 0 })))),
)

export function classifyUserAgent(ua: string | undefined | null): Classification {
  if (typeof ua !== 'string') return EMPTY
  const id = match(ua, MAX_SCAN)
  if (id >= 0) return results[id]!
  return isBlank(ua) ? EMPTY : HUMAN
}

/** The curated record behind a classification's agent name. */
export function agentRecord(name: string | null): AgentRecord | undefined {
  return name === null ? undefined : byName.get(name)
}

// "-" is what access logs write for a missing header.
function isBlank(ua: string): boolean {
  if (ua.length === 0) return true
  const c = ua.charCodeAt(0)
  return (c <= 32 || c === 45) && (ua.trim() === '' || ua.trim() === '-')
}
