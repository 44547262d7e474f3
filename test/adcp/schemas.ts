/**
 * Response validation against AdCP JSON schemas with ajv:
 *  - the 3.0 bundles that ship inside @adcp/sdk 6.11.0 (dist/lib/schemas-data/3.0/bundled/…), the
 *    newest release either npm package carries;
 *  - the constraints AdCP 3.1 (3.1.19) adds on top, written out here from the 3.1 schema sources
 *    (version-envelope, protocol-envelope, get-signals-response, signal-ref, deployment,
 *    vendor-pricing-option, activate-signal-response, and for requests get-signals-request,
 *    activate-signal-request, destination): neither package ships the 3.1 schemas.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { ErrorObject, ValidateFunction } from 'ajv'
import { Ajv } from 'ajv'
import addFormatsModule from 'ajv-formats'

import { adcpSchema, call } from './helpers.ts'

// ajv-formats ships CommonJS; its default export arrives wrapped under ESM interop.
type AddFormats = (ajv: Ajv) => Ajv
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as unknown as AddFormats
const ajv = new Ajv({ strict: false, allErrors: true })
addFormats(ajv)

const compiled = new Map<string, ValidateFunction>()
function validator(key: string, schema: () => Record<string, unknown>): ValidateFunction {
  let v = compiled.get(key)
  if (!v) {
    v = ajv.compile(schema())
    compiled.set(key, v)
  }
  return v
}

const status = { type: 'string', enum: ['submitted', 'working', 'input-required', 'completed', 'canceled', 'failed', 'rejected', 'auth-required', 'unknown'] }
const adcpVersion = { type: 'string', pattern: '^\\d+\\.\\d+(-[a-zA-Z0-9.-]+)?$' }
const wireId = { type: 'string', pattern: '^[a-zA-Z0-9_-]+$' }
const domain = { type: 'string', pattern: '^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$' }

const signalRef = {
  oneOf: [
    {
      type: 'object',
      properties: { scope: { const: 'data_provider' }, data_provider_domain: domain, signal_id: wireId },
      required: ['scope', 'data_provider_domain', 'signal_id'],
    },
    {
      type: 'object',
      properties: { scope: { const: 'signal_source' }, signal_source_url: { type: 'string', format: 'uri' }, signal_id: wireId },
      required: ['scope', 'signal_source_url', 'signal_id'],
    },
  ],
}
const signalId = {
  oneOf: [
    {
      type: 'object',
      properties: { source: { const: 'catalog' }, data_provider_domain: domain, id: wireId },
      required: ['source', 'data_provider_domain', 'id'],
    },
    {
      type: 'object',
      properties: { source: { const: 'agent' }, agent_url: { type: 'string', format: 'uri' }, id: wireId },
      required: ['source', 'agent_url', 'id'],
    },
  ],
}
const activationKey = {
  oneOf: [
    { type: 'object', properties: { type: { const: 'segment_id' }, segment_id: { type: 'string' } }, required: ['type', 'segment_id'] },
    { type: 'object', properties: { type: { const: 'key_value' }, key: { type: 'string' }, value: { type: 'string' } }, required: ['type', 'key', 'value'] },
  ],
}
const deployment = {
  type: 'object',
  properties: {
    account: { type: 'string' },
    is_live: { type: 'boolean' },
    activation_key: activationKey,
    estimated_activation_duration_minutes: { type: 'number', minimum: 0 },
    deployed_at: { type: 'string', format: 'date-time' },
  },
  oneOf: [
    { properties: { type: { const: 'platform' }, platform: { type: 'string' } }, required: ['type', 'platform', 'is_live'] },
    { properties: { type: { const: 'agent' }, agent_url: { type: 'string', format: 'uri' } }, required: ['type', 'agent_url', 'is_live'] },
  ],
}
const pricingOption = {
  type: 'object',
  properties: {
    pricing_option_id: { type: 'string' },
    model: { const: 'cpm' },
    cpm: { type: 'number', minimum: 0 },
    currency: { type: 'string', pattern: '^[A-Z]{3}$' },
  },
  required: ['pricing_option_id', 'model', 'cpm', 'currency'],
}
const error = {
  type: 'object',
  properties: { code: { type: 'string', minLength: 1, maxLength: 64 }, message: { type: 'string' } },
  required: ['code', 'message'],
}

const getSignals31 = {
  type: 'object',
  properties: {
    status,
    adcp_version: adcpVersion,
    message: { type: 'string' },
    context_id: { type: 'string' },
    context: { type: 'object' },
    cache_scope: { enum: ['public', 'account'] },
    signals: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          signal_id: signalId,
          signal_ref: signalRef,
          signal_agent_segment_id: { type: 'string' },
          name: { type: 'string' },
          description: { type: 'string' },
          signal_type: { enum: ['marketplace', 'custom', 'owned'] },
          data_provider: { type: 'string' },
          coverage_percentage: { type: 'number', minimum: 0, maximum: 100 },
          deployments: { type: 'array', items: deployment },
          pricing_options: { type: 'array', items: pricingOption, minItems: 1 },
        },
        required: ['signal_agent_segment_id', 'name', 'description', 'signal_type', 'deployments'],
        anyOf: [{ required: ['signal_ref'] }, { required: ['signal_id'] }],
      },
    },
    errors: { type: 'array', items: error },
    pagination: {
      type: 'object',
      properties: { has_more: { type: 'boolean' }, cursor: { type: 'string' }, total_count: { type: 'integer', minimum: 0 } },
      required: ['has_more'],
      additionalProperties: false,
    },
  },
  required: ['status'],
  if: { properties: { status: { const: 'failed' } }, required: ['status'] },
  then: { required: ['errors'] },
  else: { required: ['signals', 'cache_scope'] },
}

const activateSignal31 = {
  type: 'object',
  properties: { status, adcp_version: adcpVersion, context: { type: 'object' } },
  required: ['status'],
  oneOf: [
    { properties: { deployments: { type: 'array', items: deployment } }, required: ['deployments'], not: { required: ['errors'] } },
    {
      properties: { errors: { type: 'array', items: error, minItems: 1 } },
      required: ['errors'],
      not: { anyOf: [{ required: ['deployments'] }, { required: ['sandbox'] }] },
    },
  ],
}

// Requests, as AdCP 3.1 (3.1.19) defines them (get-signals-request, activate-signal-request,
// core/destination): what a 3.x client sends. The spec's own form (deliver_to) is outside them; the
// agent accepts it too, leniently, and tests of that form do not run these checks.
const destination = {
  type: 'object',
  properties: { account: { type: 'string' } },
  oneOf: [
    { properties: { type: { const: 'platform' }, platform: { type: 'string', minLength: 1 } }, required: ['type', 'platform'] },
    { properties: { type: { const: 'agent' }, agent_url: { type: 'string', format: 'uri' } }, required: ['type', 'agent_url'] },
  ],
}
const country = { type: 'string', pattern: '^[A-Z]{2}$' }
const discovery = ['signal_spec', 'signal_refs', 'signal_ids'] as const
const getSignalsRequest31 = {
  type: 'object',
  properties: {
    adcp_version: adcpVersion,
    discovery_mode: { enum: ['brief', 'wholesale'] },
    signal_spec: { type: 'string', minLength: 1 },
    signal_refs: { type: 'array', items: signalRef, minItems: 1 },
    signal_ids: { type: 'array', items: signalId, minItems: 1 },
    destinations: { type: 'array', items: destination, minItems: 1 },
    countries: { type: 'array', items: country },
    filters: {
      type: 'object',
      properties: {
        catalog_types: { type: 'array', items: { enum: ['marketplace', 'custom', 'owned'] } },
        data_providers: { type: 'array', items: { type: 'string' } },
        max_cpm: { type: 'number', minimum: 0 },
        min_coverage_percentage: { type: 'number', minimum: 0, maximum: 100 },
      },
    },
    max_results: { type: 'integer', minimum: 1 },
    pagination: { type: 'object', properties: { max_results: { type: 'integer', minimum: 1, maximum: 100 }, cursor: { type: 'string' } } },
    context: { type: 'object' },
  },
  // Brief mode (the default) needs something to search by; wholesale mode forbids all three.
  if: { properties: { discovery_mode: { const: 'wholesale' } }, required: ['discovery_mode'] },
  then: { not: { anyOf: discovery.map((k) => ({ required: [k] })) } },
  else: { anyOf: discovery.map((k) => ({ required: [k] })) },
}
const activateSignalRequest31 = {
  type: 'object',
  properties: {
    adcp_version: adcpVersion,
    signal_agent_segment_id: { type: 'string', minLength: 1 },
    destinations: { type: 'array', items: destination, minItems: 1 },
    idempotency_key: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{16,255}$' },
    action: { enum: ['activate', 'deactivate'] },
    pricing_option_id: { type: 'string' },
    context: { type: 'object' },
  },
  required: ['signal_agent_segment_id', 'destinations', 'idempotency_key'],
}

export type SchemaName =
  | 'get-signals-response'
  | 'activate-signal-response'
  | 'get-signals-request'
  | 'activate-signal-request'
  | 'get-adcp-capabilities-response'

const bundlePath: Record<SchemaName, string> = {
  'get-signals-response': 'bundled/signals/get-signals-response.json',
  'activate-signal-response': 'bundled/signals/activate-signal-response.json',
  'get-signals-request': 'bundled/signals/get-signals-request.json',
  'activate-signal-request': 'bundled/signals/activate-signal-request.json',
  'get-adcp-capabilities-response': 'bundled/protocol/get-adcp-capabilities-response.json',
}
const additions31: Partial<Record<SchemaName, Record<string, unknown>>> = {
  'get-signals-response': getSignals31,
  'activate-signal-response': activateSignal31,
  'get-signals-request': getSignalsRequest31,
  'activate-signal-request': activateSignalRequest31,
}

/**
 * Problems of a payload against the AdCP 3.0 bundle and the 3.1 rules written out above; [] when
 * valid. `versions` narrows it, e.g. to 3.1 alone for a request using what 3.0 lacks (wholesale mode).
 */
