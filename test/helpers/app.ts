import type { LightMyRequestResponse } from 'fastify'
import type { ServiceContext, ServiceOptions } from '../../src/context.ts'
import { closeServices, createServiceContext } from '../../src/context.ts'
import { apiFeatures, collectorFeatures } from '../../src/features.ts'
import type { Clock } from '../../src/platform/clock.ts'
import type { Config } from '../../src/platform/config.ts'
import { loadConfig } from '../../src/platform/config.ts'
import type { Db } from '../../src/platform/db/db.ts'
import type { App, Feature } from '../../src/platform/http/app.ts'
import { buildApp } from '../../src/platform/http/app.ts'
import { createKey } from '../../src/platform/keys/keys.ts'
import type { ScraperOptions } from '../../src/scraping/scraper.ts'
import { createScraper } from '../../src/scraping/scraper.ts'
import { ManualClock } from './clock.ts'

export interface TestApp {
  app: App
  ctx: ServiceContext
  /** Creates a client with a key and returns headers that authenticate as it. */
  client(name?: string): Promise<{ clientId: number; key: string; headers: Record<string, string> }>
  close(): Promise<void>
}

export type DeepPartial<T> = { [K in keyof T]?: T[K] extends object | null ? DeepPartial<T[K]> : T[K] }

/** `base` with `overrides` merged in, section by section (a value that is not a plain object replaces). */
export function merged<T extends object>(base: T, overrides: DeepPartial<T>): T {
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) }
  for (const [k, v] of Object.entries(overrides)) {
    const b = (base as Record<string, unknown>)[k]
    out[k] = v !== null && typeof v === 'object' && !Array.isArray(v) && b !== null && typeof b === 'object' ? merged(b as object, v as object) : v
  }
  return out as T
}

/** The configuration tests start from: the defaults, loopback reachable by the scraper, plus `overrides`. */
// The sentence encoder is off unless a test turns it on: each would start the encoder's process.
export function testConfig(overrides: DeepPartial<Config> = {}): Config {
  return merged(loadConfig({ SCRAPE_ALLOW_PRIVATE: 'true', SEMANTIC_VECTORS: 'off' }), overrides)
}

/** Changes settings of a running test context (read at use, as every feature reads them). */
export function configure(ctx: ServiceContext, overrides: DeepPartial<Config>): Config {
  ctx.config = merged(ctx.config, overrides)
  return ctx.config
}

/** A service context on `db` as start-up builds it, with a test clock and configuration. */
export function testContext(db: Db, opts: { clock?: Clock; config?: DeepPartial<Config>; services?: ServiceOptions } = {}): Promise<ServiceContext> {
  return createServiceContext(db, opts.clock ?? new ManualClock('2026-11-22T10:00:00Z'), testConfig(opts.config), opts.services)
}

/** The app with every feature; `features` adds test-only routes (e.g. one that throws). */
export async function createTestApp(
  db: Db,
  opts: { clock?: Clock; config?: DeepPartial<Config>; services?: ServiceOptions; features?: Feature<ServiceContext>[] } = {},
): Promise<TestApp> {
  const ctx = await testContext(db, opts)
  const app = await buildApp(ctx, { features: [...new Set([...apiFeatures(), ...collectorFeatures()]), ...(opts.features ?? [])] })
  await app.ready()
  let n = 0
  return {
    app,
    ctx,
    async client(name) {
      const k = await createKey(db, { name: name ?? `client-${++n}`, now: ctx.clock.now() })
      return { clientId: k.client_id, key: k.api_key, headers: { 'x-api-key': k.api_key } }
    },
    async close() {
      await app.close()
      await closeServices(ctx)
    },
  }
}

export function json<T = Record<string, unknown>>(res: LightMyRequestResponse): T {
  return JSON.parse(res.body) as T
}

/** Replaces the context's scraper with one built with `opts` (a loopback web, short timeouts). */
export async function useScraper(ctx: ServiceContext, opts: ScraperOptions): Promise<void> {
  await ctx.scraper.close()
  ctx.scraper = createScraper(ctx, opts)
}
