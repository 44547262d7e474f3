/**
 * What every tool handler gets: the platform context, the caller, and where the service is reached
 * (for the agent_url in signal ids). Shared by the HTTP and the stdio transports.
 */

import type { Principal } from '../platform/keys/keys.ts'
import type { AdcpContext } from './context.ts'
import { adcpVersion, DomainError } from './results.ts'

export interface AgentLogger {
  error(obj: object, msg?: string): void
  warn(obj: object, msg?: string): void
}

export interface AgentDeps {
  ctx: AdcpContext
  /** The caller, checked on every tool call (stdio re-checks the key, so a revoked key stops working). */
  principal(): Promise<Principal>
  /** The service's base URL (PUBLIC_URL, else the request's origin); the MCP endpoint is `${baseUrl}/mcp`. */
  baseUrl: string
  /** Host the request came to, for the data provider domain when none is configured. */
  requestHost: string | null
  log: AgentLogger
}

export const dataProviderName = 'Curata'

/**
 * The release to answer with: 3.1, or 3.0 when the caller pins 3.0. Another major version (4.x, or
 * adcp_major_version other than 3) is refused. Pre-3.x callers send semver values ("1.6.0") that the
 * spec's own era used; those are served the 3.1 superset, which keeps every older field.
 */
export function negotiateVersion(input: { adcp_version?: string | undefined; adcp_major_version?: number | undefined }): string {
  const m = input.adcp_version ? /^(\d+)\.(\d+)/.exec(input.adcp_version) : null
  const major = m ? Number(m[1]) : input.adcp_major_version
  if (major !== undefined && major > 3) {
    throw new DomainError(
      'VERSION_UNSUPPORTED',
      `AdCP ${input.adcp_version ?? `major version ${major}`} is not supported; this agent serves 3.0 and 3.1`,
      'correctable',
      'adcp_version',
    )
  }
  if (input.adcp_major_version !== undefined && !m && input.adcp_major_version !== 3) {
    throw new DomainError(
      'VERSION_UNSUPPORTED',
      `adcp_major_version ${input.adcp_major_version} is not supported; this agent serves major version 3`,
      'correctable',
      'adcp_major_version',
    )
  }
  return m && m[1] === '3' && m[2] === '0' ? '3.0' : adcpVersion
}
