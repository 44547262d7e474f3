import type { Static } from '@sinclair/typebox'
import { Type } from '@sinclair/typebox'

import { Id, IdempotencyHeaders, NullableTimestamp, nullable, Paging, StringEnum, Timestamp } from '../platform/http/schemas.ts'

/** Per-URL codes of a scrape result (spec 7; docs/scraping.md says when each applies). */
export const scrapeErrorCodes = ['E001', 'E002', 'E003', 'E004', 'E005', 'E006', 'E007', 'E008'] as const
export type ScrapeErrorCode = (typeof scrapeErrorCodes)[number]

const str = nullable(Type.String())

export const ScrapeContent = Type.Object(
  {
    title: Type.String({ description: "the page's title; empty when it has none" }),
    full_text: Type.String({ description: 'readable main text, stripped of HTML' }),
    language: Type.String({ description: 'ISO 639-1; empty when it cannot be determined (E005)' }),
    word_count: Type.Integer({ minimum: 0 }),
  },
  { title: 'ScrapeContent' },
)

const DateSource = StringEnum(['json-ld', 'meta', 'markup', 'text', 'url'] as const)
const ChosenDate = Type.Object({
  source: DateSource,
  field: Type.String({ description: 'the key, attribute or rule that held the date, e.g. article:published_time' }),
  value: Type.String({ description: 'ISO 8601 as the page wrote it' }),
})

export const DateEvidence = Type.Object(
  {
    published: nullable(ChosenDate),
    last_updated: nullable(ChosenDate),
    rejected: Type.Array(
      Type.Object({
        kind: StringEnum(['published', 'modified'] as const),
        source: DateSource,
        field: Type.String(),
        value: Type.String(),
        reason: StringEnum(['after_fetch_time', 'before_web'] as const),
      }),
      { description: 'dates the page carries that failed a plausibility rule' },
    ),
    notes: Type.Array(Type.String(), { description: 'adjustments between pieces of evidence' }),
  },
  {
    title: 'DateEvidence',
    description: 'where published_date and last_updated_date came from (docs/extraction.md, Dates); null for pages indexed before it was recorded',
  },
)

export const ScrapeMetadata = Type.Object(
  {
    http_status: Type.Integer({ description: 'status of the final response from the origin' }),
    content_type: Type.String({ description: 'Content-Type of the final response; empty when it sent none' }),
    canonical_url: str,
    og_title: str,
    og_description: str,
    og_image: str,
    og_type: str,
    author: str,
    meta_description: str,
    robots: str,
    date_evidence: nullable(DateEvidence),
  },
  { title: 'ScrapeMetadata' },
)

export const AdsTxtEntry = Type.Object(
  {
    domain: Type.String(),
    account_id: Type.String(),
    relationship: StringEnum(['DIRECT', 'RESELLER'] as const),
    certification_id: str,
  },
  { title: 'AdsTxtEntry' },
)

export const AdsTxt = Type.Object(
  {
    status: StringEnum(['found', 'not_found', 'error'] as const),
    seller_count: Type.Integer({ minimum: 0 }),
    entries: Type.Array(AdsTxtEntry),
  },
  { title: 'AdsTxt', description: 'the ads.txt of the root domain, shared by every URL of the domain' },
)

export const ScrapeResult = Type.Object(
  {
    url: Type.String({ description: 'the normalized URL (for an invalid job entry: the text as submitted)' }),
    tld: Type.String({ description: 'registrable domain of the URL (public suffix + one label); empty for an invalid entry' }),
    errors: Type.Array(StringEnum(scrapeErrorCodes), { description: 'E001–E008 (docs/scraping.md); empty on success' }),
    published_date: NullableTimestamp,
    last_updated_date: NullableTimestamp,
    content: nullable(ScrapeContent),
    metadata: nullable(ScrapeMetadata),
    ads_txt: nullable(AdsTxt),
  },
  { title: 'ScrapeResult' },
)
export type ScrapeResult = Static<typeof ScrapeResult>
export type AdsTxt = Static<typeof AdsTxt>

