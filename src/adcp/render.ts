/** A signal as the tools answer it: the interface spec's fields (2.9) and AdCP 3.x's, side by side. */

import { getNode } from '../content/taxonomy/taxonomy.ts'
import type { AgentDeps } from './agent.ts'
import { dataProviderName } from './agent.ts'
import { dataProviderDomain } from './data-provider.ts'
import type { Deployment } from './deployments.ts'
import { pricingOptionId, wireId } from './signal-ids.ts'
import type { SignalCandidate } from './signals.ts'

export interface SignalIdentity {
  domain: string
  agentUrl: string
}

export function identity(deps: AgentDeps): SignalIdentity {
  return {
    domain: dataProviderDomain(deps.ctx.config.adcp.dataProviderDomain, deps.ctx.config.publicUrl, deps.requestHost),
    agentUrl: `${deps.baseUrl}/mcp`,
  }
}

export function renderSignal(c: SignalCandidate, deployments: Deployment[], who: SignalIdentity) {
  const id = wireId(c.id)
  const catalog = c.type === 'marketplace'
  const node = c.taxonomy_id === null ? undefined : getNode(c.taxonomy_id)
  return {
    signal_agent_segment_id: c.id,
    signal_id: catalog ? { source: 'catalog', data_provider_domain: who.domain, id } : { source: 'agent', agent_url: who.agentUrl, id },
    signal_ref: catalog
      ? { scope: 'data_provider', data_provider_domain: who.domain, signal_id: id }
      : { scope: 'signal_source', signal_source_url: who.agentUrl, signal_id: id },
    name: c.name,
    description: c.description,
    signal_type: c.type,
    value_type: 'binary',
    data_provider: dataProviderName,
    coverage_percentage: c.coverage_percentage,
    deployments,
    pricing: { cpm: c.cpm, currency: c.currency },
    pricing_options: [{ pricing_option_id: pricingOptionId(c.id), model: 'cpm', cpm: c.cpm, currency: c.currency }],
    ext: {
      curata: {
        taxonomy: node ? { id: node.id, name: node.name, path: [node.level1_name, node.level2_name, node.level3_name].filter(Boolean).join(' > ') } : null,
        page_count: c.page_count,
        segment_id: c.segment_id,
        ...(c.window ? { window: c.window } : {}),
      },
    },
  }
}
