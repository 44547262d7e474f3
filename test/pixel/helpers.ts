import { request } from 'node:http'
import type { ServiceContext } from '../../src/context.ts'
import { collectorFeature } from '../../src/pixel/collector/feature.ts'
import { pixelFeature } from '../../src/pixel/routes.ts'
import type { Clock } from '../../src/platform/clock.ts'
import type { Config, PixelConfig } from '../../src/platform/config.ts'
import type { Db } from '../../src/platform/db/db.ts'
import type { App } from '../../src/platform/http/app.ts'
import { buildApp } from '../../src/platform/http/app.ts'
import { createKey } from '../../src/platform/keys/keys.ts'
import type { DeepPartial } from '../helpers/app.ts'
import { testContext } from '../helpers/app.ts'
import { ManualClock } from '../helpers/clock.ts'

export interface PixelApp {
  app: App
  ctx: ServiceContext
  /** http://127.0.0.1:port — the real server, so requests pass through the collector's raw handler. */
  url: string
  client(name?: string): Promise<{ clientId: number; headers: Record<string, string> }>
  /** Creates a pixel campaign over the API and returns its id. */
  campaign(headers: Record<string, string>, useCase?: string): Promise<number>
  close(): Promise<void>
}

/** The pixel API and the collector on a listening server (loopback, free port). */
export async function startPixelApp(db: Db, opts: { clock?: Clock; pixel?: Partial<PixelConfig>; config?: DeepPartial<Config> } = {}): Promise<PixelApp> {
  const ctx = await testContext(db, {
    clock: opts.clock ?? new ManualClock('2026-11-22T10:00:00Z'),
    config: { rateLimitPerMinute: 1_000_000, ...opts.config, pixel: { flushMs: 20, ipRatePerSec: 0, ...opts.pixel } },
  })
  const app = await buildApp(ctx, { features: [pixelFeature, collectorFeature] })
  const url = await app.listen({ port: 0, host: '127.0.0.1' })
  let n = 0
  return {
    app,
    ctx,
    url,
    async client(name) {
      const k = await createKey(db, { name: name ?? `pixel-client-${++n}`, now: ctx.clock.now() })
      return { clientId: k.client_id, headers: { 'x-api-key': k.api_key } }
    },
    async campaign(headers, useCase = 'publisher_bot_detection') {
      const res = await app.inject({ method: 'POST', url: '/v1/pixel/campaigns', headers, payload: { name: 'Property', use_case: useCase } })
      if (res.statusCode !== 201) throw new Error(`campaign: ${res.statusCode} ${res.body}`)
      return (JSON.parse(res.body) as { id: number }).id
    },
    close: () => app.close(),
  }
}

export interface RawResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
}

/** One request with exactly these headers (fetch would add its own Accept-Language and User-Agent). */
export function send(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: opts.method ?? 'GET', headers: opts.headers ?? {}, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
    })
    req.on('error', reject)
    req.end(opts.body)
  })
}

export interface StoredEvent {
  received_at: Date
  client_id: number | null
  campaign_id: number | null
  campaign_ref: string | null
  source: string
  invalid_reason: string | null
  flags: string[]
  domain: string | null
  page_url: string | null
  url_path: string
  referrer_host: string | null
  user_agent: string | null
  sec_ch_ua: string | null
  sec_ch_ua_mobile: string | null
  sec_ch_ua_platform: string | null
  accept_language: string | null
  macros: Record<string, string> | null
  agent: string | null
  agent_type: string
  high_risk: boolean
  ip_prefix: string | null
}

export async function events(db: Db, where = 'TRUE', params: unknown[] = []): Promise<StoredEvent[]> {
  // macros is JSON text (migrations/0020_pixel_macros_text.sql): read back as the object it holds.
  const { rows } = await db.query<StoredEvent>(
    `SELECT *, macros::jsonb AS macros FROM pixel_events WHERE ${where} ORDER BY received_at, url_path, user_agent`,
    params,
  )
  return rows
}
