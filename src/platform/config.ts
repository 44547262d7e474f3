/**
 * Configuration from the environment, read once at start. Every variable is listed in the README;
 * an invalid value stops the process with a message naming the variable.
 */
export type Role = 'api' | 'collector' | 'worker'
export const allRoles: readonly Role[] = ['api', 'collector', 'worker']

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
  logLevel: string
  rateLimitPerMinute: number
  /** Base URL users reach the service at, used in generated tag code and docs links. */
  publicUrl: string | null
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
    /** Minimum spacing between two requests to one host. */
    perHostDelayMs: number
    /** Time budget of one URL: all its redirect hops and retries together (docs/scraping-fetcher.md). */
    timeoutMs: number
  }
}

export class ConfigError extends Error {}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const n = Number(raw)
  if (!Number.isInteger(n) || n < min) throw new ConfigError(`${name} must be an integer ≥ ${min}, got "${raw}"`)
  return n
}

/** A safety switch: only the exact word `true` turns it on; `false` or unset leaves it off; anything else stops the start. */
function exactlyTrue(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name]
  if (raw === undefined || raw === '' || raw === 'false') return false
  if (raw === 'true') return true
  throw new ConfigError(`${name} must be exactly true or false, got "${raw}"`)
}

function sspConnector(env: NodeJS.ProcessEnv): 'sandbox' {
  const v = env.SSP_CONNECTOR || 'sandbox'
  if (v !== 'sandbox') throw new ConfigError(`SSP_CONNECTOR must be sandbox (the only connector built in), got "${v}"`)
  return v
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: int(env, 'PORT', 8080),
    metricsPort: env.METRICS_PORT ? int(env, 'METRICS_PORT', 0) : null,
    host: env.HOST || '0.0.0.0',
    dataDir: env.DATA_DIR || './data',
    databaseUrl: env.DATABASE_URL || null,
    logLevel: env.LOG_LEVEL || 'info',
    rateLimitPerMinute: int(env, 'RATE_LIMIT_PER_MINUTE', 120, 1),
    publicUrl: env.PUBLIC_URL || null,
    jobs: {
      pollMs: int(env, 'JOB_POLL_MS', 1000, 10),
      leaseMs: int(env, 'JOB_LEASE_MS', 60_000, 100),
      concurrency: int(env, 'JOB_CONCURRENCY', 4, 1),
    },
    activation: {
      connector: sspConnector(env),
      sandboxKnownConnectionSeconds: int(env, 'SANDBOX_KNOWN_CONNECTION_SECONDS', 5, 0),
      sandboxNewConnectionSeconds: int(env, 'SANDBOX_NEW_CONNECTION_SECONDS', 30, 0),
    },
    scrape: {
      allowPrivate: exactlyTrue(env, 'SCRAPE_ALLOW_PRIVATE'),
      userAgent: env.SCRAPE_USER_AGENT || 'CurataBot/0.1 (+https://github.com/curata/curata/blob/main/docs/scraping.md)',
      freshnessMs: int(env, 'SCRAPE_FRESHNESS_HOURS', 7 * 24, 0) * 3_600_000,
      perHostDelayMs: int(env, 'SCRAPE_HOST_DELAY_MS', 1000, 0),
      timeoutMs: int(env, 'SCRAPE_TIMEOUT_MS', 30_000, 100),
    },
  }
}
