import type { Static } from '@sinclair/typebox'
import { Type } from '@sinclair/typebox'

import { DateOnly, Id, NullableTimestamp, nullable, StringEnum, Timestamp } from '../platform/http/schemas.ts'

export const kpiMetrics = ['ctr', 'conversion', 'viewability', 'vcr', 'cpa', 'roas'] as const
export const formats = ['banner', 'video', 'native', 'ctv', 'audio'] as const
export const devices = ['desktop', 'mobile', 'tablet', 'ctv'] as const

const Kpi = Type.Object({
  metric: StringEnum(kpiMetrics),
  target: Type.Number(),
})
const Budget = Type.Object({
  amount: Type.Number({ exclusiveMinimum: 0, maximum: 1e12 }),
  currency: Type.String({ pattern: '^[A-Za-z]{3}$', description: 'ISO 4217' }),
})

export const CreateActivationBody = Type.Object(
  {
    segment_ids: Type.Array(Id, { minItems: 1, maxItems: 100, uniqueItems: true }),
    dsp: Type.String({ minLength: 1, maxLength: 100, description: 'a slug or alias from GET /v1/curation/dsps' }),
    buyer_seat: Type.String({ minLength: 1, maxLength: 200, pattern: '^[\\x21-\\x7e]( ?[\\x21-\\x7e])*$' }),
    start_date: Type.Optional(DateOnly),
    end_date: Type.Optional(DateOnly),
    geo: Type.Optional(Type.Array(Type.String({ pattern: '^[A-Za-z]{2}$' }), { minItems: 1, maxItems: 249, uniqueItems: true })),
    formats: Type.Optional(Type.Array(StringEnum(formats), { minItems: 1, uniqueItems: true })),
    devices: Type.Optional(Type.Array(StringEnum(devices), { minItems: 1, uniqueItems: true })),
    kpis: Type.Optional(Type.Array(Kpi, { maxItems: 6 })),
    budget: Type.Optional(Budget),
  },
  { title: 'CreateActivationRequest' },
)
export type CreateActivationBody = Static<typeof CreateActivationBody>

export const Activation = Type.Object(
  {
    id: Id,
    segment_ids: Type.Array(Id),
    dsp: Type.String(),
    buyer_seat: Type.String(),
    status: Type.Union([Type.Literal('pending'), Type.Literal('processing'), Type.Literal('complete'), Type.Literal('failed')]),
    deal_id: nullable(Type.String()),
    ttl_hours: nullable(Type.Integer()),
    start_date: nullable(DateOnly),
    end_date: nullable(DateOnly),
    geo: nullable(Type.Array(Type.String())),
    formats: nullable(Type.Array(Type.String())),
    devices: nullable(Type.Array(Type.String())),
    kpis: nullable(Type.Array(Kpi)),
    budget: nullable(Budget),
    created_date: Timestamp,
    processed_date: NullableTimestamp,
    // Beyond the spec's record (docs/activation.md):
    connector: Type.String({ description: "the SSP connector; 'sandbox' issues real-format Deal IDs without a real SSP" }),
    sandbox: Type.Boolean(),
    failure_reason: nullable(Type.String()),
    estimated_ready_date: NullableTimestamp,
    deal_state: nullable(Type.Union([Type.Literal('live'), Type.Literal('ended'), Type.Literal('shut_down')])),
    deal_state_reason: nullable(Type.String()),
    deal_last_used_date: NullableTimestamp,
    targeting: nullable(
      Type.Object({
        url_count: Type.Integer(),
        domain_count: Type.Integer(),
        excluded_domains: Type.Array(Type.Object({ domain: Type.String(), reason: Type.String() })),
      }),
    ),
  },
  { title: 'Activation' },
)
export type Activation = Static<typeof Activation>

export const DspEntry = Type.Object(
  {
    slug: Type.String(),
    name: Type.String(),
    aliases: Type.Array(Type.String()),
    deprecated: Type.Optional(Type.String({ description: 'set for a DSP being retired: still accepted; says why' })),
  },
  { title: 'Dsp' },
)
