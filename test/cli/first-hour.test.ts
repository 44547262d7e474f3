// Issue 17's walk-through, as a new user follows the README: the real server (`curata serve`, what
// `npm start` runs) on a fresh embedded data dir, the real CLI beside it, a small web on loopback.
import { mkdtempSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { afterAll, beforeAll, expect, it } from 'vitest'

import { topicPage } from '../curation/fixtures.ts'
import type { Served } from '../helpers/cli.ts'
import { runCli, serve } from '../helpers/cli.ts'
import { waitFor } from '../helpers/wait.ts'

const PAGES = 100
let web: Server
let base = ''
let server: Served
let key = ''
const dataDir = mkdtempSync(join(tmpdir(), 'curata-first-hour-'))
// Loopback pages need the private-address switch; no politeness delay between them; the catalog
// watcher's default period (30 s) and CATALOG_MIN_PAGES (50) stay as shipped.
const env = { DATA_DIR: dataDir, SCRAPE_ALLOW_PRIVATE: 'true', SCRAPE_HOST_DELAY_MS: '0', RATE_LIMIT_PER_MINUTE: '100000' }

beforeAll(async () => {
  web = createServer((req, res) => {
    const m = /^\/match\/(\d+)$/.exec(req.url ?? '')
    if (!m) return void res.writeHead(404).end()
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(topicPage('sports', Number(m[1])))
  })
  await new Promise<void>((r) => web.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(web.address() as AddressInfo).port}`
  server = await serve([], env)
}, 90_000)
afterAll(async () => {
  server?.child.kill('SIGKILL')
  await new Promise((r) => web.close(r))
})

const api = async <T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: res.status, body: (await res.json()) as T }
}

it('a key made with the CLI while the server runs works at once', async () => {
  const r = await runCli(['keys', 'create', '--name', 'First Hour', '--json'], env)
  expect(r.code, r.stderr).toBe(0)
  key = (JSON.parse(r.stdout) as { api_key: string }).api_key
  expect((await api('GET', '/v1/snowball/campaigns')).status).toBe(200)
}, 60_000)

it('after indexing 100 pages, the catalog shows non-zero coverage within a minute', async () => {
  const urls = Array.from({ length: PAGES }, (_, i) => `${base}/match/${i + 1}`)
  const job = await api<{ id: number }>('POST', '/v1/scraping/jobs', { urls })
  expect(job.status).toBe(201)
  await waitFor(
    async () => (await api<{ status: string }>('GET', `/v1/scraping/jobs/${job.body.id}?limit=1`)).body.status === 'complete',
    120_000,
    'the scrape job',
  )
  const done = await api<{ results: { url: string; errors: string[] }[] }>('GET', `/v1/scraping/jobs/${job.body.id}?limit=1000`)
  expect(done.body.results.filter((r) => r.errors.length).slice(0, 3)).toEqual([])
  const indexedAt = Date.now()
  type Entry = { name: string; coverage: { percentage: number } }
  let covered: Entry[] = []
  await waitFor(
    async () => {
      const res = await api<{ entries: Entry[] }>('GET', '/v1/curation/catalog')
      covered = res.body.entries.filter((e) => e.coverage.percentage > 0)
      return covered.length > 0
    },
    60_000,
    'non-zero catalog coverage',
  )
  expect(Date.now() - indexedAt).toBeLessThan(60_000)
  expect(covered.map((e) => e.name).join(' ')).toMatch(/Sports|Soccer|Football/i)
}, 240_000)

it('a one-word prompt builds a segment; an empty segment cannot be activated', async () => {
  type Seg = { id: number; processed_date: string | null; url_count: number | null; processing_warnings: unknown }
  const build = async (prompt: string): Promise<Seg> => {
    const created = await api<Seg>('POST', '/v1/curation/segment-requests', { prompt })
    expect(created.status).toBe(201)
    let seg = created.body
    await waitFor(
      async () => (seg = (await api<Seg>('GET', `/v1/curation/segment-requests/${created.body.id}`)).body).processed_date !== null,
      60_000,
      `segment "${prompt}"`,
    )
    return seg
  }
  const soccer = await build('soccer')
  expect(soccer.url_count).toBeGreaterThan(0)

  const empty = await build('cryptocurrency exchanges and bitcoin wallets')
  expect(empty.url_count).toBe(0)
  const refused = await api<{ error: string; message: string }>('POST', '/v1/curation/activations', {
    segment_ids: [empty.id],
    dsp: 'ttd',
    buyer_seat: 'seat-1',
  })
  expect(refused.status).toBe(422)
  expect(refused.body.message).toMatch(/no URLs|empty/i)
}, 180_000)
