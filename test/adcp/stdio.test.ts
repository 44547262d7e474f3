// `curata mcp`: the agent on stdio, driven by the MCP SDK's StdioClientTransport spawning
// `node bin/curata.js mcp` — on its own embedded data dir, relaying to a running `curata serve`
// that holds the data dir, and on PostgreSQL next to a worker of another process. (Each spawn
// costs seconds of start-up, so the checks that need no process run in this one.)
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'

import { activationJobs } from '../../src/activation/jobs.ts'
import { runMcpStdio } from '../../src/cli/mcp.ts'
import { systemClock } from '../../src/platform/clock.ts'
import { loadConfig } from '../../src/platform/config.ts'
import { lockOwner } from '../../src/platform/db/data-dir-lock.ts'
import { openPglite } from '../../src/platform/db/pglite.ts'
import type { Worker } from '../../src/platform/jobs/worker.ts'
import { createWorker } from '../../src/platform/jobs/worker.ts'
import { createKey } from '../../src/platform/keys/keys.ts'
import type { Served } from '../helpers/cli.ts'
import { curataBin, runCli, serve } from '../helpers/cli.ts'
import type { TestDb } from '../helpers/db.ts'
import { openTestDb, postgresAvailable } from '../helpers/db.ts'
import type { Agent, SignalsOut } from './helpers.ts'
import { call, seedIndex, startAgent } from './helpers.ts'

async function stdioClient(env: Record<string, string>, args: string[] = []): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [curataBin, 'mcp', ...args],
    env: { ...(process.env as Record<string, string>), LOG_LEVEL: 'warn', ...env },
    stderr: 'pipe',
  })
  let err = ''
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()))
  const client = new Client({ name: 'curata-stdio-test', version: '1.0.0' })
  await client.connect(transport)
  return { client, stderr: () => err }
}

describe('curata mcp on the embedded data dir', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'curata-mcp-'))
  let key = ''
  let server: Served | null = null
  beforeAll(async () => {
    // The data dir starts as a copy of the migrated test template (no initdb, no process).
    const db = await openPglite({ dataDir: join(dataDir, 'pgdata'), loadDataDir: new Blob([readFileSync(inject('pgliteTemplate'))]) })
    key = (await createKey(db, { name: 'Stdio Co', now: new Date() })).api_key
    await db.close()
  })
  afterAll(() => {
    server?.child.kill('SIGKILL')
  })

  it('refuses to start without a key, or with a wrong one, and leaves the data dir free', async () => {
    const config = loadConfig({ DATA_DIR: dataDir })
    await expect(runMcpStdio(config, {})).rejects.toThrow(/set CURATA_API_KEY or pass --api-key/)
    await expect(runMcpStdio(loadConfig({ DATA_DIR: dataDir, CURATA_API_KEY: '' }), { apiKey: '   ' })).rejects.toThrow(/set CURATA_API_KEY or pass --api-key/)
    await expect(runMcpStdio(config, { apiKey: `cur_${'y'.repeat(43)}` })).rejects.toThrow(/invalid or revoked/)
    await expect(runMcpStdio(loadConfig({ DATA_DIR: dataDir, CURATA_API_KEY: 'not-a-key' }), {})).rejects.toThrow(/invalid or revoked/)
    // The refused start closed the database: nothing holds the data dir (the next test opens it).
    expect(lockOwner(dataDir)).toBeNull()
  })

  it('opens the data dir itself when no server holds it', async () => {
    const { client } = await stdioClient({ DATA_DIR: dataDir, CURATA_API_KEY: key })
    try {
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual([
        'activate_signal',
        'comply_test_controller',
        'get_adcp_capabilities',
        'get_signals',
        'get_task_status',
        'list_tasks',
      ])
      const caps = await call<{ supported_protocols: string[] }>(client, 'get_adcp_capabilities', {})
      expect(caps.supported_protocols).toEqual(['signals'])
      const r = await call<SignalsOut>(client, 'get_signals', { discovery_mode: 'wholesale' })
      expect(r).toMatchObject({ status: 'completed', signals: [], message: expect.stringMatching(/catalog is empty/) })
      const miss = (await client.callTool({
        name: 'activate_signal',
        arguments: { signal_agent_segment_id: 'iab:483', deliver_to: { deployments: [{ platform: 'ttd', account: 's' }] } },
      })) as CallToolResult
      expect(miss.structuredContent).toMatchObject({ adcp_error: { code: 'REFERENCE_NOT_FOUND' } })
    } finally {
      await client.close()
    }
  })

  it('relays to the running server that holds the data dir', async () => {
    server = await serve([], { DATA_DIR: dataDir })
    const port = new URL(server.url).port
    const { client, stderr } = await stdioClient({ DATA_DIR: dataDir, CURATA_API_KEY: key, PORT: port })
    try {
      const caps = await call<{ adcp: { major_versions: number[] } }>(client, 'get_adcp_capabilities', {})
      expect(caps.adcp.major_versions).toEqual([3])
      expect(stderr()).toMatch(/relaying to http:\/\/127\.0\.0\.1:\d+\/mcp/)
      const unknown = client.callTool({ name: 'nope', arguments: {} })
      await expect(unknown).rejects.toMatchObject({ code: -32602 })
    } finally {
      await client.close()
    }
  })

  it('ends with exit code 1 when the running server refuses the key', async () => {
    const port = new URL(server!.url).port
    const child = spawn(process.execPath, [curataBin, 'mcp'], {
      env: { ...process.env, LOG_LEVEL: 'warn', DATA_DIR: dataDir, CURATA_API_KEY: `cur_${'z'.repeat(43)}`, PORT: port },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let out = ''
    let err = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (err += d.toString()))
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }
    child.stdin.write(`${JSON.stringify(initialize)}\n`)
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
    expect(code).toBe(1)
    expect(err).toMatch(/the API key is invalid or revoked/)
    expect(JSON.parse(out.trim().split('\n')[0]!)).toMatchObject({ id: 1, error: { message: expect.stringMatching(/invalid or revoked/) } })
  })

  it('refuses, exit 1, to open a data dir that holds no database instead of creating an empty one', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'curata-empty-'))
    for (const args of [['mcp'], ['keys', 'create', '--name', 'Stray']]) {
      const r = await runCli(args, { DATA_DIR: empty, CURATA_API_KEY: key })
      expect(r.code, args.join(' ')).toBe(1)
      expect(r.stderr).toContain(`no Curata database in ${empty}`)
    }
    expect(existsSync(join(empty, 'pgdata'))).toBe(false)
  })
})

