// The client commands against a running service (`curata serve --role api,worker` on a loopback
// port): each test spawns the CLI as a user would.
import type { ChildProcess } from 'node:child_process'
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import type { Server } from 'node:http'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { CliResult, Served } from '../helpers/cli.ts'
import { curataBin, runCli, serve } from '../helpers/cli.ts'
import { waitFor } from '../helpers/wait.ts'

describe('curata client commands against a running service', () => {
  const dir = mkdtempSync(join(tmpdir(), 'curata-client-'))
  const configFile = join(dir, 'client', 'config.json')
  const serverEnv = { DATA_DIR: join(dir, 'data'), SCRAPE_ALLOW_PRIVATE: 'true', SCRAPE_HOST_DELAY_MS: '0', JOB_POLL_MS: '50', SCRAPE_TIMEOUT_MS: '5000' }
  let server: Served
  let web: Server
  let webUrl = ''
  let key = ''
  // The client never sees the server's settings: only its URL and key (and its own config file).
  let env: Record<string, string> = {}
  const children: ChildProcess[] = []

  beforeAll(async () => {
    // A small web: /page/N is an article; /slow/N answers after a second.
    web = createServer((req, res) => {
      const article = `<!doctype html><html lang="en"><head><title>Page ${req.url}</title></head><body><article><p>${'Cooking pasta at home with fresh tomatoes and basil. '.repeat(30)}</p></article></body></html>`
      if (req.url?.startsWith('/slow/')) setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(article), 1000)
      else if (req.url?.startsWith('/page/')) res.writeHead(200, { 'content-type': 'text/html' }).end(article)
      else res.writeHead(404).end()
    })
    await new Promise<void>((r) => web.listen(0, '127.0.0.1', r))
    webUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}`
    server = await serve(['--role', 'api,worker'], serverEnv)
    const k = await runCli(['keys', 'create', '--name', 'cli', '--json'], serverEnv)
    expect(k.code, k.stderr).toBe(0)
    key = (JSON.parse(k.stdout) as { api_key: string }).api_key
    env = { CURATA_CONFIG: configFile, DATA_DIR: join(dir, 'nowhere') }
  })
  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL')
    server?.child.kill('SIGTERM')
    await server?.exited
    web?.close()
  })

  const cli = (args: string[], extra: Record<string, string> = {}) => runCli(args, { ...env, ...extra }, 120_000)
  const withTarget = (args: string[]) => [...args, '--url', server.url, '--api-key', key, '--poll-interval', '200']
  const ok = (r: CliResult) => {
    expect(r.code, r.stderr).toBe(0)
    return r
  }
  const urlsFile = (name: string, urls: string[]) => {
    const file = join(dir, name)
    writeFileSync(file, `# test URLs\n${urls.join('\n')}\n`)
    return file
  }

  it('login checks the key and saves URL and key in a 0600 file the other commands read', async () => {
    const bad = await cli(['login', '--url', server.url, '--api-key', 'cur_wrong'])
    expect(bad.code).toBe(1)
    expect(bad.stderr).toMatch(/401 unauthorized/)
    ok(await cli(['login', '--url', server.url, '--api-key', key]))
    expect(statSync(configFile).mode & 0o777).toBe(0o600)
    expect(JSON.parse(readFileSync(configFile, 'utf8'))).toEqual({ url: server.url, api_key: key })
    const list = ok(await cli(['segments', 'list', '--json']))
    expect(JSON.parse(list.stdout)).toEqual([])
  })

  it('scrape --wait reaches 100% and writes every result as JSON Lines, with counts by error code', async () => {
    const urls = [...Array.from({ length: 25 }, (_, i) => `${webUrl}/page/${i}`), 'not a url', `${webUrl}/missing`]
    const out = join(dir, 'results.jsonl')
    const r = ok(await cli(withTarget(['scrape', urlsFile('urls.txt', urls), '--wait', '--out', out])))
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { url: string; errors: string[]; content: { title: string } | null })
    expect(lines).toHaveLength(27)
    expect(lines.map((l) => l.url)).toEqual(urls)
    expect(lines[0]!.errors).toEqual([])
    expect(lines[0]!.content?.title).toBe('Page /page/0')
    expect(lines[25]!.errors).toEqual(['E002'])
    // A 404 is E002 too.
    expect(lines[26]!.errors).toEqual(['E002'])
    expect(r.stderr).toMatch(/scrape job \d+ complete: 27 results written to .*results\.jsonl \(E002 2, no error 25\)/)
    // stderr is not a terminal here: no progress bar.
    expect(r.stderr).not.toMatch(/ETA|█|░/)
  })

  it('scrape --wait without --out streams the results to stdout', async () => {
    const r = ok(await cli(withTarget(['scrape', urlsFile('two.txt', [`${webUrl}/page/100`, `${webUrl}/page/101`]), '--wait'])))
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { url: string }).url),
    ).toEqual([`${webUrl}/page/100`, `${webUrl}/page/101`])
  })

  it('shows a progress bar when stderr is a terminal (pseudo-terminal through script(1))', async () => {
    const file = urlsFile(
      'tty.txt',
      Array.from({ length: 6 }, (_, i) => `${webUrl}/slow/${i}`),
    )
    const out = join(dir, 'tty.jsonl')
    const command = [process.execPath, curataBin, ...withTarget(['scrape', file, '--wait', '--out', out])].map((a) => `'${a}'`).join(' ')
    const r = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn('script', ['-qec', command, '/dev/null'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
      let output = ''
      child.stdout.on('data', (d: Buffer) => (output += d.toString()))
      child.stderr.on('data', (d: Buffer) => (output += d.toString()))
      child.on('exit', (code) => resolve({ code, output }))
    })
    expect(r.code, r.output).toBe(0)
    expect(r.output).toMatch(/scrape job \d+ [█░]+ 100% \| 6\/6 \| \d+\/s \| ETA/)
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(6)
  })

  it('Ctrl-C during a wait leaves the job running and says how to resume; resuming finishes it', async () => {
    const file = urlsFile(
      'slow.txt',
      Array.from({ length: 12 }, (_, i) => `${webUrl}/slow/${100 + i}`),
    )
    const child = spawn(process.execPath, [curataBin, ...withTarget(['scrape', file, '--wait'])], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    children.push(child)
    let stderr = ''
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    // The exit code, or the signal that ended the process (a failure then names it, with stderr).
    const exited = new Promise<number | string | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal)))
    await waitFor(() => /scrape job (\d+):/.test(stderr), 60_000, 'the job to be submitted')
    const id = /scrape job (\d+):/.exec(stderr)![1]
    child.kill('SIGINT')
    expect(await exited, stderr).toBe(130)
    expect(stderr).toContain(`scrape job ${id} keeps running on the server. Resume waiting with:\n  curata scrape --job ${id} --wait`)
    const out = join(dir, 'resumed.jsonl')
    const r = ok(await cli(withTarget(['scrape', '--job', id!, '--wait', '--out', out])))
    expect(r.stderr).toMatch(new RegExp(`scrape job ${id} complete: 12 results`))
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(12)
  })

  it('exits 1 with the API message for 401, 404 and 422', async () => {
    const unauthorized = await cli(['segments', 'list', '--url', server.url, '--api-key', 'cur_nope'])
    expect(unauthorized.code).toBe(1)
    expect(unauthorized.stderr).toMatch(/^curata: 401 unauthorized: /m)
    const missing = await cli(withTarget(['segments', 'get', '999999']))
    expect(missing.code).toBe(1)
    expect(missing.stderr).toMatch(/^curata: 404 not_found: segment request not found/m)
    const invalid = await cli(withTarget(['webhooks', 'create', 'ftp://example.com/hook', '--event', 'deal.stopped']))
    expect(invalid.code).toBe(1)
    expect(invalid.stderr).toMatch(/^curata: 422 validation_failed: url must be an http or https URL/m)
    const unreachable = await cli(['segments', 'list', '--url', 'http://127.0.0.1:9', '--api-key', key])
    expect(unreachable.code).toBe(1)
    expect(unreachable.stderr).toMatch(/could not reach http:\/\/127\.0\.0\.1:9/)
  })

  it('exits 2 for usage errors: an unknown option, a bad id, a missing argument, no service', async () => {
    for (const args of [
      withTarget(['segments', 'list', '--colour']),
      withTarget(['segments', 'get', 'abc']),
      withTarget(['activate', '1', '--seat', 's']),
      withTarget(['segments', 'urls', '1', '--format', 'xml']),
      withTarget(['segments', 'read']),
      withTarget(['scrape']),
      ['segments', 'list', '--api-key', key],
    ]) {
      const r = await cli(args, { CURATA_CONFIG: join(dir, 'absent.json') })
      expect(r.code, `${args.join(' ')}\n${r.stderr}`).toBe(2)
      expect(r.stderr.length, args.join(' ')).toBeGreaterThan(0)
    }
  })

  it('creates a segment and waits for it, lists it, and exports its URLs as CSV and JSON Lines', async () => {
    const created = ok(await cli(withTarget(['segments', 'create', '--prompt', 'cooking pasta at home', '--name', 'Pasta', '--wait', '--json'])))
    const seg = JSON.parse(created.stdout) as { id: number; status: string; processed_date: string | null }
    expect(seg.status).toBe('complete')
    const table = ok(await cli(withTarget(['segments', 'list'])))
    expect(table.stdout).toMatch(new RegExp(`│ ${seg.id}\\s+│ Pasta`))
    const csv = ok(await cli(withTarget(['segments', 'urls', String(seg.id)])))
    expect(csv.stdout.split('\r\n')[0]).toBe('rank,url,tld,score,taxonomy_id,level1_name,level2_name,level3_name,source,reasons')
    const jsonl = ok(await cli(withTarget(['segments', 'urls', String(seg.id), '--format', 'jsonl'])))
    expect(jsonl.stdout.trim().split('\n').filter(Boolean).length).toBe(csv.stdout.split('\r\n').filter(Boolean).length - 1)
  })

  it('reads a prompt without creating a segment; a prompt naming no topic says why, a blank one is a 400', async () => {
    const segments = async () => (JSON.parse(ok(await cli(withTarget(['segments', 'list', '--json']))).stdout) as unknown[]).length
    const before = await segments()
    const read = ok(await cli(withTarget(['segments', 'read', 'home cooking recipes for moms in Germany, not politics'])))
    expect(read.stdout).toMatch(/topics\s+│ Food & Drink \d+%/)
    expect(read.stdout).toMatch(/audience\s+│ moms/)
    expect(read.stdout).toMatch(/countries\s+│ DE/)
    expect(read.stdout).toMatch(/topics excluded\s+│ Politics/)
    const asJson = JSON.parse(ok(await cli(withTarget(['segments', 'read', 'moms aged 25-54', '--json']))).stdout) as { topical: boolean; message: string }
    expect(asJson.topical).toBe(false)
    expect(asJson.message).toContain('"moms" (audience)')
    const noTopic = ok(await cli(withTarget(['segments', 'read', 'moms aged 25-54'])))
    expect(noTopic.stderr).toContain('the prompt names no content topic: found')
    const blank = await cli(withTarget(['segments', 'read', '   ']))
    expect(blank.code).toBe(1)
    expect(blank.stderr).toMatch(/^curata: 400 invalid_request: body.prompt is empty/m)
    expect(await segments()).toBe(before)
  })

  it('manages webhooks: create shows the secret once, list, test, deliveries, delete', async () => {
    const receiver = createServer((_req, res) => res.end('ok'))
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`
    try {
      const created = JSON.parse(ok(await cli(withTarget(['webhooks', 'create', hook, '--event', 'segment.completed', '--json']))).stdout) as {
        id: number
        secret: string
      }
      expect(created.secret).toMatch(/^whsec_/)
      const list = ok(await cli(withTarget(['webhooks', 'list', '--json'])))
      expect(list.stdout).not.toContain(created.secret)
      ok(await cli(withTarget(['webhooks', 'test', String(created.id)])))
      await waitFor(
        async () =>
          (JSON.parse(ok(await cli(withTarget(['webhooks', 'deliveries', String(created.id), '--json']))).stdout) as { status: string }[])[0]?.status ===
          'delivered',
        30_000,
        'the test delivery',
      )
      ok(await cli(withTarget(['webhooks', 'delete', String(created.id)])))
      expect((await cli(withTarget(['webhooks', 'get', String(created.id)]))).code).toBe(1)
    } finally {
      receiver.close()
    }
  })
})
