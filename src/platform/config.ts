/**
 * The one configuration: the environment (config-env.ts, one schema for every variable) is parsed
 * once at start-up into a typed Config that goes into the app context. A bad value stops the start
 * with one line naming the variable and what it allows.
 */

import { homedir } from 'node:os'
import { join } from 'node:path'

import type { TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'

import type { Env, EnvName } from './config-env.ts'
import { EnvSchema, envVariables } from './config-env.ts'

export type Role = 'api' | 'collector' | 'worker'
export const allRoles: readonly Role[] = ['api', 'collector', 'worker']

export interface PixelConfig {
  /** The collector writes its buffer at least this often (ms)... */
  flushMs: number
  /** ...or as soon as it holds this many hits. */
  batchMax: number
  /** Hits held in memory while the database is slow or down; beyond it the collector answers 503. */
  bufferMax: number
  /** Per-client-address token bucket: sustained hits per second (0 turns the bound off) and burst. */
  ipRatePerSec: number
  ipBurst: number
  /** Reverse proxies in front of the collector that append to X-Forwarded-For (0: use the socket address). */
  proxyHops: number
  /** Raw events older than this are deleted; rollups (what reports read) are kept. */
  rawRetentionDays: number
  /** How often the collector re-reads the campaign ids it accepts (also woken by NOTIFY). */
  campaignRefreshMs: number
  /** Signs click-tracking links; null: a random secret generated once and kept in the database. */
  clickSecret: string | null
}

export interface CatalogPricing {
  /** CPM of a public IAB tier-1 segment. */
  iabTier1: number
  /** CPM of a public IAB tier-2 segment. */
  iabTier2: number
  seasonal: number
  /** CPM of the client's own (personalized) segments. */
  personal: number
  currency: string
}

export interface CurationConfig {
  /** Most URLs a segment holds. */
  maxSegmentUrls: number
  /** Lowest relevance score (0..1) a URL needs to enter a segment. */
  minScore: number
  /** Most candidate pages scored per build (taken from the index in order of category evidence). */
  candidateLimit: number
  /** Thin-content floor: pages with fewer words of main text are excluded. */
  minWords: number
  /**
   * The floor for a short news brief: a page its publisher marks as a dated article whose own MFA
   * score is under mfaThreshold (quality/filters.ts `thinContentFloor`); never above minWords.
   */
  minArticleWords: number
  /** A domain whose MFA score (mean page score, 0..1) reaches this is excluded as made-for-advertising. */
  mfaThreshold: number
  /** A domain with at least botMinLoads pixel loads and this non-human share or more is excluded. */
  botShareThreshold: number
  botMinLoads: number
  /** Near-duplicate: SimHash Hamming distance at or below this. */
  nearDuplicateBits: number
  /** Crawl hops from example URLs: links followed per page, and pages per hop. */
  hopLinksPerPage: number
  hopMaxPages: number
  /** Most new URLs one expand optimization adds. */
  expandMaxUrls: number
  catalog: {
    /** An IAB node enters the public catalog with at least this many indexed pages. */
    minPages: number
    /** A page counts for an IAB node when its category score is at least this. */
    minCategoryScore: number
    /** Seasonal segments: most URLs kept per segment. */
    seasonalMaxUrls: number
    /** Seasonal segments are built this many days before their window opens. */
    seasonalLeadDays: number
    /** How often the catalog job runs. */
    refreshMs: number
    pricing: CatalogPricing
  }
}

export interface AdcpConfig {
  /** How long activate_signal waits for the SSP connector to issue the Deal ID before answering. */
  activationWaitMs: number
  /** Domain named as the data provider of catalog signals (signal_id.data_provider_domain). */
  dataProviderDomain: string | null
  /** Estimate, in minutes, of a custom segment build (reported before the build has finished). */
  customBuildMinutes: number
}

export interface WebhookConfig {
  /** Encrypts the stored signing secrets; null: a random key generated once and kept in the database. */
  secretKey: string | null
  /** One delivery attempt's time budget (ms). */
  timeoutMs: number
  /** Backoff: retryBaseMs × 2^(attempt-1), at most retryMaxDelayMs, for maxAttempts attempts in all. */
  retryBaseMs: number
  retryMaxDelayMs: number
  maxAttempts: number
}

export interface Config {
  port: number
  /**
   * Where a worker-only process (`--role worker`) serves /healthz, /readyz and /metrics; null =
   * PORT. Processes with the api or collector role serve them on PORT with everything else.
   */
  metricsPort: number | null
  host: string
  dataDir: string
  databaseUrl: string | null
  logLevel: Env['LOG_LEVEL']
  rateLimitPerMinute: number
  /** Base URL users reach the service at, used in generated tag code and docs links. */
  publicUrl: string | null
  /** The key `curata mcp` and the client commands use when --api-key is not given. */
  apiKey: string | null
  /** The client commands: the service they call (CURATA_URL) and the file `curata login` writes. */
  client: { url: string | null; configFile: string }
  jobs: { pollMs: number; leaseMs: number; concurrency: number }
  activation: {
    /** SSP connector that issues Deal IDs; only the sandbox ships built in. */
    connector: 'sandbox'
    sandboxKnownConnectionSeconds: number
    sandboxNewConnectionSeconds: number
  }
  scrape: {
    allowPrivate: boolean
    userAgent: string
    /** A page fetched within this window is served from the index instead of being fetched again. */
    freshnessMs: number
    /** The first retry delay of a failed fetch (E002); it doubles with each failure in a row. */
    failedRetryMs: number
    /** The smallest max_age a request may ask for: `force` means this. */
    minRefetchMs: number
    /** Minimum spacing between two requests to one host. */
    perHostDelayMs: number
    /** Time budget of one URL: all its redirect hops and retries together (docs/scraping-fetcher.md). */
    timeoutMs: number
  }
  pixel: PixelConfig
  curation: CurationConfig
  /** The sentence encoder (src/content/semantic/): on or off, and how long one request may take. */
  semantic: { enabled: boolean; timeoutMs: number }
  adcp: AdcpConfig
  webhooks: WebhookConfig
}

export class ConfigError extends Error {}

/** What a variable allows, in words, from its schema. */
export function allowedValues(s: TSchema): string {
  if (s.anyOf) return `one of ${(s.anyOf as TSchema[]).map((o) => String(o.const)).join(', ')}`
  if (s.const !== undefined) return `${String(s.const)} (the only value supported)`
  const range = (kind: string) => {
    const max = s.maximum as number | undefined
    return max === undefined || max >= Number.MAX_SAFE_INTEGER ? `${kind} ≥ ${s.minimum}` : `${kind} between ${s.minimum} and ${max}`
  }
  if (s.type === 'integer') return range('an integer')
  if (s.type === 'number') return range('a number')
  if (s.minLength && s.minLength > 1) return `at least ${s.minLength} characters`
  if (s.pattern) return `a value matching ${s.pattern}`
  return 'a non-empty string'
}

function parseVariable(name: EnvName, raw: string): unknown {
  const s = envVariables[name]
  const value = s.type === 'integer' || s.type === 'number' ? (raw.trim() === '' ? Number.NaN : Number(raw)) : raw
  if (!Value.Check(s, value)) {
    const shownRaw = s.secret ? '[redacted]' : JSON.stringify(raw)
    throw new ConfigError(`${name} must be ${allowedValues(s)}, got ${shownRaw}`)
  }
  return value
}

/** Validates every variable of the schema found in `source` (unset or empty = the default). */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const env: Record<string, unknown> = {}
  for (const name of Object.keys(envVariables) as EnvName[]) {
    const raw = source[name]
    if (raw === undefined || raw === '') {
      const dflt = envVariables[name].default
      if (dflt !== undefined) env[name] = dflt
    } else {
      env[name] = parseVariable(name, raw)
    }
  }
  // Every value was checked on its own above; this re-check guards the schema and the loop agreeing.
  if (!Value.Check(EnvSchema, env)) throw new ConfigError('configuration does not match its schema')
  return env
}