/** Asking for younger copies than the index holds (docs/scraping.md, "Freshness"); an extension. */
export const RefetchOptions = {
  max_age: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 315_360_000,
      description: 'fetch again any page (and ads.txt) older than this many seconds; raised to SCRAPE_MIN_REFETCH_SECONDS (60 by default) if lower',
    }),
  ),
  force: Type.Optional(Type.Boolean({ description: 'fetch again unless fetched within SCRAPE_MIN_REFETCH_SECONDS: max_age at its minimum' })),
}

export const SearchBody = Type.Object(
  {
    url: Type.Optional(Type.String({ description: 'the URL to look up' })),
    u: Type.Optional(Type.String({ description: 'alias of url' })),
    ...RefetchOptions,
  },
  { title: 'ScrapeSearchRequest' },
)
export type SearchBody = Static<typeof SearchBody>

export const SearchQuery = Type.Object({
  url: Type.Optional(Type.String({ description: 'the URL to look up' })),
  u: Type.Optional(Type.String({ description: 'alias of url' })),
})

export const SearchQueued = Type.Object(
  {
    url: Type.String({ description: 'the normalized URL' }),
    tld: Type.String(),
    status: StringEnum(['queued'] as const),
    errors: Type.Array(StringEnum(['E001'] as const)),
  },
  { title: 'ScrapeSearchQueued', description: 'the URL is submitted and not fetched yet' },
)
export type SearchQueued = Static<typeof SearchQueued>

export const maxJobUrls = 1_000_000

export const CreateJobBody = Type.Object(
  {
    urls: Type.Array(Type.String(), {
      minItems: 1,
      maxItems: maxJobUrls,
      description: 'URLs to scrape; duplicates (after normalization) are scraped once',
    }),
    ...RefetchOptions,
  },
  { title: 'ScrapeJobRequest' },
)
export type CreateJobBody = Static<typeof CreateJobBody>

export const jobStatuses = ['pending', 'processing', 'complete', 'failed', 'cancelled'] as const
export type JobStatus = (typeof jobStatuses)[number]

export const ScrapeJob = Type.Object(
  {
    id: Id,
    status: StringEnum(jobStatuses),
    url_count: Type.Integer({ description: 'distinct entries after normalization (invalid ones included): the number of results' }),
    created_date: Timestamp,
    processed_date: NullableTimestamp,
    results: Type.Union([Type.Array(ScrapeResult), Type.Null()], { description: 'the requested page of results; only when complete' }),
    submitted_count: Type.Integer({ description: 'entries in the submitted urls array' }),
    invalid_url_count: Type.Integer({ description: 'distinct entries that are not scrapable URLs (results with E002)' }),
    progress: Type.Object(
      {
        done: Type.Integer({ description: 'entries already settled in the index' }),
        total: Type.Integer({ description: 'equals url_count' }),
      },
      { title: 'ScrapeJobProgress' },
    ),
    failure_reason: Type.Union([Type.String(), Type.Null()], { description: 'why the job failed; null otherwise' }),
    max_age: Type.Union([Type.Integer(), Type.Null()], {
      description: 'the max_age (seconds) the job fetches with, after force and the minimum; null for the default freshness',
    }),
  },
  { title: 'ScrapeJob' },
)
export type ScrapeJob = Static<typeof ScrapeJob>

export const InvalidUrl = Type.Object(
  {
    index: Type.Integer({ description: 'position in the submitted urls array' }),
    url: Type.String({ description: 'the entry as submitted (cut to 2048 characters)' }),
    reason: Type.String(),
  },
  { title: 'InvalidUrl' },
)
export type InvalidUrl = Static<typeof InvalidUrl>

/** Invalid entries listed in the creation response; all of them are results with E002 either way. */
export const maxListedInvalid = 1000

export const CreatedJob = Type.Composite(
  [
    ScrapeJob,
    Type.Object({
      invalid_urls: Type.Array(InvalidUrl, {
        description: `the first ${maxListedInvalid} invalid entries; invalid_url_count has them all`,
      }),
    }),
  ],
  { title: 'CreatedScrapeJob' },
)
export type CreatedJob = Static<typeof CreatedJob>

export const JobQuery = Paging
export const JobHeaders = IdempotencyHeaders
