import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestApp } from '../helpers/app.ts'
import { createTestApp, json } from '../helpers/app.ts'
import { ManualClock } from '../helpers/clock.ts'
import { describeEachEngine } from '../helpers/db.ts'

interface Campaign {
  id: number
  name: string
  use_case: string
  description: string | null
  created_date: string
  last_updated_date: string
}

describeEachEngine('pixel campaigns', (getDb) => {
  let t: TestApp
  const clock = new ManualClock('2026-11-22T10:00:00Z')
  beforeAll(async () => {
    t = await createTestApp(getDb().db, { clock })
  })
  afterAll(() => t.close())

  const create = (headers: Record<string, string>, payload: unknown) =>
    t.app.inject({ method: 'POST', url: '/v1/pixel/campaigns', headers, payload: payload as object })

  it('creates a campaign (201) with every spec field', async () => {
    const a = await t.client()
    const res = await create(a.headers, { name: 'Daily News', use_case: 'publisher_bot_detection', description: 'main site' })
    expect(res.statusCode).toBe(201)
    const c = json<Campaign>(res)
    expect(c).toEqual({
      id: c.id,
      name: 'Daily News',
      use_case: 'publisher_bot_detection',
      description: 'main site',
      created_date: '2026-11-22T10:00:00.000Z',
      last_updated_date: '2026-11-22T10:00:00.000Z',
    })
    const bare = json<Campaign>(await create(a.headers, { name: 'No description', use_case: 'other' }))
    expect(bare.description).toBeNull()
  })

  it('lists only the key’s own campaigns, and 404s another client’s exactly like a missing one', async () => {
    const a = await t.client()
    const b = await t.client()
    const mine = json<Campaign>(await create(a.headers, { name: 'A1', use_case: 'campaign_reporting' }))
    await create(a.headers, { name: 'A2', use_case: 'campaign_optimization' })
    await create(b.headers, { name: 'B1', use_case: 'other' })
    const list = json<Campaign[]>(await t.app.inject({ method: 'GET', url: '/v1/pixel/campaigns', headers: a.headers }))
    expect(list.map((c) => c.name)).toEqual(['A1', 'A2'])

    const own = await t.app.inject({ method: 'GET', url: `/v1/pixel/campaigns/${mine.id}`, headers: a.headers })
    expect(json(own)).toMatchObject({ id: mine.id, name: 'A1' })
    const theirs = await t.app.inject({ method: 'GET', url: `/v1/pixel/campaigns/${mine.id}`, headers: b.headers })
    const missing = await t.app.inject({ method: 'GET', url: '/v1/pixel/campaigns/987654', headers: b.headers })
    expect(theirs.statusCode).toBe(404)
    expect(theirs.body).toBe(missing.body)
    expect(json(theirs)).toEqual({ error: 'not_found', message: 'campaign not found' })
    const put = await t.app.inject({ method: 'PUT', url: `/v1/pixel/campaigns/${mine.id}`, headers: b.headers, payload: { name: 'x' } })
    expect(put.statusCode).toBe(404)
    expect(put.body).toBe(missing.body)
  })

  it('updates only the fields sent and moves last_updated_date', async () => {
    const a = await t.client()
    const c = json<Campaign>(await create(a.headers, { name: 'Old', use_case: 'other', description: 'keep me' }))
    clock.advance(60_000)
    const res = await t.app.inject({ method: 'PUT', url: `/v1/pixel/campaigns/${c.id}`, headers: a.headers, payload: { name: 'New' } })
    expect(res.statusCode).toBe(200)
    const u = json<Campaign>(res)
    expect(u).toMatchObject({ id: c.id, name: 'New', use_case: 'other', description: 'keep me', created_date: c.created_date })
    expect(u.last_updated_date).toBe('2026-11-22T10:01:00.000Z')
    const cleared = json<Campaign>(
      await t.app.inject({
        method: 'PUT',
        url: `/v1/pixel/campaigns/${c.id}`,
        headers: a.headers,
        payload: { description: null, use_case: 'publisher_agent_targeting' },
      }),
    )
    expect(cleared).toMatchObject({ name: 'New', use_case: 'publisher_agent_targeting', description: null })
    const again = json<Campaign>(await t.app.inject({ method: 'GET', url: `/v1/pixel/campaigns/${c.id}`, headers: a.headers }))
    expect(again).toEqual(cleared)
  })

  it('replays a creating POST with the same Idempotency-Key instead of creating twice', async () => {
    const a = await t.client()
    const h = { ...a.headers, 'idempotency-key': 'px-1' }
    const first = await create(h, { name: 'Once', use_case: 'other' })
    const again = await create(h, { name: 'Once', use_case: 'other' })
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(json(again)).toEqual(json(first))
    expect(json<unknown[]>(await t.app.inject({ method: 'GET', url: '/v1/pixel/campaigns', headers: a.headers }))).toHaveLength(1)
  })

  describe('validation', () => {
    const cases: [string, unknown, number, string, string][] = [
      ['missing name', { use_case: 'other' }, 400, 'invalid_request', 'body.name'],
      ['missing use_case', { name: 'x' }, 400, 'invalid_request', 'body.use_case'],
      ['name of the wrong type', { name: 5, use_case: 'other' }, 400, 'invalid_request', 'body.name'],
      ['use_case of the wrong type', { name: 'x', use_case: 3 }, 400, 'invalid_request', 'body.use_case'],
      ['description of the wrong type', { name: 'x', use_case: 'other', description: 7 }, 400, 'invalid_request', 'body.description'],
      ['unknown use_case', { name: 'x', use_case: 'banana' }, 422, 'validation_failed', 'body.use_case'],
      ['empty name', { name: '', use_case: 'other' }, 422, 'validation_failed', 'body.name'],
    ]
    for (const [name, payload, status, code, path] of cases) {
      it(`POST: ${name} → ${status} ${code}`, async () => {
        const a = await t.client()
        const res = await create(a.headers, payload)
        expect(res.statusCode).toBe(status)
        const body = json<{ error: string; details: { path: string }[] }>(res)
        expect(body.error).toBe(code)
        expect(body.details[0]!.path).toBe(path)
      })
    }

    it('POST: an invalid use_case names the allowed values', async () => {
      const a = await t.client()
      const body = json<{ message: string }>(await create(a.headers, { name: 'x', use_case: 'banana' }))
      expect(body.message).toContain('"publisher_bot_detection"')
    })

    it('PUT: an empty body is 400; a bad value 422; a bad id 400/422', async () => {
      const a = await t.client()
      const c = json<Campaign>(await create(a.headers, { name: 'x', use_case: 'other' }))
      const put = (payload: unknown, id: string | number = c.id) =>
        t.app.inject({ method: 'PUT', url: `/v1/pixel/campaigns/${id}`, headers: a.headers, payload: payload as object })
      const empty = await put({})
      expect(empty.statusCode).toBe(400)
      expect(json(empty).error).toBe('invalid_request')
      expect((await put({ unknown: 1 })).statusCode).toBe(400)
      expect((await t.app.inject({ method: 'PUT', url: `/v1/pixel/campaigns/${c.id}`, headers: a.headers })).statusCode).toBe(400)
      expect((await put({ use_case: 'banana' })).statusCode).toBe(422)
      expect((await put({ name: null })).statusCode).toBe(400)
      expect((await put({ name: 'x' }, 'abc')).statusCode).toBe(400)
      expect((await put({ name: 'x' }, 0)).statusCode).toBe(422)
      const unchanged = json<Campaign>(await t.app.inject({ method: 'GET', url: `/v1/pixel/campaigns/${c.id}`, headers: a.headers }))
      expect(unchanged.last_updated_date).toBe(c.last_updated_date)
    })

    it('needs an API key', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/v1/pixel/campaigns' })
      expect(res.statusCode).toBe(401)
    })
  })
})
