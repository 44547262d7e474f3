import type { Static } from '@sinclair/typebox'
import { Type } from '@sinclair/typebox'

import { Id, NullableTimestamp, nullable, StringEnum, Timestamp } from '../../platform/http/schemas.ts'
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
    outcome: StringEnum(['pending', 'applied', 'failed'] as const, {
      description:
        'extra to the spec record (whose status is always accepted): pending until the change is applied, applied (see applied_date and result), or failed (see failure)',
    }),
    result: nullable(
      Type.Object(
        {
          removed: Type.Integer({ description: 'URLs the block removed' }),
          added: Type.Integer({ description: 'URLs the expansion added' }),
          url_count: Type.Integer({ description: 'URLs in the segment afterwards' }),
          expand_seeds_indexed: Type.Optional(Type.Integer({ description: 'expand seeds found or scraped into the index' })),
          expand_seeds_unusable: Type.Optional(
            Type.Array(Type.Object({ url: Type.String(), errors: Type.Array(Type.String(), { description: 'E-codes' }) }), {
              description: 'expand seeds that could not be used, with their E-codes',
            }),
          ),
        },
        { description: 'what the applied change did (null until applied)' },
      ),
    ),
    failure: nullable(
      Type.Object(
        {
          code: Type.Literal('optimization_failed'),
          message: Type.String(),
          failed_date: NullableTimestamp,
        },
        { description: 'why the change was not applied (null unless outcome is failed); nothing of it reached the segment' },
      ),
    ),
  },
  { title: 'Optimization' },
)
export type Optimization = Static<typeof Optimization>
