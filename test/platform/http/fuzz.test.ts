import { request } from 'node:http'
import type { AddressInfo } from 'node:net'

import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'

import type { TestApp } from '../../helpers/app.ts'
import { createTestApp } from '../../helpers/app.ts'
import { describeEachEngine } from '../../helpers/db.ts'
import type { JsonSchema, Path } from './fuzz-schema.ts'
import { hostileParams, hostileValues, paths, replaceAt, sample, toJson } from './fuzz-schema.ts'

/**
 * No client input may produce a 5xx, a non-JSON error, or a hang — on any route: those the OpenAPI
 * document lists (so new routes are fuzzed without touching this file), the MCP endpoint (hidden
 * from it) and the pixel collector. Four strategies share a time budget per engine:
 *  1. junk: random bodies, content types, params, headers on every route;
 *  2. schema-directed: a valid body built from each route's request schema (and each query
 *     parameter) with one field replaced by a hostile value (NUL, lone surrogates, 1e308, 2^63,
 *     huge strings, deep nesting …), so the value gets past validation's first rejection;
 *  3. MCP: JSON-RPC junk, and each tool's arguments built from its inputSchema with hostile fields;
 *  4. collector: hostile query parameters and beacon bodies, always answered with the GIF.
 * FUZZ_SEED varies the inputs (the default is fixed so CI is reproducible; a failure prints the
 * seed and path to replay it), FUZZ_TIME_MS the budget per engine, FUZZ_RUNS the cap per strategy.
 */
const seed = Number(process.env.FUZZ_SEED ?? 20261122)
const budgetMs = Number(process.env.FUZZ_TIME_MS ?? 16_000)
const maxRuns = Number(process.env.FUZZ_RUNS ?? 100_000)
const hangMs = 10_000
const share = (fraction: number) => Math.round(budgetMs * fraction)
// Each test ends by its share of the budget, plus one request that may hang up to hangMs.
const timeoutFor = (ms: number) => ms + hangMs + 30_000

/** Percent-encodes every UTF-8 byte (encodeURIComponent throws on lone surrogates). */
const pct = (s: string) => Array.from(Buffer.from(s, 'utf8'), (b) => `%${b.toString(16).padStart(2, '0')}`).join('')

// Built as text: JSON.stringify itself overflows the stack on the depths we want to send.
const deepJson = (depth: number) => '{"description":'.repeat(depth) + '"x"' + '}'.repeat(depth)

const oddString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }), // lone surrogates, NUL, controls
  fc.constantFrom('\u0000', '\uD800', '%00', '../../etc/passwd', "'; DROP TABLE jobs; --", '\u202e', 'ＡＢＣ', '😀'.repeat(500)),
  fc.string({ minLength: 5000, maxLength: 20_000 }),
)
const oddNumber = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(1e308, -1e308, 2 ** 64, 2 ** 63, -(2 ** 63), 0.1, -0, Number.MAX_SAFE_INTEGER + 2))
const value = fc.oneof(oddString, oddNumber, fc.boolean(), fc.constant(null), fc.anything({ maxDepth: 4 }))
const body = fc.oneof(
  fc.anything({ maxDepth: 6, withObjectString: true }).map((v) => JSON.stringify(v) ?? 'null'),
  fc
    .dictionary(
      fc.constantFrom(
        'description',
        'name',
        'url',
        'u',
        'urls',
        'segment_ids',
        'dsp',
        'prompt',
        'example_urls',
        'use_case',
        'campaign_id',
        'start_date',
        'end_date',
        'dimensions',
        'expand',
        'block',
        'kpis',
        'budget',
        'geo',
        'limit',
      ),
      value,
    )
    .map((o) => JSON.stringify(o)),
  fc.integer({ min: 100, max: 100_000 }).map(deepJson),
  fc.integer({ min: 1, max: 300 }).map((n) => '['.repeat(n * 100)),
  oddString,
  fc.uint8Array({ maxLength: 2000 }).map((b) => Buffer.from(b).toString('latin1')),
)
const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'application/JSON',
  'text/plain',
  'application/x-ndjson',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  '',
  '\u0000',
  'application/json;;;',
)
const pathParam = fc.oneof(fc.integer().map(String), fc.constantFrom(...hostileParams), fc.string({ maxLength: 300 }).map(pct))
const query = fc.dictionary(
  fc.constantFrom('limit', 'offset', 'url', 'u', 'tld', 'result_taxonomy_leaf_id', 'q', 'x', 'parent_id', 'tier', 'type', 'reason', 'segment_id'),
  fc.oneof(oddString.map(pct), oddNumber.map(String), fc.constantFrom(...hostileParams)),
  { maxKeys: 4 },
)
const junkHeaders = fc.dictionary(
  fc.constantFrom('accept', 'accept-encoding', 'x-request-id', 'idempotency-key', 'x-forwarded-for', 'user-agent', 'referer'),
  oddString.map((s) => s.replace(/[^\x20-\x7e]/g, '')),
  { maxKeys: 3 },
)

