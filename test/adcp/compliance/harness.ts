/**
 * The AdCP compliance runs as a buyer would make them: the service started the way `npm start`
 * starts it (startService, every role, its own data dir or PostgreSQL schema) over a seeded index,
 * and the storyboard runner of `@adcp/sdk` (`comply`, what `adcp storyboard run` calls) pointed at
 * it with a bundle: the AdCP 3.1.19 one vendored in fixtures/adcp, or the one the SDK ships.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import type { ComplianceResult } from '@adcp/sdk/testing'
import pino from 'pino'

import { refreshCatalog } from '../../../src/curation/catalog/refresh.ts'
import type { Config } from '../../../src/platform/config.ts'
import { loadConfig } from '../../../src/platform/config.ts'
import { createKey } from '../../../src/platform/keys/keys.ts'
import type { Service } from '../../../src/service.ts'
import { startService } from '../../../src/service.ts'
import { indexTopic } from '../../curation/fixtures.ts'

export type Bundle = '3.1.19' | 'sdk'

/** Unpacks the vendored 3.1.19 bundle once per process; returns its compliance dir. */
let unpacked: string | null = null
export function bundle319(): string {
  if (!unpacked) {
    const dir = mkdtempSync(join(tmpdir(), 'adcp-3.1.19-'))
    execFileSync('tar', ['xzf', join(import.meta.dirname, '../../../fixtures/adcp/adcp-3.1.19-schemas-and-compliance.tar.gz'), '-C', dir])
    unpacked = dir
  }
  return unpacked
}

export interface SeededService {
  service: Service
  mcpUrl: string
  key: string
  stop(): Promise<void>
}

/** The environment `npm start` would read, over a fresh data dir or a PostgreSQL schema. */
export function serviceConfig(databaseUrl: string | null): Config {
  return loadConfig({
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: mkdtempSync(join(tmpdir(), 'curata-adcp-')) }),
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'silent',
    // a 50-page index: every category with a few pages enters the catalog
    CATALOG_MIN_PAGES: '3',
    CURATION_MIN_WORDS: '60',
    RATE_LIMIT_PER_MINUTE: '100000',
    // the runner's webhook receiver listens on loopback
    SCRAPE_ALLOW_PRIVATE: 'true',
    JOBS_POLL_MS: '100',
  })
}

const hosts = (host: string, n: number) => Array.from({ length: n }, (_, i) => `https://${host}/article-${i}`)

/** startService (all roles) over a 50-page index of four topics, its catalog built, and a key. */
export async function startSeededService(databaseUrl: string | null): Promise<SeededService> {
  const service = await startService({ config: serviceConfig(databaseUrl), roles: ['api', 'collector', 'worker'], logger: pino({ level: 'silent' }) })
  try {
    const { db } = service.ctx
    await indexTopic(db, 'sports', hosts('sports.example.com', 13))
    await indexTopic(db, 'finance', hosts('money.example.com', 13), 20)
    await indexTopic(db, 'cooking', hosts('food.example.com', 12), 40)
    await indexTopic(db, 'autos', hosts('ev.example.com', 12), 60)
    await refreshCatalog(service.ctx)
    const k = await createKey(db, { name: 'storyboards', now: service.ctx.clock.now() })
    return { service, mcpUrl: `${service.url}/mcp`, key: k.api_key, stop: () => service.stop() }
  } catch (err) {
    await service.stop()
    throw err
  }
}

export interface RunSummary {
  passed: number
  failed: number
  skipped: number
  failures: string[]
}

/**
 * `adcp storyboard run <url> [id] --auth <key> --allow-http --webhook-receiver` against `bundle`,
 * through the same `comply` call the CLI makes, plus a test kit naming the probe task.
 */
