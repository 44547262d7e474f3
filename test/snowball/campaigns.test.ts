import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { TestApp } from '../helpers/app.ts'
import { createTestApp, json } from '../helpers/app.ts'
import { describeEachEngine } from '../helpers/db.ts'

describeEachEngine('snowball campaigns', (getDb) => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp(getDb().db)
  })
  afterAll(() => t.close())

  it('registers a campaign for the key’s client whatever client_id the body carries', async () => {
    const a = await t.client('Acme')
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/snowball/campaigns',
      headers: a.headers,
      payload: { client_id: '999', description: 'Spring launch' },
    })
    expect(res.statusCode).toBe(201)
    const body = json(res)
    expect(body).toMatchObject({ client_id: a.clientId, description: 'Spring launch', deleted: false })
    expect(typeof body.id).toBe('number')
    expect(body.created_date).toBe('2026-11-22T10:00:00.000Z')
    expect(body.last_updated_date).toBe(body.created_date)
  })

  it('lists only the key’s own campaigns, oldest first', async () => {
    const a = await t.client()
    const b = await t.client()
    for (const d of ['one', 'two']) {
      await t.app.inject({ method: 'POST', url: '/v1/snowball/campaigns', headers: a.headers, payload: { description: d } })
    }
    await t.app.inject({ method: 'POST', url: '/v1/snowball/campaigns', headers: b.headers, payload: { description: 'b' } })
    const res = await t.app.inject({ method: 'GET', url: '/v1/snowball/campaigns', headers: a.headers })
    expect(res.statusCode).toBe(200)
    expect(json<{ description: string }[]>(res).map((c) => c.description)).toEqual(['one', 'two'])
    const other = json<{ client_id: number }[]>(
      await t.app.inject({ method: 'GET', url: '/v1/snowball/campaigns', headers: b.headers }),
    )
    expect(other.map((c) => c.client_id)).toEqual([b.clientId])
  })

  it('accepts Authorization: Bearer as well as X-API-Key', async () => {
    const a = await t.client()
    const res = await t.app.inject({ method: 'GET', url: '/v1/snowball/campaigns', headers: { authorization: `Bearer ${a.key}` } })
    expect(res.statusCode).toBe(200)
  })

  describe('bad input', () => {
    const cases: [string, Record<string, string>, string | undefined, number, string][] = [
      ['no body', {}, undefined, 400, 'invalid_request'],
      ['missing description', { 'content-type': 'application/json' }, '{"client_id":"1"}', 400, 'invalid_request'],
      ['description of the wrong type', { 'content-type': 'application/json' }, '{"description":5}', 400, 'invalid_request'],
      ['empty description', { 'content-type': 'application/json' }, '{"description":""}', 422, 'validation_failed'],
      ['array body', { 'content-type': 'application/json' }, '[1,2]', 400, 'invalid_request'],
      ['malformed JSON', { 'content-type': 'application/json' }, '{"description": "x"', 400, 'invalid_json'],
      ['empty JSON body', { 'content-type': 'application/json' }, '', 400, 'invalid_json'],
      ['text body', { 'content-type': 'text/plain' }, 'description=x', 415, 'unsupported_media_type'],
      ['form body', { 'content-type': 'application/x-www-form-urlencoded' }, 'description=x', 415, 'unsupported_media_type'],
      ['prototype pollution', { 'content-type': 'application/json' }, '{"description":"x","__proto__":{"a":1}}', 400, 'invalid_json'],
    ]
    for (const [name, headers, payload, status, code] of cases) {
      it(`${name} → ${status} ${code}`, async () => {
        const a = await t.client()
        const res = await t.app.inject({
          method: 'POST',
          url: '/v1/snowball/campaigns',
          headers: { ...a.headers, ...headers },
          ...(payload !== undefined ? { payload } : {}),
        })
        expect(res.statusCode).toBe(status)
        const body = json(res)
        expect(body.error).toBe(code)
        expect(typeof body.message).toBe('string')
        expect(body.message.length).toBeGreaterThan(5)
      })
    }

    it('names the field that failed', async () => {
      const a = await t.client()
      const res = await t.app.inject({ method: 'POST', url: '/v1/snowball/campaigns', headers: a.headers, payload: { client_id: 'x' } })
      expect(json<{ details: { path: string }[] }>(res).details[0]!.path).toBe('body.description')
    })

    it('rejects a body over the size limit with 413', async () => {
      const a = await t.client()
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/snowball/campaigns',
        headers: { ...a.headers, 'content-type': 'application/json' },
        payload: JSON.stringify({ description: 'x'.repeat(2 * 1024 * 1024) }),
      })
      expect(res.statusCode).toBe(413)
      expect(json(res).error).toBe('payload_too_large')
    })
  })
})
