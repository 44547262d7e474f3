/**
 * The AdCP agent on a listening test app (loopback, free port) with a worker for the jobs it relies
 * on (segment builds, deal issuance), a small real index, and MCP clients talking to it.
 */
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'

import { activationJobs } from '../../src/activation/jobs.ts'
import { allNodes } from '../../src/content/taxonomy/taxonomy.ts'
import { buildJob } from '../../src/curation/builder/build-segment.ts'
import { refreshCatalog } from '../../src/curation/catalog/refresh.ts'
import type { AdcpConfig, Config } from '../../src/platform/config.ts'
import type { Db } from '../../src/platform/db/db.ts'
import type { Worker } from '../../src/platform/jobs/worker.ts'
import { createWorker } from '../../src/platform/jobs/worker.ts'
import { deliverJob } from '../../src/platform/webhooks/deliver.ts'
import { indexTopic } from '../curation/fixtures.ts'
import type { DeepPartial, TestApp } from '../helpers/app.ts'
import { configure, createTestApp } from '../helpers/app.ts'
import { ManualClock } from '../helpers/clock.ts'
import { waitFor } from '../helpers/wait.ts'

export interface Agent extends TestApp {
  url: string
  mcpUrl: string
  clock: ManualClock
  worker: Worker
}

export async function startAgent(db: Db, opts: { latencySeconds?: number; adcp?: Partial<AdcpConfig>; config?: DeepPartial<Config> } = {}): Promise<Agent> {
  const clock = new ManualClock('2026-11-22T10:00:00Z')
  const seconds = opts.latencySeconds ?? 0
  const t = await createTestApp(db, {
    clock,
    config: {
      rateLimitPerMinute: 100_000,
      activation: { connector: 'sandbox', sandboxKnownConnectionSeconds: seconds, sandboxNewConnectionSeconds: seconds },
      ...opts.config,
    },
  })
  configure(t.ctx, { curation: { minWords: 60, catalog: { minPages: 3 } }, adcp: { activationWaitMs: 5000, ...opts.adcp } })
  const worker = createWorker({
    db,
    clock,
    handlers: [...activationJobs(t.ctx).filter((h) => !h.everyMs), buildJob(t.ctx), deliverJob(t.ctx)],
    pollMs: 20,
    graceMs: 500,
  })
  await worker.start()
  const url = await t.app.listen({ port: 0, host: '127.0.0.1' })
  return {
    ...t,
    url,
    mcpUrl: `${url}/mcp`,
    clock,
    worker,
    async close() {
      await worker.stop()
      await t.close()
    },
  }
}

/** Sports, finance and cooking pages in the index, and the catalog built from them. */
export async function seedIndex(agent: Agent): Promise<void> {
  await indexTopic(agent.ctx.db, 'sports', [
    'https://sports.example.com/a',
    'https://sports.example.com/b',
    'https://football.example.org/c',
    'https://football.example.org/d',
  ])
  await indexTopic(
    agent.ctx.db,
    'finance',
    ['https://money.example.com/a', 'https://money.example.com/b', 'https://markets.example.net/c', 'https://markets.example.net/d'],
    20,
  )
  await indexTopic(
    agent.ctx.db,
    'cooking',
    ['https://food.example.com/a', 'https://food.example.com/b', 'https://recipes.example.net/c', 'https://recipes.example.net/d'],
    40,
  )
  await refreshCatalog(agent.ctx)
}

/**
 * A catalog with every IAB tier-1 and tier-2 category (coverage made up, no pages behind them) and
 * a few seasonal segments: what ranking is tested against.
 */