describe.skipIf(!postgresAvailable())('curata mcp on PostgreSQL [postgres]', () => {
  let t: TestDb
  let agent: Agent
  let worker: Worker
  beforeAll(async () => {
    t = await openTestDb('postgres')
    agent = await startAgent(t.db)
    await seedIndex(agent)
    // Another process's worker issues the deals (the stdio process runs none on PostgreSQL).
    worker = createWorker({ db: t.db, clock: systemClock, handlers: activationJobs(agent.ctx).filter((h) => !h.everyMs), pollMs: 20 })
    await worker.start()
  })
  afterAll(async () => {
    await worker?.stop()
    await agent?.close()
    await t?.close()
  })

  const url = () => `${t.url}?options=${encodeURIComponent(`-c search_path=${t.schema}`)}`

  it('refuses to start without a key, or with a wrong one', async () => {
    const config = loadConfig({ DATABASE_URL: url() })
    await expect(runMcpStdio(config, {})).rejects.toThrow(/set CURATA_API_KEY or pass --api-key/)
    await expect(runMcpStdio(config, { apiKey: `cur_${'y'.repeat(43)}` })).rejects.toThrow(/invalid or revoked/)
  })

  it('finds and activates a signal over stdio', async () => {
    const { key } = await agent.client()
    const { client } = await stdioClient({ DATABASE_URL: url(), CURATA_API_KEY: key })
    try {
      const found = await call<SignalsOut>(client, 'get_signals', {
        signal_spec: 'sports fans following games',
        deliver_to: { deployments: [{ platform: 'ttd', account: 'stdio-seat' }] },
      })
      expect(found.signals[0]!.signal_agent_segment_id).toBe('iab:483')
      const a = await call<{ activation: { deal_id: string | null; status: string } }>(client, 'activate_signal', {
        signal_agent_segment_id: 'iab:483',
        context_id: found.context_id,
        idempotency_key: 'stdio-activation-0001',
      })
      expect(a.activation).toMatchObject({ deal_id: expect.stringMatching(/^CUR-SBX-/), status: expect.stringMatching(/activating|deployed/) })
    } finally {
      await client.close()
    }
  })
})