/** The configuration of this process: `source` is process.env at start-up, or a test's own. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const e = parseEnv(source)
  return {
    port: e.PORT,
    metricsPort: e.METRICS_PORT ?? null,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL ?? null,
    logLevel: e.LOG_LEVEL,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    publicUrl: e.PUBLIC_URL ?? null,
    apiKey: e.CURATA_API_KEY?.trim() || null,
    client: { url: e.CURATA_URL ?? null, configFile: e.CURATA_CONFIG ?? join(homedir(), '.config', 'curata', 'config.json') },
    jobs: { pollMs: e.JOB_POLL_MS, leaseMs: e.JOB_LEASE_MS, concurrency: e.JOB_CONCURRENCY },
    activation: {
      connector: e.SSP_CONNECTOR,
      sandboxKnownConnectionSeconds: e.SANDBOX_KNOWN_CONNECTION_SECONDS,
      sandboxNewConnectionSeconds: e.SANDBOX_NEW_CONNECTION_SECONDS,
    },
    scrape: {
      allowPrivate: e.SCRAPE_ALLOW_PRIVATE === 'true',
      userAgent: e.SCRAPE_USER_AGENT,
      freshnessMs: e.SCRAPE_FRESHNESS_HOURS * 3_600_000,
      failedRetryMs: e.SCRAPE_FAILED_RETRY_MINUTES * 60_000,
      minRefetchMs: e.SCRAPE_MIN_REFETCH_SECONDS * 1000,
      perHostDelayMs: e.SCRAPE_HOST_DELAY_MS,
      timeoutMs: e.SCRAPE_TIMEOUT_MS,
    },
    pixel: {
      flushMs: e.PIXEL_FLUSH_MS,
      batchMax: e.PIXEL_BATCH_MAX,
      bufferMax: e.PIXEL_BUFFER_MAX,
      ipRatePerSec: e.PIXEL_IP_RATE,
      ipBurst: e.PIXEL_IP_BURST,
      proxyHops: e.PIXEL_PROXY_HOPS,
      rawRetentionDays: e.PIXEL_RAW_RETENTION_DAYS,
      campaignRefreshMs: e.PIXEL_CAMPAIGN_REFRESH_MS,
      clickSecret: e.PIXEL_CLICK_SECRET ?? null,
    },
    curation: {
      maxSegmentUrls: e.CURATION_MAX_SEGMENT_URLS,
      minScore: e.CURATION_MIN_SCORE,
      candidateLimit: e.CURATION_CANDIDATE_LIMIT,
      minWords: e.CURATION_MIN_WORDS,
      minArticleWords: e.CURATION_MIN_ARTICLE_WORDS,
      mfaThreshold: e.CURATION_MFA_THRESHOLD,
      botShareThreshold: e.CURATION_BOT_SHARE_THRESHOLD,
      botMinLoads: e.CURATION_BOT_MIN_LOADS,
      nearDuplicateBits: e.CURATION_NEAR_DUPLICATE_BITS,
      hopLinksPerPage: e.CURATION_HOP_LINKS_PER_PAGE,
      hopMaxPages: e.CURATION_HOP_MAX_PAGES,
      expandMaxUrls: e.CURATION_EXPAND_MAX_URLS,
      catalog: {
        minPages: e.CATALOG_MIN_PAGES,
        minCategoryScore: e.CATALOG_MIN_CATEGORY_SCORE,
        seasonalMaxUrls: e.CATALOG_SEASONAL_MAX_URLS,
        seasonalLeadDays: e.CATALOG_SEASONAL_LEAD_DAYS,
        refreshMs: e.CATALOG_REFRESH_MINUTES * 60_000,
        pricing: {
          iabTier1: e.CATALOG_CPM_IAB_TIER1,
          iabTier2: e.CATALOG_CPM_IAB_TIER2,
          seasonal: e.CATALOG_CPM_SEASONAL,
          personal: e.CATALOG_CPM_PERSONAL,
          currency: e.CATALOG_CURRENCY,
        },
      },
    },
    semantic: { enabled: e.SEMANTIC_VECTORS === 'on', timeoutMs: e.SEMANTIC_TIMEOUT_MS },
    adcp: {
      activationWaitMs: e.ADCP_ACTIVATION_WAIT_MS,
      dataProviderDomain: e.ADCP_DATA_PROVIDER_DOMAIN?.toLowerCase() ?? null,
      customBuildMinutes: e.ADCP_CUSTOM_BUILD_MINUTES,
    },
    webhooks: {
      secretKey: e.WEBHOOK_SECRET_KEY ?? null,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      retryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
      retryMaxDelayMs: e.WEBHOOK_RETRY_MAX_DELAY_MS,
      maxAttempts: e.WEBHOOK_MAX_ATTEMPTS,
    },
  }
}
