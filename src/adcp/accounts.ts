/**
 * The AdCP `account` a caller names, within its client (the API key): the key tasks are scoped by,
 * and whether it is a sandbox account (comply_test_controller serves only those). An account is
 * named by `account_id`, or by `brand.domain` and `operator`.
 *
 * Sandbox is decided by the agent, not by the payload's claim alone: on a sandbox deployment (the
 * sandbox SSP connector: no deal of it serves) every account is a sandbox account; on a live one,
 * an account is when it says `sandbox: true` AND is named under a domain reserved for testing
 * (RFC 2606 / 6761: .example, .test, .invalid, .localhost, example.com/.net/.org), AdCP's
 * fictional-entities convention. Every other account is live.
 */

export interface AccountScope {
  /** '' when no account was named. */
  key: string
  sandbox: boolean
}

export function accountScope(account: unknown, sandboxDeployment = false): AccountScope {
  if (!account || typeof account !== 'object' || Array.isArray(account)) return { key: '', sandbox: sandboxDeployment }
  const a = account as Record<string, unknown>
  const sandbox = a.sandbox === true
  if (typeof a.account_id === 'string') return { key: `id:${a.account_id}`, sandbox: sandboxDeployment }
  const brand = a.brand && typeof a.brand === 'object' ? (a.brand as Record<string, unknown>) : {}
  const domain = typeof brand.domain === 'string' ? brand.domain.toLowerCase() : ''
  const operator = typeof a.operator === 'string' ? a.operator.toLowerCase() : ''
  const fictional = [domain, operator].some(isTestDomain) && [domain, operator].every((d) => !d || isTestDomain(d))
  return { key: domain || operator ? `brand:${domain}|${operator}|${sandbox ? 'sandbox' : 'live'}` : '', sandbox: sandboxDeployment || (sandbox && fictional) }
}

const reservedTlds = ['example', 'test', 'invalid', 'localhost']
const reservedDomains = ['example.com', 'example.net', 'example.org']

export function isTestDomain(domain: string): boolean {
  const d = domain.replace(/\.$/, '')
  const tld = d.slice(d.lastIndexOf('.') + 1)
  return reservedTlds.includes(tld) || reservedDomains.some((r) => d === r || d.endsWith(`.${r}`))
}
