/**
 * get_adcp_capabilities: marks the agent as AdCP 3.x and declares the signals protocol, the
 * releases it serves, idempotent activation, its specialisms (signal-marketplace: it resells its
 * public catalog; signal-owned: each client's own segments), wholesale feed versioning, RFC 9421
 * request signing, and the comply_test_controller scenarios (sandbox accounts only).
 */
import type { AgentDeps } from '../agent.ts'
import { negotiateVersion } from '../agent.ts'
import { identity } from '../render.ts'
import type { CapabilitiesInput } from '../schemas.ts'
import { requestSigningCapability } from '../signing/http.ts'

/** Releases served: a 3.0 pin is answered as 3.0 (the same fields), anything else as 3.1. */
export const supportedVersions = ['3.0', '3.1'] as const
/** How long an idempotency_key is remembered (the records are kept; 7 days is the most AdCP allows to declare). */
export const replayTtlSeconds = 7 * 24 * 3600

/** What the agent supports: the body of every capabilities answer, a refused version's included. */
export function declaration(deps: AgentDeps): Record<string, unknown> {
  return {
    adcp: {
      major_versions: [3],
      supported_versions: [...supportedVersions],
      idempotency: { supported: true, replay_ttl_seconds: replayTtlSeconds },
    },
    supported_protocols: ['signals'],
    specialisms: ['signal-marketplace', 'signal-owned'],
    signals: {
      data_provider_domains: [identity(deps).domain],
      discovery_modes: ['brief', 'wholesale'],
      features: { catalog_signals: true, custom_signals: true, deal_activation: true },
    },
    wholesale_feed_versioning: { supported: true },
    request_signing: requestSigningCapability(),
  }
}

export async function capabilities(deps: AgentDeps, input: CapabilitiesInput) {
  const version = negotiateVersion(input)
  await deps.principal()
  return {
    status: 'completed',
    adcp_version: version,
    message: 'Curata signals agent: contextual segments (IAB Content Taxonomy 3.1, seasonal, your own, custom-built) activated as Deal IDs on DSPs.',
    ...declaration(deps),
    ...(input.context ? { context: input.context } : {}),
  }
}
