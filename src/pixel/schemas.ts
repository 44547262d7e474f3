import type { Static } from '@sinclair/typebox'
import { Type } from '@sinclair/typebox'

import { DateOnly, Id, NullableTimestamp, nullable, Timestamp } from '../platform/http/schemas.ts'

export const USE_CASES = ['campaign_optimization', 'campaign_reporting', 'publisher_bot_detection', 'publisher_agent_targeting', 'other'] as const
export type UseCase = (typeof USE_CASES)[number]
export const PUBLISHER_USE_CASES: readonly UseCase[] = ['publisher_bot_detection', 'publisher_agent_targeting']

// A string with an enum (not a union of literals): a number is a wrong type (400), an unknown
// string a broken rule (422), as docs/errors.md draws the line.
const UseCaseSchema = Type.Unsafe<UseCase>({ type: 'string', enum: [...USE_CASES], description: 'spec 2.4' })
const Name = Type.String({ minLength: 1, maxLength: 200 })
const Description = nullable(Type.String({ maxLength: 10_000 }))

export const PixelCampaign = Type.Object(
  {
    id: Id,
    name: Type.String(),
    use_case: UseCaseSchema,
    description: nullable(Type.String()),
    created_date: Timestamp,
    last_updated_date: Timestamp,
  },
  { title: 'PixelCampaign' },
)
export type PixelCampaign = Static<typeof PixelCampaign>

export const CreatePixelCampaignBody = Type.Object(
  { name: Name, use_case: UseCaseSchema, description: Type.Optional(Description) },
  { title: 'CreatePixelCampaignRequest' },
)
export type CreatePixelCampaignBody = Static<typeof CreatePixelCampaignBody>

export const UpdatePixelCampaignBody = Type.Object(
  { name: Type.Optional(Name), use_case: Type.Optional(UseCaseSchema), description: Type.Optional(Description) },
  { title: 'UpdatePixelCampaignRequest', description: 'at least one field; omitted fields stay unchanged' },
)
export type UpdatePixelCampaignBody = Static<typeof UpdatePixelCampaignBody>

export const PixelTag = Type.Object(
  {
    campaign_id: Id,
    base_url: Type.String(),
    image_tag: Type.String({ description: 'no-JS <img> pixel for the page template' }),
    javascript_tag: Type.String({ description: 'beacon snippet (sendBeacon), with the <img> as <noscript> fallback' }),
    impression_urls: Type.Record(Type.String(), Type.String(), {
      description: 'impression-tracker URL per DSP, carrying its macros unencoded',
    }),
    parameters: Type.Array(Type.Object({ name: Type.String(), meaning: Type.String() })),
  },
  { title: 'PixelTag' },
)
export type PixelTag = Static<typeof PixelTag>

/** Invalid lines named in a log-ingest answer (the count covers them all). */
export const MAX_INVALID_SHOWN = 20

export const LogIngestResult = Type.Object(
  {
    accepted: Type.Integer({ description: 'page loads recorded' }),
    invalid: Type.Integer({ description: 'lines that could not be parsed' }),
    invalid_lines: Type.Array(
      Type.Object({
        line: Type.Integer({ description: 'line number in the upload, from 1' }),
        reason: Type.String(),
      }),
      { description: `the first ${MAX_INVALID_SHOWN} invalid lines, by number, with why (an addition to the spec)` },
    ),
    duplicates: Type.Integer({ description: 'page loads already recorded by the pixel, the beacon or an earlier upload' }),
    skipped: Type.Integer({ description: 'well-formed lines that are not page loads (assets, non-GET, errors)' }),
  },
  { title: 'LogIngestResult' },
)
export type LogIngestResult = Static<typeof LogIngestResult>

export const DIMENSIONS = ['date', 'agent', 'agent_type', 'url'] as const
export type Dimension = (typeof DIMENSIONS)[number]

