/**
 * The environment Curata reads: one TypeBox schema, one entry per variable, in the order the README
 * table lists them (the table is generated from this schema: `npm run docs:config`). Nothing else
 * in src/ reads the environment; config.ts turns the parsed variables into the typed Config.
 */

import type { Static, TSchema } from '@sinclair/typebox'
import { Type } from '@sinclair/typebox'

/** Shown in the README's default column where the default is not a plain value. */
const shown = (text: string) => ({ defaultText: text })
const int = (dflt: number, min: number, max: number, description: string, extra: object = {}) =>
  Type.Integer({ default: dflt, minimum: min, maximum: max, description, ...extra })
const num = (dflt: number, min: number, max: number, description: string) => Type.Number({ default: dflt, minimum: min, maximum: max, description })
const maxInt = Number.MAX_SAFE_INTEGER
const domain = '^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$'

export const EnvSchema = Type.Object({
  PORT: int(8080, 0, 65535, 'HTTP port (`0` picks a free one)'),
  HOST: Type.String({ default: '0.0.0.0', minLength: 1, description: 'address to listen on' }),
  METRICS_PORT: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 65535,
      description: 'where a worker-only process (`--role worker`) serves `/healthz`, `/readyz`, `/metrics`',
      ...shown('`PORT`'),
    }),
  ),
  DATA_DIR: Type.String({
    default: './data',
    minLength: 1,
    description: 'the embedded database, its lock and the control socket (used when `DATABASE_URL` is unset)',
  }),
  DATABASE_URL: Type.Optional(
    Type.String({ pattern: '^postgres(ql)?://', description: 'PostgreSQL 15+ connection string; when set, the embedded engine is not used' }),
  ),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    {
      default: 'info',
      description: '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`',
    },
  ),
  RATE_LIMIT_PER_MINUTE: int(120, 1, maxInt, 'requests per API key per minute'),
  PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$', description: 'the URL users reach the service at (used in generated tag code)' })),
  JOB_CONCURRENCY: int(4, 1, 1000, 'jobs one worker process runs at once'),
  JOB_POLL_MS: int(1000, 10, maxInt, 'how often an idle worker looks for jobs (it is also woken by NOTIFY)'),
  JOB_LEASE_MS: int(60_000, 100, maxInt, "a claimed job's lease; renewed while it runs, taken over when it lapses"),

  CURATION_MAX_SEGMENT_URLS: int(10_000, 1, 1_000_000, 'most URLs a segment holds'),
  CURATION_MIN_SCORE: num(
    0.02,
    0,
    1,
    'lowest calibrated relevance score (0–1, the estimated probability that a page fits; the default is about the chance of a page drawn at random) a URL needs to enter a segment',
  ),
  CURATION_CANDIDATE_LIMIT: int(12_000, 100, 1_000_000, 'most candidate pages scored per segment build'),
  CURATION_MIN_WORDS: int(120, 0, maxInt, 'thin-content floor: pages with fewer words of main text are excluded'),
  CURATION_MIN_ARTICLE_WORDS: int(
    50,
    0,
    maxInt,
    'thin-content floor for a dated article (og:type article with a publication date) that is not made-for-advertising itself; `CURATION_MIN_WORDS` applies when that is lower',
  ),
  CURATION_MFA_THRESHOLD: num(0.5, 0, 1, 'a domain whose made-for-advertising score reaches this is excluded'),
  CURATION_BOT_SHARE_THRESHOLD: num(0.5, 0, 1, 'a domain with this non-human share of pixel loads or more is excluded…'),
  CURATION_BOT_MIN_LOADS: int(1000, 0, maxInt, '…once it has at least this many loads'),
  CURATION_NEAR_DUPLICATE_BITS: int(3, 0, 3, 'near-duplicate pages: SimHash distance at or below this (0–3)'),
  CURATION_HOP_LINKS_PER_PAGE: int(20, 1, 500, 'links followed per page when crawling hops from example URLs'),
  CURATION_HOP_MAX_PAGES: int(200, 1, 10_000, 'pages fetched per crawl hop'),
  CURATION_EXPAND_MAX_URLS: int(1000, 1, 100_000, 'most new URLs one expand optimization adds'),
  SEMANTIC_VECTORS: Type.Union([Type.Literal('on'), Type.Literal('off')], {
    default: 'on',
    description:
      'sentence vectors of English pages (a background job) and of prompts, compared in ranking (docs/curation.md "Scores"); `off` spares the encoder\'s own process (~130 MB) and its CPU, and ranks as before',
  }),
  SEMANTIC_TIMEOUT_MS: int(120_000, 1000, maxInt, 'longest one request to the sentence encoder may take, loading its model included'),
  CATALOG_MIN_PAGES: int(50, 1, maxInt, 'indexed pages an IAB node needs to enter the public catalog'),
  CATALOG_MIN_CATEGORY_SCORE: num(0.2, 0, 1, 'category score at which a page counts for an IAB node'),
  CATALOG_SEASONAL_MAX_URLS: int(5000, 1, 1_000_000, 'most URLs kept per seasonal segment'),
  CATALOG_SEASONAL_LEAD_DAYS: int(14, 0, 365, 'seasonal segments are built this many days before their window opens'),
  CATALOG_REFRESH_MINUTES: int(360, 1, maxInt, 'how often the catalog job runs'),
  CATALOG_CPM_IAB_TIER1: num(1.0, 0, maxInt, 'CPM of a public IAB tier-1 segment'),
  CATALOG_CPM_IAB_TIER2: num(1.5, 0, maxInt, 'CPM of a public IAB tier-2 segment'),
  CATALOG_CPM_SEASONAL: num(2.5, 0, maxInt, 'CPM of a seasonal segment'),
  CATALOG_CPM_PERSONAL: num(3.0, 0, maxInt, "CPM of a client's own segments"),
  CATALOG_CURRENCY: Type.String({ default: 'USD', pattern: '^[A-Z]{3}$', description: 'ISO 4217 currency of the CPMs' }),

  SSP_CONNECTOR: Type.Literal('sandbox', {
    default: 'sandbox',
    description: 'the SSP connector that issues Deal IDs (`sandbox` is the one built in; see docs/activation.md)',
  }),
  SANDBOX_KNOWN_CONNECTION_SECONDS: int(5, 0, maxInt, 'sandbox latency for a deal on a DSP seat already used (production-like: `10800`)'),
  SANDBOX_NEW_CONNECTION_SECONDS: int(30, 0, maxInt, 'sandbox latency for the first deal on a DSP seat (production-like: `172800`)'),

  SCRAPE_FRESHNESS_HOURS: int(168, 0, maxInt, 'a page fetched within this window is served from the index instead of being fetched again'),
  SCRAPE_FAILED_RETRY_MINUTES: int(
    15,
    1,
    maxInt,
    'a page whose fetch failed (E002) is fetched again when next requested after this long, doubling with each failure in a row up to SCRAPE_FRESHNESS_HOURS',
  ),
  SCRAPE_MIN_REFETCH_SECONDS: int(60, 0, maxInt, 'the smallest max_age a job or search may ask for (force): no URL is refetched on request more often'),
  SCRAPE_HOST_DELAY_MS: int(1000, 0, maxInt, 'minimum spacing between two requests to one host (all worker processes together)'),
  SCRAPE_TIMEOUT_MS: int(30_000, 100, maxInt, 'time budget of one URL: all its redirect hops and retries together'),
  SCRAPE_ALLOW_PRIVATE: Type.Union([Type.Literal('true'), Type.Literal('false')], {
    default: 'false',
    description: '`true` (exactly; other values are refused) lets the scraper fetch private, loopback and link-local addresses (tests, self-hosting)',
  }),
  SCRAPE_USER_AGENT: Type.String({
    default: 'CurataBot/0.1 (+https://github.com/curata/curata/blob/main/docs/scraping.md)',
    minLength: 1,
    pattern: '^[\\x20-\\x7e]+$',
    description: "the scraper's user agent; name your service and a contact URL",
    ...shown('`CurataBot/0.1 (+…docs/scraping.md)`'),
  }),

  PIXEL_RAW_RETENTION_DAYS: int(30, 1, maxInt, 'raw pixel events older than this are deleted (reports read rollups, which are kept)'),
  PIXEL_FLUSH_MS: int(500, 1, maxInt, 'the collector writes its buffered hits at least this often…'),
  PIXEL_BATCH_MAX: int(10_000, 1, maxInt, '…or as soon as it holds this many'),
  PIXEL_BUFFER_MAX: int(200_000, 1, maxInt, 'hits held in memory while the database is slow or down; beyond it the collector answers 503'),
  PIXEL_IP_RATE: int(50, 0, maxInt, 'sustained hits per second per client address (`0` turns the bound off)'),
  PIXEL_IP_BURST: int(200, 1, maxInt, 'burst allowed per client address'),
  PIXEL_PROXY_HOPS: int(0, 0, 32, 'reverse proxies in front of the collector appending to `X-Forwarded-For` (`0`: the socket address counts)'),
  PIXEL_CAMPAIGN_REFRESH_MS: int(30_000, 100, maxInt, 'how often the collector re-reads the campaign ids it accepts (also woken by NOTIFY)'),
  PIXEL_CLICK_SECRET: Type.Optional(
    Type.String({
      minLength: 32,
      description: 'key signing click-tracking links (at least 32 characters); set it to sign alike across databases',
      ...shown('generated, kept in the database'),
      secret: true,
    }),
  ),

  ADCP_ACTIVATION_WAIT_MS: int(3000, 0, 60_000, 'how long `activate_signal` waits for the Deal ID before answering pending (0–60000)'),
  ADCP_DATA_PROVIDER_DOMAIN: Type.Optional(
    Type.String({ pattern: domain, description: 'domain named as the data provider of catalog signals', ...shown("host of `PUBLIC_URL`, else the request's") }),
  ),
  ADCP_CUSTOM_BUILD_MINUTES: int(10, 0, 100_000, 'build-time estimate reported for a custom segment'),
  WEBHOOK_SECRET_KEY: Type.Optional(
    Type.String({
      minLength: 32,
      description: 'key encrypting the stored webhook signing secrets (at least 32 characters); unset, one is generated and kept in the database',
      ...shown('generated, kept in the database'),
      secret: true,
    }),
  ),
  WEBHOOK_TIMEOUT_MS: int(10_000, 100, 120_000, 'a webhook delivery attempt fails without a response within this (ms)'),
  WEBHOOK_RETRY_BASE_MS: int(60_000, 1, maxInt, 'wait before the first retry of a failed delivery; doubles each attempt…'),
  WEBHOOK_RETRY_MAX_DELAY_MS: int(21_600_000, 1, maxInt, '…up to this wait between two attempts (6 h)'),
  WEBHOOK_MAX_ATTEMPTS: int(13, 1, 100, 'attempts per delivery (about 26 h with the defaults) before it fails and its subscription is marked failing'),
  CURATA_URL: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s]+$',
      description: 'the service the `curata` client commands call (scrape, segments, webhooks, …), instead of `--url`',
    }),
  ),
  CURATA_CONFIG: Type.Optional(
    Type.String({ minLength: 1, description: 'the file `curata login` writes and the client commands read', ...shown('`~/.config/curata/config.json`') }),
  ),
  CURATA_API_KEY: Type.Optional(
    Type.String({ minLength: 1, description: 'the API key `curata mcp` (stdio) and the client commands use, instead of `--api-key`', secret: true }),
  ),
})

export type Env = Static<typeof EnvSchema>
export type EnvName = keyof Env

/** Every variable's schema, by name. */
export const envVariables = EnvSchema.properties as Record<EnvName, TSchema>
