// Pixel settings from the environment (listed in docs/pixel.md and the README). Read when the
// collector or the pixel jobs start; an invalid value stops the process naming the variable.
import { ConfigError } from '../platform/config.ts'

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
}

export const defaultPixelConfig: PixelConfig = {
  flushMs: 500,
  batchMax: 10_000,
  bufferMax: 200_000,
  ipRatePerSec: 50,
  ipBurst: 200,
  proxyHops: 0,
  rawRetentionDays: 30,
  campaignRefreshMs: 30_000,
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const n = Number(raw)
  if (!Number.isInteger(n) || n < min) throw new ConfigError(`${name} must be an integer ≥ ${min}, got "${raw}"`)
  return n
}

export function loadPixelConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<PixelConfig> = {}): PixelConfig {
  const d = defaultPixelConfig
  return {
    flushMs: int(env, 'PIXEL_FLUSH_MS', d.flushMs, 1),
    batchMax: int(env, 'PIXEL_BATCH_MAX', d.batchMax, 1),
    bufferMax: int(env, 'PIXEL_BUFFER_MAX', d.bufferMax, 1),
    ipRatePerSec: int(env, 'PIXEL_IP_RATE', d.ipRatePerSec, 0),
    ipBurst: int(env, 'PIXEL_IP_BURST', d.ipBurst, 1),
    proxyHops: int(env, 'PIXEL_PROXY_HOPS', d.proxyHops, 0),
    rawRetentionDays: int(env, 'PIXEL_RAW_RETENTION_DAYS', d.rawRetentionDays, 1),
    campaignRefreshMs: int(env, 'PIXEL_CAMPAIGN_REFRESH_MS', d.campaignRefreshMs, 100),
    ...overrides,
  }
}