export async function seedTaxonomyCatalog(db: Db, now = new Date('2026-11-22T10:00:00Z')): Promise<number> {
  const nodes = allNodes().filter((n) => n.tier <= 2 && n.level1_name !== 'Sensitive Topics' && n.level1_name !== 'Genres')
  const ids = nodes.map((n) => `iab:${n.id}`)
  const names = nodes.map((n) => [n.level1_name, n.level2_name].filter(Boolean).join(' > '))
  await db.query(
    `INSERT INTO catalog_segments (id, type, name, description, taxonomy_id, page_count, share_of_index, by_language, built_at)
     SELECT u.id, 'public', u.name, 'Pages about ' || u.name || ' (IAB Content Taxonomy 3.1)', u.tid, 100 + u.n % 400, (100 + u.n % 400) / 20000.0, '{}'::jsonb, $4
       FROM unnest($1::text[], $2::text[], $3::int[]) WITH ORDINALITY AS u(id, name, tid, n)
     ON CONFLICT (id) DO NOTHING`,
    [ids, names, nodes.map((n) => n.id), now],
  )
  const seasonal = [
    ['seasonal:super-bowl:2027', 'Super Bowl 2027', 'Super Bowl, NFL American football playoffs, game day parties and snacks', 483, '2027-01-16', '2027-02-14'],
    [
      'seasonal:thanksgiving:2026',
      'Thanksgiving 2026',
      'Thanksgiving dinner recipes, turkey, cooking, family gatherings and holiday travel',
      210,
      '2026-11-05',
      '2026-11-26',
    ],
    [
      'seasonal:black-friday-cyber-monday:2026',
      'Black Friday & Cyber Monday 2026',
      'Black Friday and Cyber Monday deals, shopping, discounts and gifts',
      473,
      '2026-11-10',
      '2026-12-01',
    ],
  ] as const
  for (const [id, name, prompt, tid, start, end] of seasonal) {
    await db.query(
      `INSERT INTO catalog_segments (id, type, name, description, taxonomy_id, window_start, window_end, page_count, share_of_index, by_language, built_at)
       VALUES ($1, 'seasonal', $2, $3, $4, $5, $6, 300, 0.015, '{}'::jsonb, $7) ON CONFLICT (id) DO NOTHING`,
      [id, name, `Seasonal segment, window ${start} to ${end}: ${prompt}`, tid, start, end, now],
    )
  }
  return nodes.length + seasonal.length
}

/** A segment of the client built through the REST API (the client's own: an owned signal). */
export async function buildOwned(agent: Agent, key: string, prompt: string): Promise<number> {
  const res = await fetch(`${agent.url}/v1/curation/segment-requests`, {
    method: 'POST',
    headers: { ...bearer(key), 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Own: ${prompt}`, prompt }),
  })
  if (res.status !== 201) throw new Error(`segment request: ${res.status} ${await res.text()}`)
  const { id } = (await res.json()) as { id: number }
  await waitFor(async () => {
    const r = (await (await fetch(`${agent.url}/v1/curation/segment-requests/${id}`, { headers: bearer(key) })).json()) as { processed_date: string | null }
    return r.processed_date !== null
  }, 30_000)
  return id
}

export async function mcpClient(url: string, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'curata-test', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }))
  return client
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` })

/** The structured payload of a tool result (asserting the JSON text copy matches it). */
export function payload<T = Record<string, unknown>>(r: CallToolResult | Record<string, unknown>): T {
  const res = r as CallToolResult
  if (!res.isError) {
    const text = res.content?.[0]
    if (!text || text.type !== 'text' || JSON.stringify(res.structuredContent) !== text.text)
      throw new Error('the text content is not a JSON copy of structuredContent')
  }
  return res.structuredContent as T
}

/** A tool call that must succeed; activate_signal gets a fresh idempotency_key unless the test sets one (AdCP clients do the same). */
export async function call<T = Record<string, unknown>>(client: Client, name: string, args: Record<string, unknown>): Promise<T> {
  const withKey = name === 'activate_signal' && args.idempotency_key === undefined ? { ...args, idempotency_key: randomUUID() } : args
  const r = (await client.callTool({ name, arguments: withKey })) as CallToolResult
  if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.content)}`)
  return payload<T>(r)
}

/** The AdCP JSON schemas that ship inside @adcp/sdk (the newest there is 3.0). */
export function adcpSchema(version: '3.0' | 'v2.5', path: string): Record<string, unknown> {
  const require = createRequire(import.meta.url)
  const root = dirname(require.resolve('@adcp/sdk/package.json'))
  return JSON.parse(readFileSync(join(root, 'dist/lib/schemas-data', version, path), 'utf8')) as Record<string, unknown>
}

export interface SignalOut {
  signal_agent_segment_id: string
  signal_type: string
  name: string
  coverage_percentage: number
  pricing: { cpm: number; currency: string }
  pricing_options: { pricing_option_id: string }[]
  signal_id: Record<string, string>
  deployments: {
    type: string
    platform?: string
    account?: string
    is_live: boolean
    scope: string
    decisioning_platform_segment_id: string | null
    estimated_activation_duration_minutes: number
    activation_key?: { type: string; segment_id?: string; key?: string; value?: string }
  }[]
}
export interface SignalsOut {
  status: string
  adcp_version: string
  message: string
  context_id: string
  cache_scope: string
  signals: SignalOut[]
  pagination: { has_more: boolean; cursor?: string; total_count: number }
}
