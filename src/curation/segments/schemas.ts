import type { Static, TSchema } from '@sinclair/typebox'
import { Type } from '@sinclair/typebox'

import { Id, NullableTimestamp, nullable, StringEnum, Timestamp } from '../../platform/http/schemas.ts'
import { exclusionReasons } from '../quality/filters.ts'

/** Size limits of a segment request (docs/curation.md). */
export const limits = {
  exampleUrls: 100,
  blockTlds: 1000,
  blockKeywords: 200,
  keywordLength: 100,
  prompt: 2000,
  name: 200,
  levelName: 200,
} as const

export const TaxonomyId = Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'Curata taxonomy id (docs/taxonomy-and-classification.md)' })

const Problem = Type.Object(
  {
    code: Type.String({ description: 'E001–E008 for an example URL, otherwise a build problem code (docs/curation.md)' }),
    message: Type.String(),
    url: Type.Optional(Type.String()),
    index: Type.Optional(Type.Integer({ description: 'position of the URL in example_urls' })),
    reason: Type.Optional(Type.String()),
  },
  { title: 'BuildProblem' },
)

const NamedCategory = Type.Object({ taxonomy_id: Type.Integer(), name: Type.String(), weight: Type.Number() })

export const Interpretation = Type.Object(
  {
    language: Type.Optional(
      Type.String({ description: 'the language the prompt was read in: en, or de, fr, es, it, pt, nl (absent on segments created before 2026-11-28)' }),
    ),
    categories: Type.Array(NamedCategory, { description: "the prompt's topics, with their share of its topical intent (0..1), best first" }),
    terms: Type.Array(Type.String(), { description: 'content words searched in pages (a country the content is about among them, at half weight)' }),
    expansions: Type.Array(Type.String(), { description: 'related terms learned from the index, searched with less weight' }),
    audience: Type.Array(Type.String(), { description: 'audience and demographic words: content cannot target them' }),
    geo: Type.Array(Type.String(), { description: 'ISO 3166 codes of the countries the prompt names, offered to activation as geo targeting' }),
    blocks: Type.Object({ categories: Type.Array(NamedCategory), terms: Type.Array(Type.String()) }, { description: 'what the prompt excludes' }),
    ignored: Type.Array(Type.Object({ word: Type.String(), why: Type.String() }), { description: 'words that did not target content, and why' }),
  },
  { title: 'PromptInterpretation', description: 'extra to the spec record: how the prompt was read (docs/curation.md)' },
)

export const ReadPromptBody = Type.Object(
  { prompt: Type.String({ maxLength: limits.prompt, description: 'the prompt a segment request would send' }) },
  { title: 'ReadPrompt', additionalProperties: false },
)
export type ReadPromptBody = Static<typeof ReadPromptBody>

export const PromptReading = Type.Object(
  {
    prompt: Type.String({ description: 'the prompt, trimmed' }),
    topical: Type.Boolean({ description: 'false: the prompt names no content topic, and a segment request with it alone is a 422' }),
    message: nullable(Type.String({ description: 'when topical is false: the words found and why none can target content' })),
    interpretation: Interpretation,
  },
  { title: 'PromptReading', description: 'extra to the spec: how a segment request would read the prompt; nothing is stored' },
)
export type PromptReading = Static<typeof PromptReading>

export const SegmentRequest = Type.Object(
  {
    id: Id,
    client_id: nullable(Id),
    name: nullable(Type.String()),
    prompt: nullable(Type.String()),
    taxonomy_id: nullable(Type.Integer()),
    level1_name: nullable(Type.String()),
    level2_name: nullable(Type.String()),
    level3_name: nullable(Type.String()),
    example_urls: Type.Array(Type.String()),
    extra_hops_count: nullable(Type.Integer()),
    block_tlds: nullable(Type.Array(Type.String())),
    block_keywords: nullable(Type.Array(Type.String())),
    deleted: Type.Boolean(),
    status: Type.Union([Type.Literal('pending'), Type.Literal('processing'), Type.Literal('complete')], {
      description: 'extra to the spec record: pending → processing → complete; processed_date is set at complete',
    }),
    url_count: nullable(Type.Integer({ description: 'extra to the spec record: URLs in the segment, null until built' })),
    created_date: Timestamp,
    processed_date: NullableTimestamp,
    processing_errors: nullable(Type.Array(Problem)),
    processing_warnings: nullable(Type.Array(Problem)),
    last_updated_date: NullableTimestamp,
    interpretation: nullable(Interpretation),
  },
  { title: 'SegmentRequest' },
)
export type SegmentRequest = Static<typeof SegmentRequest>

/**
 * A request field that may also be null, written as `type: [T, "null"]` rather than a union, so a
 * value breaking a rule (too long, out of range) is a 422 and only a wrong type is a 400.
 */
export function orNull<T extends TSchema>(schema: T) {
  const { type, ...rest }: TSchema = schema
  return Type.Unsafe<Static<T> | null>({ ...rest, type: [type, 'null'] })
}
const opt = <T extends TSchema>(t: T) => Type.Optional(orNull(t))