export const CreatePublisherReportBody = Type.Object(
  {
    campaign_id: Id,
    start_date: DateOnly,
    end_date: Type.String({ format: 'date', description: 'YYYY-MM-DD, inclusive' }),
    dimensions: Type.Optional(Type.Array(Type.Unsafe<Dimension>({ type: 'string', enum: [...DIMENSIONS] }), { maxItems: 4, uniqueItems: true })),
    hot_spot_min_loads: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1_000_000_000, default: 100, description: 'a URL needs this many loads to be a hot spot' }),
    ),
  },
  { title: 'CreatePublisherReportRequest' },
)
export type CreatePublisherReportBody = Static<typeof CreatePublisherReportBody>

const AgentType = Type.String({ description: 'search, llm_training, llm_retrieval or scraper' })
const Fraction = Type.Number({ minimum: 0, maximum: 1 })

export const ReportSummary = Type.Object({
  total_loads: Type.Integer(),
  human_loads: Type.Integer(),
  non_human_loads: Type.Integer(),
  non_human_pct: Fraction,
  llm_agent_pct: Fraction,
  search_bot_pct: Fraction,
  scraper_pct: Fraction,
  high_risk_bot_count: Type.Integer({ description: 'distinct agents with at least one high-risk load' }),
  high_risk_loads: Type.Integer(),
})
export const ReportAgent = Type.Object({ agent: Type.String(), type: AgentType, loads: Type.Integer(), pct_of_non_human: Fraction })
export const ReportHotSpot = Type.Object({ url: Type.String(), bot_pct: Fraction, loads: Type.Integer(), dominant_agent: Type.String() })
export const ReportDataRow = Type.Object(
  {
    date: Type.Optional(DateOnly),
    agent: Type.Optional(nullable(Type.String({ description: 'null for human loads' }))),
    agent_type: Type.Optional(Type.String({ description: 'human, search, llm_training, llm_retrieval or scraper' })),
    url: Type.Optional(Type.String()),
    loads: Type.Integer(),
  },
  { description: 'one row per combination of the requested dimensions that has loads' },
)
export const AiReferrals = Type.Object({
  loads: Type.Integer({ description: 'human loads referred by an AI assistant' }),
  pct_of_human: Fraction,
  sources: Type.Array(
    Type.Object({
      source: Type.String(),
      operator: Type.String(),
      loads: Type.Integer(),
      pct_of_ai_referrals: Fraction,
      crawls: Type.Integer({ description: 'loads by the operator’s LLM agents in the same period' }),
      crawl_to_refer: nullable(Type.Number({ description: 'crawls per referral; null without referrals' })),
    }),
  ),
  top_urls: Type.Array(Type.Object({ url: Type.String(), loads: Type.Integer() })),
})

export const PublisherReport = Type.Object(
  {
    id: Id,
    status: Type.Union([Type.Literal('pending'), Type.Literal('processing'), Type.Literal('complete'), Type.Literal('failed')]),
    campaign_id: Id,
    start_date: DateOnly,
    end_date: DateOnly,
    dimensions: Type.Array(Type.String()),
    hot_spot_min_loads: Type.Integer(),
    created_date: Timestamp,
    processed_date: NullableTimestamp,
    summary: nullable(ReportSummary),
    agents: nullable(Type.Array(ReportAgent)),
    hot_spots: nullable(Type.Array(ReportHotSpot)),
    data: nullable(Type.Array(ReportDataRow)),
    data_truncated: Type.Boolean({ description: 'data holds only the largest rows (see docs/pixel.md)' }),
    ai_referrals: nullable(AiReferrals),
    failure_reason: nullable(Type.String()),
  },
  { title: 'PublisherReport' },
)
export type PublisherReport = Static<typeof PublisherReport>
export type ReportResult = Pick<PublisherReport, 'summary' | 'agents' | 'hot_spots' | 'data' | 'data_truncated' | 'ai_referrals'>
