/**
 * Response validation against AdCP JSON schemas with ajv:
 *  - the 3.0 bundles that ship inside @adcp/sdk 6.11.0 (dist/lib/schemas-data/3.0/bundled/…), the
 *    newest release either npm package carries;
 *  - the constraints AdCP 3.1 (3.1.19) adds on top, written out here from the 3.1 schema sources
 *    (version-envelope, protocol-envelope, get-signals-response, signal-ref, deployment,
 *    vendor-pricing-option, activate-signal-response): neither package ships the 3.1 schemas.
 */
import { Ajv } from 'ajv'
import type { ErrorObject, ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'

import { adcpSchema } from './helpers.ts'

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
    { type: 'object', properties: { scope: { const: 'data_provider' }, data_provider_domain: domain, signal_id: wireId }, required: ['scope', 'data_provider_domain', 'signal_id'] },
    { type: 'object', properties: { scope: { const: 'signal_source' }, signal_source_url: { type: 'string', format: 'uri' }, signal_id: wireId }, required: ['scope', 'signal_source_url', 'signal_id'] },
  ],
}
const signalId = {
  oneOf: [
    { type: 'object', properties: { source: { const: 'catalog' }, data_provider_domain: domain, id: wireId }, required: ['source', 'data_provider_domain', 'id'] },
    { type: 'object', properties: { source: { const: 'agent' }, agent_url: { type: 'string', format: 'uri' }, id: wireId }, required: ['source', 'agent_url', 'id'] },
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
  properties: { pricing_option_id: { type: 'string' }, model: { const: 'cpm' }, cpm: { type: 'number', minimum: 0 }, currency: { type: 'string', pattern: '^[A-Z]{3}$' } },
  required: ['pricing_option_id', 'model', 'cpm', 'currency'],
}
const error = { type: 'object', properties: { code: { type: 'string', minLength: 1, maxLength: 64 }, message: { type: 'string' } }, required: ['code', 'message'] }

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
    pagination: { type: 'object', properties: { has_more: { type: 'boolean' }, cursor: { type: 'string' }, total_count: { type: 'integer', minimum: 0 } }, required: ['has_more'], additionalProperties: false },
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
    { properties: { errors: { type: 'array', items: error, minItems: 1 } }, required: ['errors'], not: { anyOf: [{ required: ['deployments'] }, { required: ['sandbox'] }] } },
  ],
}

export type SchemaName = 'get-signals-response' | 'activate-signal-response' | 'get-signals-request' | 'activate-signal-request'

/** Problems of a payload against the AdCP 3.0 bundle and (responses) the 3.1 additions; [] when valid. */
export function schemaProblems(name: SchemaName, value: unknown): string[] {
  const checks: [string, ValidateFunction][] = [[`3.0 ${name}`, validator(`3.0/${name}`, () => adcpSchema('3.0', `bundled/signals/${name}.json`))]]
  if (name === 'get-signals-response') checks.push(['3.1 get-signals-response', validator('3.1/gs', () => getSignals31)])
  if (name === 'activate-signal-response') checks.push(['3.1 activate-signal-response', validator('3.1/as', () => activateSignal31)])
  return checks.flatMap(([label, v]) => (v(value) ? [] : (v.errors ?? []).map((e: ErrorObject) => `${label}: ${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`)))
}