export const CreateSegmentRequestBody = Type.Object(
  {
    name: opt(Type.String({ maxLength: limits.name })),
    prompt: opt(Type.String({ maxLength: limits.prompt, description: 'natural-language description of the audience' })),
    example_urls: opt(Type.Array(Type.String({ maxLength: 2048 }), { maxItems: limits.exampleUrls, description: 'seed URLs (http/https)' })),
    taxonomy_id: opt(TaxonomyId),
    level1_name: opt(Type.String({ maxLength: limits.levelName })),
    level2_name: opt(Type.String({ maxLength: limits.levelName })),
    level3_name: opt(Type.String({ maxLength: limits.levelName })),
    block_tlds: opt(Type.Array(Type.String({ maxLength: 253 }), { maxItems: limits.blockTlds, description: 'domains to exclude, with their subdomains' })),
    block_keywords: opt(
      Type.Array(Type.String({ maxLength: limits.keywordLength }), {
        maxItems: limits.blockKeywords,
        description: 'pages whose text contains one are excluded',
      }),
    ),
    extra_hops_count: opt(Type.Integer({ minimum: 0, maximum: 2, description: 'link hops crawled from the example URLs' })),
    client_id: Type.Optional(Type.Unknown({ description: 'ignored: the client is the one the API key belongs to' })),
  },
  { title: 'CreateSegmentRequest' },
)
export type CreateSegmentRequestBody = Static<typeof CreateSegmentRequestBody>

export const UpdateSegmentRequestBody = Type.Object(
  { name: orNull(Type.String({ maxLength: limits.name, description: 'the new name; null clears it' })) },
  { title: 'UpdateSegmentRequest', additionalProperties: false },
)
export type UpdateSegmentRequestBody = Static<typeof UpdateSegmentRequestBody>

export const ListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, default: 1000 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647, default: 0 })),
})

export const SegmentUrl = Type.Object(
  {
    rank: Type.Integer(),
    url: Type.String(),
    tld: Type.String(),
    score: Type.Number({ description: 'relevance 0..1' }),
    taxonomy_id: nullable(Type.Integer({ description: "the page's own most specific category" })),
    level1_name: nullable(Type.String()),
    level2_name: nullable(Type.String()),
    level3_name: nullable(Type.String()),
    source: Type.String({ description: 'prompt (found in the index), example, hop (crawled from an example) or expand (optimization)' }),
    reasons: Type.Object(
      {
        categories: Type.Optional(Type.Array(Type.Object({ taxonomy_id: Type.Integer(), name: Type.String(), score: Type.Number() }))),
        terms: Type.Optional(Type.Array(Type.String())),
        theme: Type.Optional(
          Type.Object(
            { name: Type.String(), similarity: Type.Number() },
            {
              description:
                "the theme (a class of the topic model's training corpora, e.g. sci.electronics (20 Newsgroups)) that prompt and page share most, with the similarity of their themes",
            },
          ),
        ),
        meaning: Type.Optional(
          Type.Object(
            { similarity: Type.Number() },
            {
              description: "the cosine of the prompt's and the page's sentence vectors (what each is about, read beyond its words), when it raised the score",
            },
          ),
        ),
        example: Type.Optional(Type.Object({ url: Type.String(), similarity: Type.Number() })),
        taxonomy: Type.Optional(Type.Object({ taxonomy_id: Type.Integer(), score: Type.Number() })),
      },
      {
        description:
          "why the URL is in the segment: the prompt's categories it is about (with the page's score), the prompt words it uses, the theme it shares with the prompt, how close their meanings are, the example URL it is most like",
      },
    ),
  },
  { title: 'SegmentUrl' },
)

export const SegmentUrlPage = Type.Object(
  {
    segment_id: Id,
    status: Type.String(),
    total: Type.Integer(),
    limit: Type.Integer(),
    offset: Type.Integer(),
    urls: Type.Array(SegmentUrl),
  },
  { title: 'SegmentUrlPage' },
)

export const ExclusionReason = StringEnum(exclusionReasons, { description: 'why the URL was left out' })

export const ExclusionsQuery = Type.Object({
  reason: Type.Optional(ExclusionReason),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, default: 1000 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647, default: 0 })),
})

export const SegmentExclusion = Type.Object(
  {
    url: Type.String(),
    tld: Type.String(),
    reason: Type.String(),
    score: nullable(Type.Number()),
    detail: Type.Record(Type.String(), Type.Unknown()),
  },
  { title: 'SegmentExclusion' },
)

export const ExclusionPage = Type.Object(
  {
    segment_id: Id,
    total: Type.Integer(),
    by_reason: Type.Record(Type.String(), Type.Integer()),
    limit: Type.Integer(),
    offset: Type.Integer(),
    exclusions: Type.Array(SegmentExclusion),
  },
  { title: 'SegmentExclusionPage' },
)
