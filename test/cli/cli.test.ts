import { mkdtempSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { loadMigrations } from '../../src/platform/db/migrate.ts'
import type { CliResult, Served } from '../helpers/cli.ts'
import { runCli, serve } from '../helpers/cli.ts'
import { postgresAvailable } from '../helpers/db.ts'
import { waitFor } from '../helpers/wait.ts'

// Each CLI call is a process start (about a second of module loading) and, on the embedded engine
// without a running server, a database open: the tests share one data dir and hand most commands to
// a running server over its socket, which costs neither.

const get = (url: string, key: string) => fetch(`${url}/v1/snowball/campaigns`, { headers: { 'x-api-key': key } })
const versions = () => loadMigrations().map((m) => m.version)
const created = (r: CliResult) => {
  expect(r.code, r.stderr).toBe(0)
  return JSON.parse(r.stdout) as { client_id: number; api_key: string; name: string }
}
const listed = (r: CliResult) => {
  expect(r.code, r.stderr).toBe(0)
  return JSON.parse(r.stdout) as { id: number; client_id: number; name: string; key_prefix: string; revoked_at: string | null }[]
}

/** `keys list` as a table: the header row and the data rows, split into columns. */
function table(r: CliResult): { header: string[]; rows: string[][] } {
  expect(r.code, r.stderr).toBe(0)
  const [header, ...rows] = r.stdout
    .trim()
    .split('\n')
    .map((l) => l.split('\t'))
  return { header: header!, rows }
}

const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

describe('curata CLI on the embedded data dir', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'curata-cli-'))
  const env = { DATA_DIR: dataDir }
  let server: Served | null = null
  let acme = ''
  afterAll(() => {
    server?.child.kill('SIGKILL')
  })

  it('migrate creates a fresh data dir and applies every migration', async () => {
    const r = await runCli(['migrate'], env)
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout.trim()).toBe(`applied migrations ${versions().join(', ')}`)
  })

  it('keys create --json prints exactly one JSON object', async () => {
    const r = await runCli(['keys', 'create', '--name', 'Acme Media', '--json'], env)
    expect(r.stdout.trim().split('\n')).toHaveLength(1)
    const key = created(r)
    expect(Object.keys(key).sort()).toEqual(['api_key', 'client_id', 'name'])
    expect(key).toMatchObject({ client_id: 1, name: 'Acme Media' })
    expect(key.api_key).toMatch(/^cur_[A-Za-z0-9_-]{43}$/)
    acme = key.api_key
  })

  it('serves, hands key commands to the running server, locks the data dir, and keeps data across restarts', async () => {
    server = await serve([], env)
    const sock = statSync(join(dataDir, 'curata.sock'))
    expect(sock.mode & 0o777).toBe(0o600)

    const live = created(await runCli(['keys', 'create', '--name', 'Live Co', '--json'], env))
    const post = await fetch(`${server.url}/v1/snowball/campaigns`, {
      method: 'POST',
      headers: { 'x-api-key': acme, 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'kept across restarts' }),
    })
    expect(post.status).toBe(201)

    const second = await runCli(['serve'], { ...env, PORT: '0' })
    expect(second.code).not.toBe(0)
    expect(second.stderr).toMatch(/in use by another curata process \(pid \d+\)/)
    const migrating = await runCli(['migrate'], env)
    expect(migrating.code).toBe(1)
    expect(migrating.stderr).toMatch(/in use by another curata process/)
    expect((await get(server.url, live.api_key)).status).toBe(200) // the first server is unharmed
    expect((await get(server.url, acme)).status).toBe(200)

    const keys = listed(await runCli(['keys', 'list', '--json'], env))
    expect(keys.map((k) => k.name)).toEqual(['Acme Media', 'Live Co'])
    expect(JSON.stringify(keys)).not.toContain(live.api_key)
    const id = keys.find((k) => k.name === 'Live Co')!.id
    const revoked = await runCli(['keys', 'revoke', String(id)], env)
    expect(revoked.stdout.trim()).toBe(`key ${id} revoked`)
    expect((await get(server.url, live.api_key)).status).toBe(401)

    const t = table(await runCli(['keys', 'list'], env))
    expect(t.header).toEqual(['id', 'client', 'name', 'prefix', 'created', 'revoked'])
    expect(t.rows).toHaveLength(2)
    const [acmeRow, liveRow] = t.rows
    expect(acmeRow).toEqual(['1', '1', 'Acme Media', expect.stringMatching(/^cur_.{8}…$/), expect.stringMatching(iso), '-'])
    expect(liveRow).toEqual([String(id), '2', 'Live Co', `${live.api_key.slice(0, 12)}…`, expect.stringMatching(iso), expect.stringMatching(iso)])
    expect(Date.parse(liveRow![5]!)).toBeGreaterThanOrEqual(Date.parse(liveRow![4]!))

    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)

    // Data survives the restart: the campaign, the keys, and the revocation.
    server = await serve([], env)
    expect((await get(server.url, live.api_key)).status).toBe(401)
    const campaigns = (await (await get(server.url, acme)).json()) as { description: string }[]
    expect(campaigns.map((c) => c.description)).toEqual(['kept across restarts'])
    const again = listed(await runCli(['keys', 'list', '--json'], env))
    expect(again.map((k) => [k.name, k.revoked_at !== null])).toEqual([
      ['Acme Media', false],
      ['Live Co', true],
    ])
    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
    server = null
  })

  it('catalog refresh moves the catalog job to now, through the running server or on the database', async () => {
    server = await serve([], env)
    // At start the worker runs the catalog once and schedules the next run; from then on it can be moved.
    let r = await runCli(['catalog', 'refresh'], env)
    for (let i = 0; i < 30 && !/runs now/.test(r.stdout); i++) {
      await new Promise((resolve) => setTimeout(resolve, 500))
      r = await runCli(['catalog', 'refresh'], env)
    }
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/catalog refresh: the catalog job runs now/)
    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
    server = null
    // Without a server it moves the waiting run on the database itself.
    const direct = await runCli(['catalog', 'refresh'], env)
    expect(direct.code, direct.stderr).toBe(0)
    expect(direct.stdout).toMatch(/^catalog refresh: /)
  })

  it('rejects bad arguments and bad configuration with a message', async () => {
    const [role, revoke, config] = await Promise.all([
      runCli(['serve', '--role', 'api,cook'], env),
      runCli(['keys', 'revoke', 'abc'], env),
      runCli(['migrate'], { ...env, RATE_LIMIT_PER_MINUTE: 'lots' }),
    ])
    expect(role.code).not.toBe(0)
    expect(role.stderr).toMatch(/roles are a comma-separated subset/)
    expect(revoke.code).not.toBe(0)
    expect(revoke.stderr).toMatch(/must be a positive integer/)
    expect(config.code).toBe(1)
    expect(config.stderr).toMatch(/RATE_LIMIT_PER_MINUTE must be an integer/)
  })
})