interface Route {
  method: string
  path: string
  /** Query parameter names and the body schema, from the OpenAPI document. */
  query: string[]
  bodySchema: JsonSchema | null
}

interface Req {
  method: string
  url: string
  headers: Record<string, string>
  payload?: string
}

const fill = (path: string, param: string) => path.replace(/\{[^}]+\}/g, param)
const qs = (q: Record<string, string>) =>
  Object.entries(q)
    .map(([k, v]) => `${k}=${v}`)
    .join('&')

describeEachEngine('fuzzing every route', (getDb) => {
  let t: TestApp
  let key = ''
  let routes: Route[] = []
  let tools: { name: string; inputSchema: JsonSchema }[] = []
  const mcpHeaders = () => ({ 'x-api-key': key, 'content-type': 'application/json', accept: 'application/json, text/event-stream' })

  interface Res {
    statusCode: number
    headers: Record<string, string | string[] | number | undefined>
    body: string
  }

  async function send(r: Req): Promise<Res> {
    let timer: NodeJS.Timeout | undefined
    try {
      return await Promise.race([
        t.app.inject({ method: r.method as 'GET', url: r.url, headers: r.headers, ...(r.payload !== undefined ? { payload: r.payload } : {}) }),
        new Promise<never>((_res, reject) => {
          timer = setTimeout(() => reject(new Error(`hang: ${r.method} ${r.url}`)), hangMs)
        }),
      ])
    } finally {
      clearTimeout(timer)
    }
  }

  /** The invariants every answer keeps, whatever the route. */
  /**
   * Over a real connection: the collector's raw handler answers in front of Fastify, which
   * in-process requests never pass through.
   */
  function sendHttp(r: Req): Promise<Res> {
    const { port } = t.app.server.address() as AddressInfo
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method: r.method, path: r.url, headers: r.headers, timeout: hangMs, agent: false }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve({ statusCode: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('latin1') }))
      })
      req.on('timeout', () => req.destroy(new Error(`hang: ${r.method} ${r.url}`)))
      req.on('error', reject)
      req.end(r.payload)
    })
  }

  function check(r: Req, res: Res, viaHttp = false): void {
    const what = () =>
      `${r.method} ${r.url.slice(0, 300)} [${r.headers['content-type'] ?? ''}] ${(r.payload ?? '').slice(0, 300)} → ${res.statusCode} ${res.body.slice(0, 500)}`
    const path = r.url.split('?', 1)[0]!
    if (res.statusCode >= 500) throw new Error(`5xx: ${what()}`)
    // In-process requests reach only the collector's Fastify fallback routes; over HTTP its raw
    // handler must answer every hit with the GIF.
    if (path.startsWith('/px/') && viaHttp) {
      // Node's parser refuses a request line and headers beyond 16 KiB before any handler.
      if (res.statusCode === 431 && r.url.length > 16_000) return
      if (res.statusCode !== 200 || res.headers['content-type'] !== 'image/gif') throw new Error(`collector did not answer its GIF: ${what()}`)
      return
    }
    if (path === '/mcp' || path === '/mcp/') {
      if (res.body === '') return // 202 to a batch of notifications only
      const parsed = JSON.parse(res.body) as unknown
      // A tool failing "on our side" is a 500 in disguise: client input must not cause one.
      if (res.body.includes('on our side')) throw new Error(`MCP tool failed internally: ${what()} ${JSON.stringify(parsed).slice(0, 300)}`)
      return
    }
    // Browser-facing redirects outside /v1 (click tracking) may answer people in text.
    if (res.statusCode >= 400 && !path.startsWith('/px/') && (path.startsWith('/v1') || /json/.test(String(res.headers['content-type'])))) {
      let b: { error?: unknown; message?: unknown }
      try {
        b = JSON.parse(res.body) as typeof b
      } catch {
        throw new Error(`non-JSON error body: ${what()}`)
      }
      if (typeof b.error !== 'string' || typeof b.message !== 'string') throw new Error(`bad error body: ${what()}`)
    }
  }

  const run = (r: Req) => send(r).then((res) => check(r, res))
  // Counts the cases a strategy ran in its time: a budget that ends before real work is a failure.
  const assertFor = async <T>(arb: fc.Arbitrary<T>, fn: (v: T) => Promise<void>, ms: number) => {
    let cases = 0
    await fc.assert(
      fc.asyncProperty(arb, (v) => (cases++, fn(v))),
      { seed, numRuns: maxRuns, interruptAfterTimeLimit: ms },
    )
    console.log(`fuzz: ${cases} cases in ${ms} ms (seed ${seed})`)
    expect(cases).toBeGreaterThanOrEqual(Math.min(maxRuns, 25))
  }

  beforeAll(async () => {
    t = await createTestApp(getDb().db, { config: { rateLimitPerMinute: 1_000_000 } })
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    key = (await t.client('fuzzer')).key
    type Op = { parameters?: { in: string; name: string }[]; requestBody?: { content: Record<string, { schema: JsonSchema }> } }
    const doc = t.app.swagger() as { paths: Record<string, Record<string, Op>> }
    routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([m, op]) => ({
        method: m.toUpperCase(),
        path,
        query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        bodySchema: op.requestBody?.content['application/json']?.schema ?? null,
      })),
    )
    // Hidden from the document, fuzzed all the same.
    routes.push({ method: 'POST', path: '/mcp', query: [], bodySchema: null }, { method: 'GET', path: '/mcp', query: [], bodySchema: null })
    const list = await send({ method: 'POST', url: '/mcp', headers: mcpHeaders(), payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) })
    tools = (JSON.parse(list.body) as { result: { tools: typeof tools } }).result.tools
  }, 120_000)
  afterAll(() => t.close())

  it('covers the API, the collector and MCP, and builds bodies the API accepts', async () => {
    expect(routes.length).toBeGreaterThan(20)
    expect(routes.some((r) => r.path.startsWith('/px/'))).toBe(true)
    expect(tools.map((x) => x.name)).toContain('get_signals')
    // The schema-directed strategy is only worth its time if its pristine bodies get through.
    let accepted = 0
    for (const r of routes.filter((x) => x.bodySchema)) {
      const req = {
        method: r.method,
        url: fill(r.path, '1'),
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        payload: toJson(sample(r.bodySchema!)),
      }
      const res = await send(req)
      check(req, res)
      if (res.statusCode < 300) accepted++
    }
    expect(accepted).toBeGreaterThanOrEqual(3)
  })

  it('survives junk on every route', { timeout: timeoutFor(share(0.35)) }, async () => {
    await assertFor(
      fc.tuple(fc.nat(), pathParam, query, body, contentType, fc.constantFrom('key', 'bearer', 'none', 'junk'), junkHeaders),
      async ([pick, param, q, payload, ct, auth, junk]) => {
        const route = routes[pick % routes.length]!
        const headers: Record<string, string> = { ...junk }
        if (ct) headers['content-type'] = ct.replaceAll('\u0000', '')
        if (auth === 'key') headers['x-api-key'] = key
        if (auth === 'bearer') headers.authorization = `Bearer ${key}`
        if (auth === 'junk') headers['x-api-key'] = 'cur_' + param
        const withBody = route.method !== 'GET' && route.method !== 'DELETE'
        await run({ method: route.method, url: `${fill(route.path, param)}?${qs(q)}`, headers, ...(withBody ? { payload } : {}) })
      },
      share(0.35),
    )
  })

  it('survives a hostile value in any one field or parameter of a valid request', { timeout: timeoutFor(share(0.35)) }, async () => {
    const targets = routes
      .filter((r) => !r.path.startsWith('/px/') && !r.path.startsWith('/mcp'))
      .map((r) => {
        const base = r.bodySchema ? sample(r.bodySchema) : undefined
        return { route: r, base, fields: base === undefined ? [] : paths(base) }
      })
    await assertFor(
      fc.tuple(fc.nat(), fc.nat(), fc.nat(), fc.constantFrom(...hostileParams), fc.constantFrom('body', 'query', 'path')),
      async ([pick, fieldPick, hostilePick, param, where]) => {
        const { route, base, fields } = targets[pick % targets.length]!
        const headers = { 'x-api-key': key, 'content-type': 'application/json' }
        let url = fill(route.path, where === 'path' ? param : '1')
        if (where === 'query' && route.query.length) url += `?${route.query[fieldPick % route.query.length]}=${param}`
        let payload: string | undefined
        if (base !== undefined) {
          const field: Path = where === 'body' ? fields[fieldPick % fields.length]! : ['__none__']
          payload = toJson(where === 'body' ? replaceAt(base, field, hostileValues[hostilePick % hostileValues.length]) : base)
        }
        await run({ method: route.method, url, headers, ...(payload !== undefined ? { payload } : {}) })
      },
      share(0.35),
    )
  })

  it('survives JSON-RPC junk and hostile tool arguments on /mcp', { timeout: timeoutFor(share(0.15)) }, async () => {
    const junkRpc = fc.record(
      {
        jsonrpc: fc.constantFrom('2.0', '1.0', 2, null),
        id: fc.oneof(fc.integer(), oddString, fc.constant(null), fc.double(), fc.object()),
        method: fc.constantFrom('initialize', 'tools/list', 'tools/call', 'ping', 'resources/list', 'prompts/get', 'notifications/initialized', '', '\u0000x'),
        params: fc.oneof(
          fc.anything({ maxDepth: 3 }),
          fc.record({ name: fc.oneof(fc.constantFrom(...tools.map((x) => x.name)), oddString), arguments: fc.anything({ maxDepth: 4 }) }),
        ),
      },
      { requiredKeys: [] },
    )
    const toolCall = fc.tuple(fc.nat(), fc.nat(), fc.nat()).map(([pick, fieldPick, hostilePick]) => {
      const tool = tools[pick % tools.length]!
      const base = sample(tool.inputSchema)
      const fields = paths(base)
      const args = replaceAt(base, fields[fieldPick % fields.length]!, hostileValues[hostilePick % hostileValues.length])
      return { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool.name, arguments: args } }
    })
    await assertFor(
      fc.oneof(
        junkRpc.map((m) => JSON.stringify(m)),
        fc.array(junkRpc, { maxLength: 5 }).map((m) => JSON.stringify(m)),
        toolCall.map(toJson),
        body,
      ),
      (payload) => run({ method: 'POST', url: '/mcp', headers: mcpHeaders(), payload }),
      share(0.15),
    )
  })

  it('answers every pixel hit with the GIF whatever its parameters or beacon body (over HTTP)', { timeout: timeoutFor(share(0.15)) }, async () => {
    const pixelParams = fc.dictionary(
      fc.constantFrom('u', 'r', 'd', 'deal', 'price', 'cur', 'cb', 'imp', 'site', 'dsp', '%00'),
      fc.oneof(fc.constantFrom(...hostileParams), oddString.map(pct)),
      { maxKeys: 6 },
    )
    const file = fc.oneof(fc.constantFrom('1.gif', '1', '0.gif', '99999999999999999999.gif'), pathParam)
    await assertFor(
      fc.tuple(fc.boolean(), file, pixelParams, fc.oneof(body, pixelParams.map(qs)), contentType),
      async ([beacon, f, params, payload, ct]) => {
        const headers: Record<string, string> = ct ? { 'content-type': ct.replaceAll('\u0000', '') } : {}
        const r: Req = beacon ? { method: 'POST', url: `/px/${f}`, headers, payload } : { method: 'GET', url: `/px/${f}?${qs(params)}`, headers }
        check(r, await sendHttp(r), true)
      },
      share(0.15),
    )
  })
})
