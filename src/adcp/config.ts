/**
 * AdCP agent settings, read from the environment once per process (docs/adcp.md lists them). Tests
 * override them per app context with setAdcpConfig, as curation does with its own settings.
 */
import type { AppContext } from '../platform/context.ts'
import { ConfigError } from '../platform/config.ts'

export interface AdcpConfig {
  /** How long activate_signal waits for the SSP connector to issue the Deal ID before answering. */
  activationWaitMs: number
  /** Domain named as the data provider of catalog signals (signal_id.data_provider_domain). */
  dataProviderDomain: string | null
  /** Estimate, in minutes, of a custom segment build (reported before the build has finished). */
  customBuildMinutes: number
}

const domainPattern = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const n = Number(raw)
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`)
  return n
}

export function loadAdcpConfig(env: NodeJS.ProcessEnv = process.env): AdcpConfig {
  const domain = env.ADCP_DATA_PROVIDER_DOMAIN?.trim().toLowerCase() || null
  if (domain !== null && !domainPattern.test(domain)) {
    throw new ConfigError(`ADCP_DATA_PROVIDER_DOMAIN must be a lower-case domain name, got "${env.ADCP_DATA_PROVIDER_DOMAIN}"`)
  }
  return {
    activationWaitMs: int(env, 'ADCP_ACTIVATION_WAIT_MS', 3000, 0, 60_000),
    dataProviderDomain: domain,
    customBuildMinutes: int(env, 'ADCP_CUSTOM_BUILD_MINUTES', 10, 0, 100_000),
  }
}

const perContext = new WeakMap<AppContext, AdcpConfig>()
let fromEnv: AdcpConfig | null = null

/** The settings of this app context: the environment's, unless a test set its own. */
export function adcpConfigFor(ctx: AppContext): AdcpConfig {
  const own = perContext.get(ctx)
  if (own) return own
  fromEnv ??= loadAdcpConfig()
  return fromEnv
}

/** Overrides settings for one app context (tests). */
export function setAdcpConfig(ctx: AppContext, overrides: Partial<AdcpConfig>): AdcpConfig {
  const cfg = { ...adcpConfigFor(ctx), ...overrides }
  perContext.set(ctx, cfg)
  return cfg
}

/**
 * The domain catalog signals are attributed to: ADCP_DATA_PROVIDER_DOMAIN, else the host of
 * PUBLIC_URL, else the host the request came to (without its port), else `localhost`.
 */
export function dataProviderDomain(cfg: AdcpConfig, publicUrl: string | null, requestHost: string | null): string {
  if (cfg.dataProviderDomain) return cfg.dataProviderDomain
  for (const candidate of [publicUrl ? safeHost(publicUrl) : null, requestHost?.replace(/:\d+$/, '').toLowerCase() ?? null]) {
    if (candidate && domainPattern.test(candidate)) return candidate
  }
  return 'localhost'
}

function safeHost(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase()
  } catch {
    return null
  }
}
