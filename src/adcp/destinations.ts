/**
 * Where a caller wants signals deployed, read from whichever request shape it used, and resolved
 * against the DSP registry: an AdCP `platform` is matched generously against the registry's slugs,
 * aliases and names (GET /v1/curation/dsps); a platform it lacks is served as `any-dsp` (a Deal ID
 * works on any DSP that takes deal IDs). `account` is the buyer seat on that DSP.
 */

import type { Dsp } from '../activation/registry.ts'
import { anyDsp, dsps, isCountry, matchDsp, notADsp } from '../activation/registry.ts'
import { DomainError } from './results.ts'
import type { DeliverTo, Destination } from './schemas.ts'

export interface PlatformTarget {
  type: 'platform'
  /** As the caller wrote it (echoed back). */
  platform: string
  dsp: Dsp
  account: string | null
}
export interface AgentTarget {
  type: 'agent'
  agent_url: string
  account: string | null
}
export type Target = PlatformTarget | AgentTarget

interface DestinationFields {
  deliver_to?: DeliverTo | undefined
  destinations?: Destination[] | DeliverTo | undefined
  deployments?: Destination[] | undefined
  platform?: string | undefined
  account?: unknown
  countries?: string[] | undefined
}

/** The destinations and countries of a request, from any of its shapes; null when it names none. */
export function requestedDestinations(r: DestinationFields): { destinations: Destination[] | null; countries: string[] | null } {
  const list: Destination[] = []
  let named = false
  const fromDeliverTo = (d: DeliverTo) => {
    for (const arr of [d.deployments, d.destinations, d.accounts]) {
      if (arr) {
        named = true
        list.push(...arr)
      }
    }
    if (Array.isArray(d.platforms)) {
      named = true
      for (const p of d.platforms) {
        if (typeof p !== 'string') list.push(p)
        else if (!list.some((x) => x.platform === p)) list.push({ platform: p })
      }
    }
    return d.countries ?? null
  }
  let countries: string[] | null = r.countries ?? null
  if (r.deliver_to) countries ??= fromDeliverTo(r.deliver_to)
  if (Array.isArray(r.destinations)) {
    named = true
    list.push(...r.destinations)
  } else if (r.destinations) {
    // @adcp/client 4.x moves a whole deliver_to object into `destinations`.
    countries ??= fromDeliverTo(r.destinations)
  }
  if (r.deployments) {
    named = true
    list.push(...r.deployments)
  }
  if (r.platform) {
    named = true
    list.push({ platform: r.platform, ...(typeof r.account === 'string' ? { account: r.account } : {}) })
  }
  return { destinations: named ? dedupe(list) : null, countries }
}

function dedupe(list: Destination[]): Destination[] {
  const seen = new Set<string>()
  return list.filter((d) => {
    const k = JSON.stringify([d.type ?? null, d.platform?.toLowerCase() ?? null, d.agent_url ?? null, d.account ?? null])
    if (seen.has(k)) return false
    seen.add(k)
    return true
  })
}

const examples = dsps
  .slice(0, 4)
  .map((d) => d.slug)
  .join(', ')

/** Resolves platforms against the DSP registry; unknown ones are a readable error naming the field. */
export function resolveTargets(destinations: Destination[], opts: { field: string; requireAccount: boolean }): Target[] {
  return destinations.map((d, i): Target => {
    const field = `${opts.field}[${i}]`
    const type = d.type ?? (d.agent_url && !d.platform ? 'agent' : 'platform')
    const account = d.account ?? null
    if (type === 'agent') {
      if (!d.agent_url)
        throw new DomainError('VALIDATION_ERROR', `${field}.agent_url is required for an agent destination`, 'correctable', `${field}.agent_url`)
      return { type: 'agent', agent_url: d.agent_url, account }
    }
    if (!d.platform) throw new DomainError('VALIDATION_ERROR', `${field}.platform is required (a DSP such as ${examples})`, 'correctable', `${field}.platform`)
    const not = notADsp(d.platform)
    if (not) {
      throw new DomainError(
        'VALIDATION_ERROR',
        `${field}.platform "${d.platform}" (${not.name}) is not a DSP: ${not.reason}; name the DSP that buys through it`,
        'correctable',
        `${field}.platform`,
      )
    }
    // A platform the list lacks still gets a deal: a Deal ID works on any DSP that takes deal IDs.
    const dsp = matchDsp(d.platform) ?? anyDsp
    if (opts.requireAccount && !account) {
      throw new DomainError(
        'VALIDATION_ERROR',
        `${field}.account is required: the buyer seat on ${dsp.name} the deal is issued to`,
        'correctable',
        `${field}.account`,
      )
    }
    return { type: 'platform', platform: d.platform, dsp, account }
  })
}

/** ISO 3166-1 alpha-2, upper-cased; anything else is a readable error. */
export function checkCountries(countries: string[] | null, field: string): string[] | null {
  if (!countries) return null
  const out = countries.map((c) => c.toUpperCase())
  const bad = out.filter((c) => !isCountry(c))
  if (bad.length)
    throw new DomainError(
      'VALIDATION_ERROR',
      `${field}: ${bad.join(', ')} ${bad.length > 1 ? 'are not' : 'is not an'} ISO 3166-1 alpha-2 code${bad.length > 1 ? 's' : ''}`,
      'correctable',
      field,
    )
  return [...new Set(out)]
}
