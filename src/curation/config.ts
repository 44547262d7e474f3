/**
 * Curation settings, read from the environment once per process (docs/curation.md lists them with
 * their defaults). Tests override them per app context with setCurationConfig.
 */
import type { AppContext } from '../platform/context.ts'
import { ConfigError } from '../platform/config.ts'

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

function num(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER, integer = false): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const n = Number(raw)
  if (!Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n))) {
    throw new ConfigError(`${name} must be ${integer ? 'an integer' : 'a number'} between ${min} and ${max}, got "${raw}"`)
  }
  return n
}

export function loadCurationConfig(env: NodeJS.ProcessEnv = process.env): CurationConfig {
  const int = (name: string, fallback: number, min: number, max?: number) => num(env, name, fallback, min, max, true)
  const currency = env.CATALOG_CURRENCY || 'USD'
  if (!/^[A-Z]{3}$/.test(currency)) throw new ConfigError(`CATALOG_CURRENCY must be an ISO 4217 code, got "${currency}"`)
  return {
    maxSegmentUrls: int('CURATION_MAX_SEGMENT_URLS', 10_000, 1, 1_000_000),
    minScore: num(env, 'CURATION_MIN_SCORE', 0.05, 0, 1),
    candidateLimit: int('CURATION_CANDIDATE_LIMIT', 12_000, 100, 1_000_000),
    minWords: int('CURATION_MIN_WORDS', 120, 0),
    mfaThreshold: num(env, 'CURATION_MFA_THRESHOLD', 0.5, 0, 1),
    botShareThreshold: num(env, 'CURATION_BOT_SHARE_THRESHOLD', 0.5, 0, 1),
    botMinLoads: int('CURATION_BOT_MIN_LOADS', 1000, 0),
    nearDuplicateBits: int('CURATION_NEAR_DUPLICATE_BITS', 3, 0, 3),
    hopLinksPerPage: int('CURATION_HOP_LINKS_PER_PAGE', 20, 1, 500),
    hopMaxPages: int('CURATION_HOP_MAX_PAGES', 200, 1, 10_000),
    expandMaxUrls: int('CURATION_EXPAND_MAX_URLS', 1000, 1, 100_000),
    catalog: {
      minPages: int('CATALOG_MIN_PAGES', 50, 1),
      minCategoryScore: num(env, 'CATALOG_MIN_CATEGORY_SCORE', 0.2, 0, 1),
      seasonalMaxUrls: int('CATALOG_SEASONAL_MAX_URLS', 5000, 1, 1_000_000),
      seasonalLeadDays: int('CATALOG_SEASONAL_LEAD_DAYS', 14, 0, 365),
      refreshMs: int('CATALOG_REFRESH_MINUTES', 360, 1) * 60_000,
      pricing: {
        iabTier1: num(env, 'CATALOG_CPM_IAB_TIER1', 1.0, 0),
        iabTier2: num(env, 'CATALOG_CPM_IAB_TIER2', 1.5, 0),
        seasonal: num(env, 'CATALOG_CPM_SEASONAL', 2.5, 0),
        personal: num(env, 'CATALOG_CPM_PERSONAL', 3.0, 0),
        currency,
      },
    },
  }
}

const perContext = new WeakMap<AppContext, CurationConfig>()
let fromEnv: CurationConfig | null = null

/** The settings of this app context: the environment's, unless a test set its own. */
export function curationConfigFor(ctx: AppContext): CurationConfig {
  const own = perContext.get(ctx)
  if (own) return own
  fromEnv ??= loadCurationConfig()
  return fromEnv
}

type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] }

/** Overrides settings for one app context (tests, benchmarks). */
export function setCurationConfig(ctx: AppContext, overrides: DeepPartial<CurationConfig>): CurationConfig {
  const base = curationConfigFor(ctx)
  const cfg: CurationConfig = {
    ...base,
    ...overrides,
    catalog: {
      ...base.catalog,
      ...overrides.catalog,
      pricing: { ...base.catalog.pricing, ...overrides.catalog?.pricing },
    },
  } as CurationConfig
  perContext.set(ctx, cfg)
  return cfg
}
