import { mkdtempSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { Served } from '../helpers/cli.ts'
import { runCli, serve } from '../helpers/cli.ts'
import type { TestDb } from '../helpers/db.ts'
import { openTestDb, postgresAvailable } from '../helpers/db.ts'

const get = (url: string, key: string) => fetch(`${url}/v1/snowball/campaigns`, { headers: { 'x-api-key': key } })

describe('curata CLI on the embedded data dir', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'curata-cli-'))
  const env = { DATA_DIR: dataDir }
  let server: Served | null = null
  afterAll(() => {
    server?.child.kill('SIGKILL')
  })

  it('keys create --json prints exactly one JSON object and the key is stored hashed', async () => {
    const r = await runCli(['keys', 'create', '--name', 'Acme Media', '--json'], env)
    expect(r.code).toBe(0)
    const lines = r.stdout.trim().split('\n')
    expect(lines).toHaveLength(1)
    const created = JSON.parse(lines[0]!) as { client_id: number; api_key: string; name: string }
    expect(Object.keys(created).sort()).toEqual(['api_key', 'client_id', 'name'])
    expect(created).toMatchObject({ client_id: 1, name: 'Acme Media' })
    expect(created.api_key).toMatch(/^cur_[A-Za-z0-9_-]{43}$/)

    const list = await runCli(['keys', 'list'], env)
    expect(list.code).toBe(0)
    expect(list.stdout).toContain('Acme Media')
    expect(list.stdout).toContain(created.api_key.slice(0, 12))
    expect(list.stdout).not.toContain(created.api_key)
  })

  it('serves, hands key commands to the running server, and locks the data dir', async () => {
    server = await serve([], env)
    const sock = statSync(join(dataDir, 'curata.sock'))
    expect(sock.mode & 0o777).toBe(0o600)

    const r = await runCli(['keys', 'create', '--name', 'Live Co', '--json'], env)
    expect(r.code).toBe(0)
    const key = (JSON.parse(r.stdout) as { api_key: string }).api_key
    const post = await fetch(`${server.url}/v1/snowball/campaigns`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'kept across restarts' }),
    })
    expect(post.status).toBe(201)

    const second = await runCli(['serve'], { ...env, PORT: '0' })
    expect(second.code).not.toBe(0)
    expect(second.stderr).toMatch(/in use by another curata process/)
    expect((await get(server.url, key)).status).toBe(200) // the first server is unharmed

    const list = await runCli(['keys', 'list', '--json'], env)
    const keys = JSON.parse(list.stdout) as { id: number; name: string }[]
    const id = keys.find((k) => k.name === 'Live Co')!.id
    expect((await runCli(['keys', 'revoke', String(id)], env)).code).toBe(0)
    expect((await get(server.url, key)).status).toBe(401)

    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)

    // Data survives the restart.
    const r2 = await runCli(['keys', 'create', '--name', 'After', '--json'], env)
    const key2 = (JSON.parse(r2.stdout) as { api_key: string }).api_key
    server = await serve([], env)
    expect(await (await get(server.url, key2)).json()).toEqual([])
    const revokedStill = await get(server.url, key)
    expect(revokedStill.status).toBe(401)
    const count = await runCli(['keys', 'list', '--json'], env)
    expect((JSON.parse(count.stdout) as unknown[]).length).toBe(3)
    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
    server = null
  })

  it('rejects bad arguments with a usage message', async () => {
    const r = await runCli(['serve', '--role', 'api,cook'], env)
    expect(r.code).not.toBe(0)
    expect(r.stderr).toMatch(/roles are a comma-separated subset/)
    const k = await runCli(['keys', 'revoke', 'abc'], env)
    expect(k.code).not.toBe(0)
    const e = await runCli(['migrate'], { ...env, RATE_LIMIT_PER_MINUTE: 'lots' })
    expect(e.code).toBe(1)
    expect(e.stderr).toMatch(/RATE_LIMIT_PER_MINUTE must be an integer/)
  })
})

describe.skipIf(!postgresAvailable())('curata on PostgreSQL (DATABASE_URL) [postgres]', () => {
  let t: TestDb
  const servers: Served[] = []
  beforeAll(async () => {
    t = await openTestDb('postgres')
  })
  afterAll(async () => {
    for (const s of servers) s.child.kill('SIGKILL')
    await t.close()
  })
  const dbUrl = () => `${t.url}?options=${encodeURIComponent(`-c search_path=${t.schema}`)}`

  it('creates keys against DATABASE_URL and holds one rate limit across two API processes', async () => {
    const env = { DATABASE_URL: dbUrl(), RATE_LIMIT_PER_MINUTE: '10' }
    const r = await runCli(['keys', 'create', '--name', 'Shared', '--json'], env)
    expect(r.code).toBe(0)
    const key = (JSON.parse(r.stdout) as { api_key: string }).api_key
    servers.push(await serve(['--role', 'api'], env), await serve(['--role', 'api'], env))
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
})
