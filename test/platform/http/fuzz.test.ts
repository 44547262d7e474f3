import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'

import type { TestApp } from '../../helpers/app.ts'
import { createTestApp } from '../../helpers/app.ts'
import { describeEachEngine } from '../../helpers/db.ts'

/**
 * Throws malformed input at every route the OpenAPI document lists (so new routes are fuzzed without
 * touching this file): no input may produce a 500, a non-JSON error, or a hang.
 */
// Built as text: JSON.stringify itself overflows the stack on the depths we want to send.
const deepJson = (depth: number) => '{"description":'.repeat(depth) + '"x"' + '}'.repeat(depth)

const oddString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.constantFrom('\u0000', '\uD800', '%00', '../../etc/passwd', "'; DROP TABLE jobs; --", '\u202e', 'ＡＢＣ', '😀'.repeat(500)),
  fc.string({ minLength: 5000, maxLength: 20_000 }),
)
const oddNumber = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(1e308, -1e308, 2 ** 64, -(2 ** 63), 0.1, -0, Number.MAX_SAFE_INTEGER + 2),
)
const value = fc.oneof(oddString, oddNumber, fc.boolean(), fc.constant(null), fc.anything({ maxDepth: 4 }))
const body = fc.oneof(
  fc.anything({ maxDepth: 6, withObjectString: true }).map((v) => JSON.stringify(v) ?? 'null'),
  fc.dictionary(fc.constantFrom('description', 'name', 'url', 'u', 'urls', 'segment_ids', 'dsp', 'prompt', 'example_urls', 'use_case', 'campaign_id', 'start_date', 'end_date', 'dimensions', 'expand', 'block', 'kpis', 'budget', 'geo', 'limit'), value).map((o) => JSON.stringify(o)),
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
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  '',
  '\u0000',
  'application/json;;;',
)
const pathParam = fc.oneof(
  fc.integer().map(String),
  fc.constantFrom('0', '-1', '1e3', '99999999999999999999999', '1.5', 'null', '%2e%2e', '%ZZ', 'ᚠ', ' '),
  fc.string({ maxLength: 300 }).map(encodeURIComponent),
)
const query = fc.dictionary(fc.constantFrom('limit', 'offset', 'url', 'u', 'tld', 'result_taxonomy_leaf_id', 'q', 'x'), fc.oneof(oddString, oddNumber.map(String)), { maxKeys: 4 })

describeEachEngine('fuzzing every route', (getDb) => {
  let t: TestApp
  let key = ''
  let routes: { method: string; path: string }[] = []
  beforeAll(async () => {
    t = await createTestApp(getDb().db, { config: { rateLimitPerMinute: 1_000_000 } })
    key = (await t.client('fuzzer')).key
    const doc = t.app.swagger() as { paths: Record<string, Record<string, unknown>> }
    routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).filter((m) => m !== 'parameters').map((m) => ({ method: m.toUpperCase(), path })),
    )
  })
  afterAll(() => t.close())

  it('lists the routes it fuzzes', () => {
    expect(routes.length).toBeGreaterThan(3)
  })

  it('never answers 500, never hangs, always with {error, message} on failure', async () => {
    const runs = Number(process.env.FUZZ_RUNS ?? 1500)
    await fc.assert(
      fc.asyncProperty(
        fc.nat(),
        pathParam,
        query,
        body,
        contentType,
        fc.constantFrom('key', 'bearer', 'none', 'junk'),
        fc.dictionary(fc.constantFrom('accept', 'accept-encoding', 'x-request-id', 'idempotency-key', 'x-forwarded-for', 'user-agent', 'referer'), oddString.map((s) => s.replace(/[^\x20-\x7e]/g, '')), { maxKeys: 3 }),
        async (pick, param, q, payload, ct, auth, junk) => {
          const route = routes[pick % routes.length]!
          const url = route.path.replace(/\{[^}]+\}/g, param) + '?' + new URLSearchParams(q as Record<string, string>).toString()
          const headers: Record<string, string> = { ...junk }
          if (ct) headers['content-type'] = ct.replaceAll('\u0000', '')
          if (auth === 'key') headers['x-api-key'] = key
          if (auth === 'bearer') headers.authorization = `Bearer ${key}`
          if (auth === 'junk') headers['x-api-key'] = 'cur_' + param
          const withBody = route.method !== 'GET' && route.method !== 'DELETE'
          const res = await Promise.race([
            t.app.inject({ method: route.method as 'GET', url, headers, ...(withBody ? { payload } : {}) }),
            new Promise<never>((_r, reject) => setTimeout(() => reject(new Error(`hang: ${route.method} ${url}`)), 10_000)),
          ])
          if (res.statusCode >= 500) throw new Error(`${res.statusCode} for ${route.method} ${url} ${ct} ${payload.slice(0, 200)}: ${res.body}`)
          if (res.statusCode >= 400) {
            const b = JSON.parse(res.body) as { error: unknown; message: unknown }
            if (typeof b.error !== 'string' || typeof b.message !== 'string') throw new Error(`bad error body ${res.body}`)
          }
        },
      ),
      { numRuns: runs, interruptAfterTimeLimit: 240_000 },
    )
  })
})
