// Segment performance reports (spec 4.4; docs/reports.md): request and response shapes.

import type { Static } from '@sinclair/typebox'
import { Type } from '@sinclair/typebox'

import { DateOnly, Id, NullableTimestamp, nullable, Timestamp } from '../../platform/http/schemas.ts'

/** Report dimensions: the spec's `date` and `domain`, plus `deal_id` and `segment_id`. */
export const DIMENSIONS = ['date', 'domain', 'deal_id', 'segment_id'] as const
export type Dimension = (typeof DIMENSIONS)[number]

export const MAX_SEGMENTS = 100

export const CreateSegmentReportBody = Type.Object(
  {
    segment_ids: Type.Array(Id, { minItems: 1, maxItems: MAX_SEGMENTS, uniqueItems: true, description: 'your segments (1 to 100)' }),
    start_date: DateOnly,
    end_date: Type.String({ format: 'date', description: 'YYYY-MM-DD, inclusive' }),
    dimensions: Type.Optional(
      Type.Array(Type.Unsafe<Dimension>({ type: 'string', enum: [...DIMENSIONS] }), {
        maxItems: DIMENSIONS.length,
        uniqueItems: true,
        description: 'rows of `data`: any of date (UTC day), domain, deal_id, segment_id',
      }),
    ),
  },
  { title: 'CreateSegmentReportRequest' },
)
export type CreateSegmentReportBody = Static<typeof CreateSegmentReportBody>

const Count = Type.Integer({ minimum: 0 })

/** The metrics every section carries (docs/reports.md, "Metrics"). */
const metricFields = {
  impressions: Type.Integer({ minimum: 0, description: 'valid pixel impressions carrying the Deal ID (humans and bots)' }),
  non_human_impressions: Type.Integer({ minimum: 0, description: 'of which the agent classifier found non-human' }),
  clicks: Type.Integer({ minimum: 0, description: 'clicks through the signed click redirect carrying the Deal ID, declared bots excluded' }),
  non_human_clicks: Count,
  ctr: Type.Number({ minimum: 0, description: 'clicks / impressions (0 without impressions)' }),
  priced_impressions: Type.Integer({ minimum: 0, description: 'impressions with a readable price in the report currency' }),
  spend: Type.Number({ minimum: 0, description: 'sum of price / 1000 over priced impressions, in `currency`' }),
  ecpm: Type.Number({ minimum: 0, description: 'spend / priced_impressions × 1000 (0 without priced impressions)' }),
}
export const ReportMetrics = Type.Object(metricFields, { title: 'SegmentReportMetrics' })
export type ReportMetrics = Static<typeof ReportMetrics>

export const DomainRow = Type.Object({ domain: nullable(Type.String({ description: 'registrable domain; null: not known' })), ...metricFields })
export const DealRow = Type.Object({
  deal_id: Type.String(),
  activation_id: Id,
  dsp: Type.String(),
  segment_ids: Type.Array(Id, { description: 'the activation’s segments among the report’s' }),
  ...metricFields,
})
export const DataRow = Type.Object({
  date: Type.Optional(DateOnly),
  domain: Type.Optional(nullable(Type.String())),
  deal_id: Type.Optional(Type.String()),
  segment_id: Type.Optional(Id),
  ...metricFields,
})
export type DomainRow = Static<typeof DomainRow>
export type DealRow = Static<typeof DealRow>
export type DataRow = Static<typeof DataRow>

export const SegmentReport = Type.Object(
  {
    id: Id,
    status: Type.Union([Type.Literal('pending'), Type.Literal('processing'), Type.Literal('complete'), Type.Literal('failed')]),
    segment_ids: Type.Array(Id),
    start_date: DateOnly,
    end_date: DateOnly,
    dimensions: Type.Array(Type.String()),
    created_date: Timestamp,
    processed_date: NullableTimestamp,
    currency: nullable(Type.String({ description: 'ISO 4217 code of spend and eCPM; null when no price carried a currency' })),
    summary: nullable(ReportMetrics),
    deals: nullable(Type.Array(DealRow)),
    domains: nullable(Type.Array(DomainRow)),
    domains_truncated: Type.Boolean({ description: 'domains holds only the 1,000 with the most impressions' }),
    data: nullable(Type.Array(DataRow)),
    data_truncated: Type.Boolean({ description: 'data holds only the 50,000 rows with the most impressions' }),
    warnings: Type.Array(Type.String()),
    failure_reason: nullable(Type.String()),
  },
  { title: 'SegmentReport' },
)
export type SegmentReport = Static<typeof SegmentReport>
export type ReportResult = Pick<SegmentReport, 'currency' | 'summary' | 'deals' | 'domains' | 'domains_truncated' | 'data' | 'data_truncated' | 'warnings'>
