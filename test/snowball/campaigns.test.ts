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
    const other = json<{ client_id: number }[]>(await t.app.inject({ method: 'GET', url: '/v1/snowball/campaigns', headers: b.headers }))
    expect(other.map((c) => c.client_id)).toEqual([b.clientId])
  })

  it('gets one campaign; another client’s answers 404 exactly like a missing one', async () => {
    const a = await t.client()
    const b = await t.client()
    const created = json<{ id: number }>(
      await t.app.inject({ method: 'POST', url: '/v1/snowball/campaigns', headers: a.headers, payload: { description: 'mine' } }),
    )
    const own = await t.app.inject({ method: 'GET', url: `/v1/snowball/campaigns/${created.id}`, headers: a.headers })
    expect(json(own)).toMatchObject({ id: created.id, description: 'mine' })
    const theirs = await t.app.inject({ method: 'GET', url: `/v1/snowball/campaigns/${created.id}`, headers: b.headers })
    const missing = await t.app.inject({ method: 'GET', url: '/v1/snowball/campaigns/999999', headers: b.headers })
    expect(theirs.statusCode).toBe(404)
    expect(theirs.body).toBe(missing.body)
    expect(json(theirs)).toEqual({ error: 'not_found', message: 'campaign not found' })
    const bad = await t.app.inject({ method: 'GET', url: '/v1/snowball/campaigns/abc', headers: a.headers })
    expect(bad.statusCode).toBe(400)
    const zero = await t.app.inject({ method: 'GET', url: '/v1/snowball/campaigns/0', headers: a.headers })
    expect(zero.statusCode).toBe(422)
  })

  describe('update and delete (additions to the spec)', () => {
    const create = async (headers: Record<string, string>, description: string) =>
      json<{ id: number }>(await t.app.inject({ method: 'POST', url: '/v1/snowball/campaigns', headers, payload: { description } })).id

    it('changes the description and last_updated_date, not created_date', async () => {
      const a = await t.client()
      const id = await create(a.headers, 'draft')
      const res = await t.app.inject({ method: 'PATCH', url: `/v1/snowball/campaigns/${id}`, headers: a.headers, payload: { description: 'final' } })
      expect(res.statusCode).toBe(200)
      expect(json(res)).toMatchObject({ id, description: 'final', created_date: '2026-11-22T10:00:00.000Z', deleted: false })
      expect(json(await t.app.inject({ method: 'GET', url: `/v1/snowball/campaigns/${id}`, headers: a.headers }))).toMatchObject({ description: 'final' })
    })

    it('soft-deletes: answers the record with deleted true, then 404 and gone from the list', async () => {
      const a = await t.client()
      const id = await create(a.headers, 'to go')
      const kept = await create(a.headers, 'to keep')
      const res = await t.app.inject({ method: 'DELETE', url: `/v1/snowball/campaigns/${id}`, headers: a.headers })
      expect(res.statusCode).toBe(200)
      expect(json(res)).toMatchObject({ id, deleted: true })
      expect((await t.app.inject({ method: 'GET', url: `/v1/snowball/campaigns/${id}`, headers: a.headers })).statusCode).toBe(404)
      expect((await t.app.inject({ method: 'DELETE', url: `/v1/snowball/campaigns/${id}`, headers: a.headers })).statusCode).toBe(404)
      expect((await t.app.inject({ method: 'PATCH', url: `/v1/snowball/campaigns/${id}`, headers: a.headers, payload: { description: 'x' } })).statusCode).toBe(
        404,
      )
      const list = json<{ id: number }[]>(await t.app.inject({ method: 'GET', url: '/v1/snowball/campaigns', headers: a.headers }))
      expect(list.map((c) => c.id)).toEqual([kept])
      const { rows } = await getDb().db.query<{ deleted: boolean }>('SELECT deleted FROM snowball_campaigns WHERE id = $1', [id])
      expect(rows).toEqual([{ deleted: true }])
    })

    it('answers another client’s campaign 404 and leaves it alone', async () => {
      const a = await t.client()
      const b = await t.client()
      const id = await create(a.headers, 'mine')
      for (const [method, payload] of [
        ['PATCH', { description: 'theirs' }],
        ['DELETE', undefined],
      ] as const) {
        const res = await t.app.inject({ method, url: `/v1/snowball/campaigns/${id}`, headers: b.headers, ...(payload ? { payload } : {}) })
        expect(res.statusCode).toBe(404)
      }
      expect(json(await t.app.inject({ method: 'GET', url: `/v1/snowball/campaigns/${id}`, headers: a.headers }))).toMatchObject({
        description: 'mine',
        deleted: false,
      })
    })

    it.each([
      ['an empty description', { description: '' }, 422],
      ['a description of the wrong type', { description: 7 }, 400],
      ['no description', {}, 400],
      ['an unknown field', { description: 'x', deleted: true }, 400],
    ])('refuses %s', async (_name, payload, status) => {
      const a = await t.client()
      const id = await create(a.headers, 'x')
      const res = await t.app.inject({ method: 'PATCH', url: `/v1/snowball/campaigns/${id}`, headers: a.headers, payload })
      expect(res.statusCode).toBe(status)
      expect(json(res)).toMatchObject({ error: expect.any(String), message: expect.any(String) })
    })
  })

  it('accepts Authorization: Bearer as well as X-API-Key', async () => {
    const a = await t.client()
    const res = await t.app.inject({ method: 'GET', url: '/v1/snowball/campaigns', headers: { authorization: `Bearer ${a.key}` } })
    expect(res.statusCode).toBe(200)
  })

  describe('Idempotency-Key', () => {
    const post = (headers: Record<string, string>, description: unknown) =>
      t.app.inject({ method: 'POST', url: '/v1/snowball/campaigns', headers, payload: { description } })

    it('returns the original campaign to a retry instead of registering twice', async () => {
      const a = await t.client()
      const h = { ...a.headers, 'idempotency-key': 'order-123' }
      const first = await post(h, 'once')
      const again = await post(h, 'once')
      expect(first.statusCode).toBe(201)
      expect(again.statusCode).toBe(201)
      expect(again.headers['idempotent-replayed']).toBe('true')
      expect(json(again)).toEqual(json(first))
      const list = json<unknown[]>(await t.app.inject({ method: 'GET', url: '/v1/snowball/campaigns', headers: a.headers }))
      expect(list).toHaveLength(1)
    })

    it('refuses the same key with another body (409) and keeps keys per client', async () => {
      const a = await t.client()
      const b = await t.client()
      expect((await post({ ...a.headers, 'idempotency-key': 'k1' }, 'x')).statusCode).toBe(201)
      const clash = await post({ ...a.headers, 'idempotency-key': 'k1' }, 'y')
      expect(clash.statusCode).toBe(409)
      expect(json(clash).error).toBe('conflict')
      const other = await post({ ...b.headers, 'idempotency-key': 'k1' }, 'y')
      expect(other.statusCode).toBe(201)
      expect(json(other).client_id).toBe(b.clientId)
    })

    it('frees the key when the first attempt failed', async () => {
      const a = await t.client()
      const h = { ...a.headers, 'idempotency-key': 'k2' }
      expect((await post(h, '')).statusCode).toBe(422)
      expect((await post(h, 'fixed')).statusCode).toBe(201)
    })

    it('rejects a malformed key', async () => {
      const a = await t.client()
      const res = await post({ ...a.headers, 'idempotency-key': 'x'.repeat(300) }, 'x')
      expect(res.statusCode).toBe(400)
      expect(json(res).error).toBe('invalid_request')
    })
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
        const body = json<{ error: string; message: string }>(res)
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