describe.skipIf(!postgresAvailable())('curata on PostgreSQL (DATABASE_URL) [postgres]', () => {
  const url = () => process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test'
  const schema = `cli_${Date.now().toString(36)}_${process.pid}`
  const servers: Served[] = []
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: url() })
    await c.connect()
    try {
      await c.query(sql)
    } finally {
      await c.end()
    }
  }
  // A schema of our own, empty: `curata migrate` is what creates the tables.
  const dbUrl = () => `${url()}${url().includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`
  beforeAll(() => admin(`CREATE SCHEMA ${schema}`))
  afterAll(async () => {
    for (const s of servers) s.child.kill('SIGKILL')
    await admin(`DROP SCHEMA ${schema} CASCADE`)
  })

  it('migrate applies every migration to an empty database, then finds it up to date', async () => {
    const first = await runCli(['migrate'], { DATABASE_URL: dbUrl() })
    expect(first.code, first.stderr).toBe(0)
    expect(first.stdout.trim()).toBe(`applied migrations ${versions().join(', ')}`)
    const again = await runCli(['migrate'], { DATABASE_URL: dbUrl() })
    expect(again.stdout.trim()).toBe('database is up to date')
  })

  it('creates, lists and revokes keys against DATABASE_URL', async () => {
    const env = { DATABASE_URL: dbUrl() }
    const key = created(await runCli(['keys', 'create', '--name', 'Pg Co', '--json'], env))
    const keys = listed(await runCli(['keys', 'list', '--json'], env))
    const mine = keys.find((k) => k.name === 'Pg Co')!
    expect(mine).toMatchObject({ client_id: key.client_id, key_prefix: key.api_key.slice(0, 12), revoked_at: null })
    expect((await runCli(['keys', 'revoke', String(mine.id)], env)).code).toBe(0)
    const t = table(await runCli(['keys', 'list'], env))
    expect(t.header).toEqual(['id', 'client', 'name', 'prefix', 'created', 'revoked'])
    expect(t.rows.find((r) => r[0] === String(mine.id))![5]).toMatch(iso)
    const missing = await runCli(['keys', 'revoke', '999999'], env)
    expect(missing.code).toBe(1)
    expect(missing.stderr).toMatch(/no key with id 999999/)
  })

  it('holds one rate limit across two API processes', async () => {
    const env = { DATABASE_URL: dbUrl(), RATE_LIMIT_PER_MINUTE: '10' }
    const key = created(await runCli(['keys', 'create', '--name', 'Shared', '--json'], env)).api_key
    servers.push(...(await Promise.all([serve(['--role', 'api'], env), serve(['--role', 'api'], env)])))
    // Keep all eleven requests inside one minute window.
    const intoMinute = Date.now() % 60_000
    if (intoMinute > 50_000) await new Promise((res) => setTimeout(res, 60_500 - intoMinute))
    const statuses: number[] = []
    for (let i = 0; i < 11; i++) statuses.push((await get(servers[i % 2]!.url, key)).status)
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200))
    expect(statuses[10]).toBe(429)
    const last = await get(servers[0]!.url, key)
    expect(last.status).toBe(429)
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0)
  })

  it('serves the operations endpoints of a worker-only process on METRICS_PORT', async () => {
    const worker = await serve(['--role', 'worker'], { DATABASE_URL: dbUrl(), METRICS_PORT: '0', PORT: '1' })
    servers.push(worker)
    expect(worker.stderr()).toMatch(/operations only/)
    expect((await fetch(`${worker.url}/readyz`)).status).toBe(200)
    // The periodic maintenance job runs as soon as a worker starts, and is measured.
    await waitFor(
      async () => (await (await fetch(`${worker.url}/metrics`)).text()).includes('job_duration_seconds_count{kind="platform.maintenance",outcome="done"} 1'),
      30_000,
      'the worker to report its maintenance job',
    )
    worker.child.kill('SIGTERM')
    expect(await worker.exited).toBe(0)
  })
})
