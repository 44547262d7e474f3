/**
 * The AdCP `account` a caller names, within its client (the API key): the key tasks and test
 * directives are scoped by, and whether it is a sandbox account (comply_test_controller serves only
 * those). An account is named by `account_id`, or by `brand.domain` and `operator`.
 */

export interface AccountScope {
  /** '' when no account was named. */
  key: string
  sandbox: boolean
}

export function accountScope(account: unknown): AccountScope {
  if (!account || typeof account !== 'object' || Array.isArray(account)) return { key: '', sandbox: false }
  const a = account as Record<string, unknown>
  const sandbox = a.sandbox === true
  if (typeof a.account_id === 'string') return { key: `id:${a.account_id}`, sandbox }
  const brand = a.brand && typeof a.brand === 'object' ? (a.brand as Record<string, unknown>) : {}
  const domain = typeof brand.domain === 'string' ? brand.domain.toLowerCase() : ''
  const operator = typeof a.operator === 'string' ? a.operator.toLowerCase() : ''
  return { key: domain || operator ? `brand:${domain}|${operator}|${sandbox ? 'sandbox' : 'live'}` : '', sandbox }
}
