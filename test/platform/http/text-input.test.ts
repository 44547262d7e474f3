import { afterAll, beforeAll, expect, it } from 'vitest'

import { findRefusedInput, MAX_DEPTH } from '../../../src/platform/http/text-input.ts'
import type { TestApp } from '../../helpers/app.ts'
import { createTestApp, json } from '../../helpers/app.ts'
import { describeEachEngine } from '../../helpers/db.ts'

/**
 * U+0000 and lone surrogates in any string of any request (body values and keys, query, path) are
 * a 400 naming the field, on every feature's routes, instead of a database failure answered 500.
 */
describeEachEngine('request text the database cannot store', (getDb) => {
  let t: TestApp
  let headers: Record<string, string>
  beforeAll(async () => {
    t = await createTestApp(getDb().db)
    headers = { ...(await t.client('texter')).headers, 'content-type': 'application/json' }
  })
  afterAll(() => t.close())

  const post = (url: string, payload: string) => t.app.inject({ method: 'POST', url, headers, payload })

  it.each([
    ['snowball campaign description', '/v1/snowball/campaigns', '{"description":"a\\u0000b"}', 'body.description'],
    ['pixel campaign name', '/v1/pixel/campaigns', '{"name":"P\\u0000x","use_case":"campaign_reporting"}', 'body.name'],
    ['curation segment prompt', '/v1/curation/segment-requests', '{"prompt":"cooking\\u0000 recipes"}', 'body.prompt'],
    ['an element of an array', '/v1/curation/segment-requests', '{"example_urls":["https://a.example/","https://b.example/\\u0000"]}', 'body.example_urls.1'],
    ['a lone high surrogate', '/v1/snowball/campaigns', '{"description":"x\\ud800y"}', 'body.description'],
    ['a lone low surrogate', '/v1/pixel/campaigns', '{"name":"\\udc00","use_case":"campaign_reporting"}', 'body.name'],
    ['an object key', '/v1/snowball/campaigns', '{"desc\\u0000ription":"x"}', 'body."desc\\u0000ription"'],
  ])('answers 400 invalid_request naming the field for NUL or a lone surrogate in %s', async (_name, url, payload, path) => {
    const res = await post(url, payload)
    expect(res.statusCode).toBe(400)
    const body = json<{ error: string; message: string; details: { path: string }[] }>(res)
    expect(body.error).toBe('invalid_request')
    expect(body.details[0]!.path).toBe(path)
    expect(body.message).toContain(path)
  })

  it('answers 400 for a body nested deeper than MAX_DEPTH, where hashing it for an Idempotency-Key overflowed the stack (a 500)', async () => {
    const payload = `${'{"description":'.repeat(5000)}"x"${'}'.repeat(5000)}`
    for (const url of ['/v1/curation/segment-requests', '/v1/curation/prompt-interpretations', '/v1/snowball/campaigns']) {
      const res = await t.app.inject({ method: 'POST', url, headers: { ...headers, 'idempotency-key': `deep-${url}` }, payload })
      expect(res.statusCode, url).toBe(400)
      const body = json<{ error: string; message: string }>(res)
      expect(body.error).toBe('invalid_request')
      expect(body.message).toContain(`is nested deeper than ${MAX_DEPTH} levels`)
    }
  })

  it('leaves scrape jobs to report such an entry among invalid_urls instead of refusing the batch', async () => {
    const res = await post('/v1/scraping/jobs', '{"urls":["bad\\u0000entry","https://example.com/\\u0000"]}')
    expect(res.statusCode).toBe(201)
    const job = json<{ url_count: number; invalid_urls: { index: number }[] }>(res)
    // A NUL inside a URL path is percent-encoded by URL parsing, so only the first entry is invalid.
    expect(job.invalid_urls.map((i) => i.index)).toEqual([0])
    expect(job.url_count).toBe(2)
  })

  it('stores nothing and keeps an idempotency key unused when it refuses', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/snowball/campaigns',
      headers: { ...headers, 'idempotency-key': 'nul-1' },
      payload: '{"description":"a\\u0000b"}',
    })
    expect(res.statusCode).toBe(400)
    const again = await t.app.inject({
      method: 'POST',
      url: '/v1/snowball/campaigns',
      headers: { ...headers, 'idempotency-key': 'nul-1' },
      payload: '{"description":"fine"}',
    })
    expect(again.statusCode).toBe(201)
    const list = await t.app.inject({ method: 'GET', url: '/v1/snowball/campaigns', headers })
    expect(json<{ description: string }[]>(list).map((c) => c.description)).toEqual(['fine'])
  })

  it('accepts valid text outside the Basic Multilingual Plane (surrogate pairs)', async () => {
    const res = await post('/v1/snowball/campaigns', '{"description":"\\ud83d\\ude00 ok 😀"}')
    expect(res.statusCode).toBe(201)
    expect(json(res).description).toBe('😀 ok 😀')
  })

  it.each([
    ['a query value', '/v1/snowball/campaigns?x=%00', 'query.x'],
    ['a typed query value', '/v1/curation/segment-requests?limit=1%00', 'query.limit'],
    ['a query key', '/v1/snowball/campaigns?a%00b=1', 'query."a\\u0000b"'],
    ['a path param', '/v1/pixel/campaigns/1%00/tag', 'path.id'],
  ])('answers 400 for %%00 in %s', async (_name, url, path) => {
    const res = await t.app.inject({ method: 'GET', url, headers })
    expect(res.statusCode).toBe(400)
    expect(json<{ details: { path: string }[] }>(res).details[0]!.path).toBe(path)
  })

  it.each([
    ['malformed percent-encoding', '/v1/snowball/campaigns/%'],
    ['an overlong path parameter', `/v1/snowball/campaigns/${'1'.repeat(500)}`],
  ])('answers %s in the path with 400 in the catalog format', async (_name, url) => {
    const res = await t.app.inject({ method: 'GET', url, headers })
    expect(res.statusCode).toBe(400)
    expect(json(res)).toEqual({ error: 'invalid_request', message: expect.any(String) })
    expect(res.headers['x-request-id']).toBeTruthy()
  })

  it('answers the MCP endpoint with 400 before any tool sees the text', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...headers, accept: 'application/json, text/event-stream' },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_signals', arguments: { signal_spec: 'a\u0000b' } } }),
    })
    expect(res.statusCode).toBe(400)
    expect(json<{ details: { path: string }[] }>(res).details[0]!.path).toBe('body.params.arguments.signal_spec')
  })

  it('leaves the pixel collector to answer its GIF whatever the input', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/px/%00.gif?u=%00' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('image/gif')
  })
})

it('finds bad text at any depth it reads, and refuses nesting deeper than MAX_DEPTH, without recursion', () => {
  const nested = (levels: number, inner: unknown): unknown => {
    let v = inner
    for (let i = 0; i < levels; i++) v = [v]
    return v
  }
  expect(findRefusedInput(nested(MAX_DEPTH, 'a\u0000'), 'body')?.path).toBe(`body${'.0'.repeat(MAX_DEPTH)}`)
  expect(findRefusedInput(nested(MAX_DEPTH, 'fine'), 'body')).toBeNull()
  expect(findRefusedInput(nested(MAX_DEPTH + 1, 'fine'), 'body')).toEqual({
    path: `body${'.0'.repeat(MAX_DEPTH)}`,
    problem: `is nested deeper than ${MAX_DEPTH} levels`,
  })
  expect(findRefusedInput(nested(200_000, 'a\u0000'), 'body')?.problem).toBe(`is nested deeper than ${MAX_DEPTH} levels`)
  expect(findRefusedInput({ a: [1, null, true, { b: 'fine' }] }, 'body')).toBeNull()
})
