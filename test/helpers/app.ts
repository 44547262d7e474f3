import type { LightMyRequestResponse } from 'fastify'

import { apiFeatures, collectorFeatures } from '../../src/features.ts'
import { ManualClock } from '../../src/platform/clock.ts'
import type { Clock } from '../../src/platform/clock.ts'
import { loadConfig } from '../../src/platform/config.ts'
import type { Config } from '../../src/platform/config.ts'
import type { AppContext } from '../../src/platform/context.ts'
import { createContext } from '../../src/platform/context.ts'
import type { Db } from '../../src/platform/db/db.ts'
import type { App, Feature } from '../../src/platform/http/app.ts'
import { buildApp } from '../../src/platform/http/app.ts'
import { createKey } from '../../src/platform/keys/keys.ts'

export interface TestApp {
  app: App
  ctx: AppContext
  /** Creates a client with a key and returns headers that authenticate as it. */
  client(name?: string): Promise<{ clientId: number; key: string; headers: Record<string, string> }>
  close(): Promise<void>
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({ SCRAPE_ALLOW_PRIVATE: 'true' }), ...overrides }
}

/** The app with every feature; `features` adds test-only routes (e.g. one that throws). */
export async function createTestApp(
  db: Db,
  opts: { clock?: Clock; config?: Partial<Config>; features?: Feature[] } = {},
): Promise<TestApp> {
  const ctx = createContext(db, opts.clock ?? new ManualClock('2026-11-22T10:00:00Z'), testConfig(opts.config))
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
    close: () => app.close(),
  }
}

export function json<T = Record<string, unknown>>(res: LightMyRequestResponse): T {
  return JSON.parse(res.body) as T
}