export function schemaProblems(name: SchemaName, value: unknown, versions: readonly ('3.0' | '3.1')[] = ['3.0', '3.1']): string[] {
  const checks: [string, ValidateFunction][] = []
  if (versions.includes('3.0')) checks.push([`3.0 ${name}`, validator(`3.0/${name}`, () => adcpSchema('3.0', bundlePath[name]))])
  const extra = additions31[name]
  if (extra && versions.includes('3.1')) checks.push([`3.1 ${name}`, validator(`3.1/${name}`, () => extra)])
  return checks.flatMap(([label, v]) =>
    v(value) ? [] : (v.errors ?? []).map((e: ErrorObject) => `${label}: ${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`),
  )
}

/** Calls a tool with a request that must be valid AdCP 3.1 (checked first, so a test cannot drift from the spec's form). */
export async function callAdcp31<T = Record<string, unknown>>(
  client: Client,
  name: 'get_signals' | 'activate_signal',
  args: Record<string, unknown>,
): Promise<T> {
  const problems = schemaProblems(name === 'get_signals' ? 'get-signals-request' : 'activate-signal-request', args, ['3.1'])
  if (problems.length) throw new Error(`the ${name} request is not valid AdCP 3.1: ${problems.join('; ')}`)
  return call<T>(client, name, args)
}
