import { Type } from '@sinclair/typebox'
import type { Static } from '@sinclair/typebox'

import { Id, NullableTimestamp, Timestamp, nullable } from '../../platform/http/schemas.ts'
import { orNull } from '../segments/schemas.ts'

export const optimizationLimits = { expandUrls: 100, expandDomains: 100, blockUrls: 1000, blockDomains: 1000, blockKeywords: 200 } as const

const urls = (max: number) => Type.Array(Type.String({ maxLength: 2048 }), { maxItems: max })
const domains = (max: number) => Type.Array(Type.String({ maxLength: 253 }), { maxItems: max })

const ExpandBody = Type.Object(
  {
    urls: Type.Optional(urls(optimizationLimits.expandUrls)),
    domains: Type.Optional(domains(optimizationLimits.expandDomains)),
  },
  { description: 'seed content: similar pages are added (a domain stands for its home page)' },
)
const BlockBody = Type.Object(
  {
    urls: Type.Optional(urls(optimizationLimits.blockUrls)),
    domains: Type.Optional(domains(optimizationLimits.blockDomains)),
    keywords: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: optimizationLimits.blockKeywords })),
  },
  { description: 'URLs, domains (with subdomains) and keywords (full-text match) to remove' },
)

export const CreateOptimizationBody = Type.Object(
  {
    segment_id: Id,
    expand: Type.Optional(orNull(ExpandBody)),
    block: Type.Optional(orNull(BlockBody)),
  },
  { title: 'CreateOptimization' },
)
export type CreateOptimizationBody = Static<typeof CreateOptimizationBody>

export const Optimization = Type.Object(
  {
    id: Id,
    segment_id: Id,
    status: Type.Literal('accepted'),
    expand: nullable(Type.Object({ urls: Type.Array(Type.String()), domains: Type.Array(Type.String()) })),
    block: nullable(Type.Object({ urls: Type.Array(Type.String()), domains: Type.Array(Type.String()), keywords: Type.Array(Type.String()) })),
    estimated_propagation_hours: Type.Integer(),
    created_date: Timestamp,
    // Extra to the spec record: when the change reached the segment (null until then).
    applied_date: NullableTimestamp,
  },
  { title: 'Optimization' },
)
export type Optimization = Static<typeof Optimization>