export async function runStoryboards(target: SeededService, bundle: Bundle, storyboard?: string): Promise<RunSummary> {
  const before = process.env.ADCP_COMPLIANCE_DIR
  if (bundle === '3.1.19') process.env.ADCP_COMPLIANCE_DIR = join(bundle319(), 'compliance/3.1.19')
  else delete process.env.ADCP_COMPLIANCE_DIR
  try {
    const { comply } = await import('@adcp/sdk/testing')
    const result: ComplianceResult = await comply(target.mcpUrl, {
      auth: { type: 'bearer', token: target.key },
      allow_http: true,
      webhook_receiver: { mode: 'loopback_mock' },
      contracts: ['webhook_receiver_runner'],
      // security_baseline probes `test_kit.auth.probe_task`, by default list_creatives (a creative
      // protocol tool this agent does not have): name get_signals, and the key for the API-key path.
      test_kit: { auth: { api_key: target.key, probe_task: 'get_signals' } },
      ...(storyboard ? { storyboards: [storyboard] } : {}),
    })
    return {
      passed: result.summary.steps_passed ?? 0,
      failed: result.summary.steps_failed ?? 0,
      skipped: result.summary.steps_skipped ?? 0,
      failures: (result.failures ?? []).map((f) =>
        `${f.storyboard_id}.${f.step_id}: ${f.error ?? ''} ${f.validation ? `${f.validation.description} expected ${JSON.stringify(f.validation.expected)} got ${JSON.stringify(f.validation.actual)}` : ''}`.slice(
          0,
          600,
        ),
      ),
    }
  } finally {
    if (before === undefined) delete process.env.ADCP_COMPLIANCE_DIR
    else process.env.ADCP_COMPLIANCE_DIR = before
  }
}

/** The storyboards the acceptance names (beside the capability-driven run). */
export const namedStoryboards = [
  'signals_baseline',
  'signals_baseline/get_signals_async',
  'signal_marketplace',
  'signal_marketplace/governance_denied',
  'signal_owned',
  'get_signals_pagination_integrity',
  'error_compliance_signals',
  'schema_validation_signals',
  'security_baseline',
  'signed_requests',
  'idempotency',
  'webhook_emission',
  'wholesale_feed_signals',
  'deterministic_testing',
  'version_negotiation',
] as const

/**
 * Steps that fail for reasons outside what this agent can change, each with the reason (docs/adcp.md
 * "Compliance runs" lists them). Any other failing step fails the suite.
 */
export const knownFailures: [RegExp, string][] = [
  [/^signed_requests\./, 'RFC 9421 request signing is not implemented: request_signing is not declared'],
  [
    /^(idempotency|deterministic_testing|canonical_format_validate_input)\.seed_(product|pricing_option)\./,
    'the runner seeds media-buy fixtures (products, pricing options) before storyboards whose steps are media-buy tools; a signals agent has none and answers UNKNOWN_SCENARIO',
  ],
  [
    /^deterministic_testing\.(missing_params|not_found_entity):/,
    "the SDK's 3.0.6 deterministic_testing probes force_creative_status, a creative-protocol scenario; the agent answers UNKNOWN_SCENARIO",
  ],
  [
    /^billing_gate_dispatch\.get_capabilities:/,
    'asks for account.supported_billing, a capability of sync_accounts (the account protocol) this agent does not offer',
  ],
  [/^webhook_emission\.assert_synchronous_completion_handled:/, 'contributed only by get_products (media buy), which a signals agent does not have'],
  [
    /^signals_baseline\/get_signals_async\.get_signals_submitted:/,
    "@adcp/sdk 6.11.0 checks the submitted envelope with its 3.0 get_signals schema, which requires signals[]; 3.1.19's submitted schema and this step's own check forbid it",
  ],
  [
    /^wholesale_feed_signals\.unchanged_probe:/,
    '@adcp/sdk 6.11.0 checks with its 3.0 get_signals schema (signals[] required); 3.1.19 forbids signals[] on unchanged: true',
  ],
  [
    /^signal_owned\.activate_on_platform:/,
    "the SDK's 3.0.6 signal_owned activates prism_high_ltv, an id of its test kit's fictional catalog (3.1.19 dropped the step)",
  ],
  [
    /^comply_controller_mode_gate\.deny_live_caller:/,
    'an optional phase: on a sandbox deployment every account is a sandbox account, so a live caller needs a live deployment',
  ],
]

/** The failures not in knownFailures. */
export const unexpectedFailures = (failures: string[]) => failures.filter((f) => !knownFailures.some(([re]) => re.test(f)))
