/**
 * Configuration from the environment, read once at start. Every variable is listed in the README;
 * an invalid value stops the process with a message naming the variable.
 */
export type Role = 'api' | 'collector' | 'worker'
export const allRoles: readonly Role[] = ['api', 'collector', 'worker']

export interface Config {
  port: number
  host: string
  dataDir: string
  databaseUrl: string | null
  logLevel: string
  rateLimitPerMinute: number
  /** Base URL users reach the service at, used in generated tag code and docs links. */
  publicUrl: string | null
  jobs: { pollMs: number; leaseMs: number; concurrency: number }
  scrape: { allowPrivate: boolean; userAgent: string }
}

export class ConfigError extends Error {}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const n = Number(raw)
  if (!Number.isInteger(n) || n < min) throw new ConfigError(`${name} must be an integer ≥ ${min}, got "${raw}"`)
  return n
}

function bool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  if (/^(1|true|yes|on)$/i.test(raw)) return true
  if (/^(0|false|no|off)$/i.test(raw)) return false
  throw new ConfigError(`${name} must be true or false, got "${raw}"`)
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: int(env, 'PORT', 8080),
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
    scrape: {
      allowPrivate: bool(env, 'SCRAPE_ALLOW_PRIVATE', false),
      userAgent: env.SCRAPE_USER_AGENT || 'CurataBot/0.1 (+https://github.com/curata/curata/blob/main/docs/scraping.md)',
    },
  }
}
