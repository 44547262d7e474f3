// Entry point of agent classification: user-agent string -> agent, operator, type. Pure and offline:
// the curated data is compiled once at module load; results are shared and frozen. Three layers: the
// named agents of agents.json (matcher.ts), a missing UA, then the UA's structure (structure.ts) for
// bots no list names.
import agentsDoc from './agents.json' with { type: 'json' }
import { compileMatcher, patternsOf } from './matcher.ts'
import type { AgentRecord, AgentType } from './schema.ts'
import { validateAgents } from './schema.ts'
import { looksAutomated } from './structure.ts'

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
function only(what: string, test: (a: AgentRecord) => boolean | undefined): Classification {
  const i = agents.findIndex(test)
  if (i < 0) throw new Error(`agents.json: no entry with ${what}`)
  return results[i]!
}
const EMPTY = only('empty_ua', (a) => a.empty_ua)
const GENERIC = only('generic', (a) => a.generic)

const match = compileMatcher(patternsOf(agents))

// The shape of a mainstream browser's UA and nothing more: a platform comment of the usual grammar,
// then only engine and browser products. Most traffic has it; it can name no agent, so it is answered
// before the token scan. Anything else (an extra product, a comment, "compatible") takes the full path.
const PLAIN_BROWSER = new RegExp(
  '^Mozilla/5\\.0 \\((?:Windows NT [\\d.]+(?:; (?:Win64|WOW64|x64))*|Macintosh; Intel Mac OS X [\\d_.]+|X11; (?:Ubuntu; )?Linux (?:x86_64|i686|aarch64)|X11; CrOS \\w+ [\\d.]+' +
    '|Linux; Android [\\d.]+(?:; [\\w .-]{1,40}?(?: Build/[\\w.]+)?(?:; wv)?)?|Android [\\d.]+; Mobile|iPhone; CPU iPhone OS [\\d_]+ like Mac OS X|iPad; CPU OS [\\d_]+ like Mac OS X)' +
    '(?:; rv:[\\d.]+)?\\) (?:AppleWebKit/[\\d.]+ \\(KHTML, like Gecko\\)|Gecko/[\\d.]+)' +
    '(?: (?:Version|Chrome|Mobile|Safari|Firefox|Edg|EdgA|EdgiOS|OPR|CriOS|FxiOS|YaBrowser|SamsungBrowser|Vivaldi)(?:/[\\w.]+)?)+$',
)

export function classifyUserAgent(ua: string | undefined | null): Classification {
  if (typeof ua !== 'string') return EMPTY
  const head = ua.length > MAX_SCAN ? ua.slice(0, MAX_SCAN) : ua
  if (PLAIN_BROWSER.test(head)) return HUMAN
  const id = match(head)
  if (id >= 0) return results[id]!
  if (isBlank(head)) return EMPTY
  return looksAutomated(head) ? GENERIC : HUMAN
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
