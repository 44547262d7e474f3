import { Webhook as Verifier } from 'standardwebhooks'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'

import { systemClock } from '../../../src/platform/clock.ts'
import type { Worker } from '../../../src/platform/jobs/worker.ts'
import { createWorker } from '../../../src/platform/jobs/worker.ts'
import { deliverJob } from '../../../src/platform/webhooks/deliver.ts'
import { webhookEventTypes as webhookEventTypeList } from '../../../src/platform/webhooks/events.ts'
import { emitEvent, enqueueDelivery } from '../../../src/platform/webhooks/outbox.ts'
import type { TestApp } from '../../helpers/app.ts'
import { configure, createTestApp, json } from '../../helpers/app.ts'
import { describeEachEngine } from '../../helpers/db.ts'
import { waitFor } from '../../helpers/wait.ts'
import type { Receiver } from './receiver.ts'
import { startReceiver } from './receiver.ts'

type Headers = Record<string, string>
interface Created {
  id: number
  url: string
  secret: string
  status: string
  event_types: string[]
}
interface Delivery {
  id: number
  webhook_id: string
  status: string
  attempts: number
  last_response_status: number | null
  last_error: string | null
  payload: { type: string; data: unknown }
}

const fast = { retryBaseMs: 40, retryMaxDelayMs: 200, maxAttempts: 4, timeoutMs: 2000 }

describeEachEngine('webhooks', (getDb) => {
  let t: TestApp
  let worker: Worker
  let rx: Receiver
  let a: { clientId: number; headers: Headers }
  let b: { clientId: number; headers: Headers }

  beforeAll(async () => {
    t = await createTestApp(getDb().db, { clock: systemClock, config: { rateLimitPerMinute: 100_000, webhooks: fast } })
    worker = createWorker({ db: getDb().db, clock: systemClock, handlers: [deliverJob(t.ctx)], pollMs: 20, concurrency: 8 })
    await worker.start()
    a = await t.client('a')
    b = await t.client('b')
    rx = await startReceiver()
  })
  afterAll(async () => {
    await worker?.stop()
    await rx?.close()
    await t?.close()
  })
  afterEach(async () => {
    configure(t.ctx, { scrape: { allowPrivate: true }, webhooks: fast })
    // Each test starts with no subscriptions and an empty receiver.
    await getDb().db.query('UPDATE webhook_subscriptions SET deleted_at = now() WHERE deleted_at IS NULL')
    rx.received.length = 0
    rx.answers.length = 0
  })

  const inject = (method: 'GET' | 'POST' | 'DELETE', url: string, headers: Headers, payload?: unknown) =>
    t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) })

  async function subscribe(headers: Headers, body: Record<string, unknown> = {}): Promise<Created> {
    const res = await inject('POST', '/v1/webhooks', headers, { url: `${rx.url}/hook`, event_types: ['scrape_job.completed'], ...body })
    expect(res.statusCode, res.body).toBe(201)
    return json<Created>(res)
  }

  const deliveries = async (headers: Headers, id: number) => json<Delivery[]>(await inject('GET', `/v1/webhooks/${id}/deliveries`, headers))

  async function emit(clientId: number, type: (typeof webhookEventTypeList)[number], data: unknown) {
    return getDb().db.transaction((tx) => emitEvent(tx, { clientId, type, data, now: new Date() }))
  }

  it('creates a subscription showing its secret once, stored encrypted, listed and read without it', async () => {
    const created = await subscribe(a.headers, { description: 'jobs' })
    expect(created).toMatchObject({ url: `${rx.url}/hook`, event_types: ['scrape_job.completed'], description: 'jobs', status: 'active' })
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/)
    const stored = await getDb().db.query<Record<string, unknown>>('SELECT * FROM webhook_subscriptions WHERE id = $1', [created.id])
    expect(JSON.stringify(stored.rows)).not.toContain(created.secret.slice(6))
    const one = json(await inject('GET', `/v1/webhooks/${created.id}`, a.headers))
    const { secret: _s, ...rest } = created
    expect(one).toEqual(rest)
    expect(json(await inject('GET', '/v1/webhooks', a.headers))).toEqual([rest])
    expect(json(await inject('GET', '/v1/webhooks', b.headers))).toEqual([])
  })

  it('signs every delivery per Standard Webhooks: the standardwebhooks package verifies it', async () => {
    const sub = await subscribe(a.headers)
    const res = await inject('POST', `/v1/webhooks/${sub.id}/test`, a.headers)
    expect(res.statusCode, res.body).toBe(202)
    await waitFor(() => rx.received.length === 1, 10_000, 'the test event')
    const got = rx.received[0]!
    expect(got.path).toBe('/hook')
    expect(got.headers['content-type']).toBe('application/json')
    expect(got.headers['webhook-id']).toBe(json<Delivery>(res).webhook_id)
    const verified = new Verifier(sub.secret).verify(got.body, got.headers) as { type: string; data: { webhook: { id: number } } }
    expect(verified.type).toBe('webhook.test')
    expect(verified.data.webhook.id).toBe(sub.id)
    // A tampered body or another secret fails.
    expect(() => new Verifier(sub.secret).verify(`${got.body} `, got.headers)).toThrow()
    const other = await subscribe(a.headers)
    expect(() => new Verifier(other.secret).verify(got.body, got.headers)).toThrow()
  })

  it('delivers an event once to each subscription of its client that asked for its type, never to another client', async () => {
    const s1 = await subscribe(a.headers, { url: `${rx.url}/one` })
    const s2 = await subscribe(a.headers, { url: `${rx.url}/two`, event_types: ['scrape_job.completed', 'segment.completed'] })
    await subscribe(a.headers, { url: `${rx.url}/other-type`, event_types: ['segment.failed'] })
    await subscribe(b.headers, { url: `${rx.url}/client-b` })
    expect(await emit(a.clientId, 'scrape_job.completed', { id: 7 })).toBe(2)
    await waitFor(() => rx.received.length >= 2, 10_000, 'two deliveries')
    await new Promise((r) => setTimeout(r, 300))
    expect(rx.received.map((r) => r.path).sort()).toEqual(['/one', '/two'])
    for (const r of rx.received) expect(JSON.parse(r.body)).toMatchObject({ type: 'scrape_job.completed', data: { id: 7 } })
    expect(rx.received[0]!.headers['webhook-id']).not.toBe(rx.received[1]!.headers['webhook-id'])
    for (const s of [s1, s2]) {
      await waitFor(async () => (await deliveries(a.headers, s.id))[0]?.status === 'delivered', 5000, 'delivered status')
      expect(await deliveries(a.headers, s.id)).toMatchObject([{ status: 'delivered', attempts: 1, last_response_status: 200 }])
    }
  })

  it('retries a failing receiver with backoff under the same webhook-id: 500 three times, then 200', async () => {
    const sub = await subscribe(a.headers)
    rx.answers.push(500, 500, 500)
    await emit(a.clientId, 'scrape_job.completed', { id: 1 })
    await waitFor(() => rx.received.length === 4, 15_000, 'four attempts')
    const ids = new Set(rx.received.map((r) => r.headers['webhook-id']))
    expect(ids.size).toBe(1)
    // Backoff: each wait is at least 90% of base × 2^(n-1).
    const gaps = rx.received.slice(1).map((r, i) => r.at - rx.received[i]!.at)
    gaps.forEach((g, i) => expect(g).toBeGreaterThanOrEqual(Math.min(fast.retryBaseMs * 2 ** i, fast.retryMaxDelayMs) * 0.9 - 5))
    for (const r of rx.received) expect(() => new Verifier(sub.secret).verify(r.body, r.headers)).not.toThrow()
    await waitFor(async () => (await deliveries(a.headers, sub.id))[0]?.status === 'delivered', 5000, 'delivered')
    expect((await deliveries(a.headers, sub.id))[0]).toMatchObject({ attempts: 4, last_response_status: 200, last_error: null })
    expect(json<Created>(await inject('GET', `/v1/webhooks/${sub.id}`, a.headers)).status).toBe('active')
  })

  it('after the last attempt fails the delivery and marks the subscription failing; a redelivery reuses the webhook-id and clears it', async () => {
    const sub = await subscribe(a.headers)
    rx.answers.push(503, 503, 503, 503)
    await emit(a.clientId, 'scrape_job.completed', { id: 2 })
    await waitFor(async () => (await deliveries(a.headers, sub.id))[0]?.status === 'failed', 15_000, 'the delivery to fail')
    expect(rx.received).toHaveLength(fast.maxAttempts)
    const failed = (await deliveries(a.headers, sub.id))[0]!
    expect(failed).toMatchObject({ attempts: 4, last_response_status: 503, last_error: 'the receiver answered 503' })
    expect(json(await inject('GET', `/v1/webhooks/${sub.id}`, a.headers))).toMatchObject({ status: 'failing' })
    const again = await inject('POST', `/v1/webhooks/${sub.id}/deliveries/${failed.id}/redeliver`, a.headers)
    expect(again.statusCode, again.body).toBe(202)
    await waitFor(() => rx.received.length === 5, 10_000, 'the redelivery')
    expect(rx.received[4]!.headers['webhook-id']).toBe(failed.webhook_id)
    await waitFor(async () => json<Created>(await inject('GET', `/v1/webhooks/${sub.id}`, a.headers)).status === 'active', 5000, 'active again')
    const one = json<Delivery>(await inject('GET', `/v1/webhooks/${sub.id}/deliveries/${failed.id}`, a.headers))
    expect(one).toMatchObject({ status: 'delivered', attempts: 1, webhook_id: failed.webhook_id })
    expect((await inject('GET', `/v1/webhooks/${sub.id}/deliveries?status=failed`, a.headers)).body).toBe('[]')
  })

  it('refuses a subscription to a private address unless the private-address switch is on', async () => {
    configure(t.ctx, { scrape: { allowPrivate: false } })
    for (const url of [
      `${rx.url}/x`,
      'http://localhost:9/x',
      'http://10.1.2.3/x',
      'http://[::1]:80/x',
      'http://169.254.169.254/latest',
      'http://[::ffff:192.168.0.1]/',
    ]) {
      const res = await inject('POST', '/v1/webhooks', a.headers, { url, event_types: ['deal.stopped'] })
      expect(res.statusCode, url).toBe(422)
      expect(json(res)).toMatchObject({ error: 'validation_failed' })
      expect(json<{ message: string }>(res).message, url).toMatch(/non-public address/)
    }
    configure(t.ctx, { scrape: { allowPrivate: true } })
    expect((await inject('POST', '/v1/webhooks', a.headers, { url: `${rx.url}/x`, event_types: ['deal.stopped'] })).statusCode).toBe(201)
  })

  it('checks the address again at delivery: a private receiver is not contacted once the switch is off', async () => {
    const sub = await subscribe(a.headers)
    configure(t.ctx, { scrape: { allowPrivate: false } })
    await emit(a.clientId, 'scrape_job.completed', { id: 3 })
    await waitFor(async () => (await deliveries(a.headers, sub.id))[0]?.status === 'failed', 15_000, 'the delivery to fail')
    expect(rx.received).toHaveLength(0)
    expect((await deliveries(a.headers, sub.id))[0]!.last_error).toMatch(/refused to connect to 127\.0\.0\.1/)
  })

  it("keeps each client's webhooks and deliveries to itself: another's answer 404", async () => {
    const sub = await subscribe(a.headers)
    await inject('POST', `/v1/webhooks/${sub.id}/test`, a.headers)
    await waitFor(async () => (await deliveries(a.headers, sub.id))[0]?.status === 'delivered', 10_000, 'delivered')
    const d = (await deliveries(a.headers, sub.id))[0]!
    for (const [method, url] of [
      ['GET', `/v1/webhooks/${sub.id}`],
      ['DELETE', `/v1/webhooks/${sub.id}`],
      ['POST', `/v1/webhooks/${sub.id}/test`],
      ['GET', `/v1/webhooks/${sub.id}/deliveries`],
      ['GET', `/v1/webhooks/${sub.id}/deliveries/${d.id}`],
      ['POST', `/v1/webhooks/${sub.id}/deliveries/${d.id}/redeliver`],
    ] as const) {
      const res = await inject(method, url, b.headers)
      expect(res.statusCode, `${method} ${url}`).toBe(404)
      expect(json(res), url).toMatchObject({ error: 'not_found' })
    }
    expect(json(await inject('GET', `/v1/webhooks/${sub.id}`, a.headers))).toMatchObject({ id: sub.id })
  })

  it('deletes a subscription: 204, then 404, and its pending deliveries stop', async () => {
    const sub = await subscribe(a.headers)
    rx.answers.push(500)
    configure(t.ctx, { webhooks: { retryBaseMs: 400 } })
    await emit(a.clientId, 'scrape_job.completed', { id: 4 })
    await waitFor(() => rx.received.length === 1, 10_000, 'the first attempt')
    const del = await inject('DELETE', `/v1/webhooks/${sub.id}`, a.headers)
    expect(del.statusCode).toBe(204)
    expect(del.body).toBe('')
    expect((await inject('GET', `/v1/webhooks/${sub.id}`, a.headers)).statusCode).toBe(404)
    expect((await inject('DELETE', `/v1/webhooks/${sub.id}`, a.headers)).statusCode).toBe(404)
    await waitFor(
      async () =>
        (await getDb().db.query<{ status: string }>('SELECT status FROM webhook_deliveries WHERE subscription_id = $1', [sub.id])).rows[0]?.status === 'failed',
      10_000,
      'the pending delivery to stop',
    )
    expect(rx.received).toHaveLength(1)
    expect(await emit(a.clientId, 'scrape_job.completed', { id: 5 })).toBe(0)
  })

  it('enqueueDelivery sends to a target of its own, signed with its secret, once per idempotency key', async () => {
    const secret = 'a-buyer-chosen-secret-of-32-characters!'
    const send = () =>
      getDb().db.transaction((tx) =>
        enqueueDelivery(tx, t.ctx.webhooks.cipher, {
          clientId: a.clientId,
          url: `${rx.url}/push`,
          secret,
          headers: { authorization: 'Bearer token-123' },
          eventType: 'adcp.task_update',
          payload: { task_id: 't1', status: 'completed' },
          idempotencyKey: 'task-t1-completed',
          now: new Date(),
        }),
      )
    const first = await send()
    const second = await send()
    expect(second).toEqual(first)
    await waitFor(() => rx.received.length === 1, 10_000, 'the push')
    await new Promise((r) => setTimeout(r, 200))
    expect(rx.received).toHaveLength(1)
    const got = rx.received[0]!
    expect(got.headers.authorization).toBe('Bearer token-123')
    expect(got.headers['webhook-id']).toBe(first.messageId)
    expect(new Verifier(Buffer.from(secret, 'utf8'), { format: 'raw' }).verify(got.body, got.headers)).toEqual({ task_id: 't1', status: 'completed' })
    const row = await getDb().db.query<{ credentials_enc: string }>('SELECT credentials_enc FROM webhook_deliveries WHERE id = $1', [first.id])
    expect(row.rows[0]!.credentials_enc).not.toContain('token-123')
  })

  it('documents the routes, the exports and every event in the OpenAPI document', async () => {
    const doc = json<{ paths: Record<string, Record<string, unknown>>; webhooks: Record<string, { post: { parameters: { name: string }[] } }> }>(
      await t.app.inject({ method: 'GET', url: '/v1/openapi.json' }),
    )
    const methods = (path: string) => Object.keys(doc.paths[path] ?? {}).sort()
    expect(methods('/v1/webhooks/')).toEqual(['get', 'post'])
    expect(methods('/v1/webhooks/{id}')).toEqual(['delete', 'get'])
    expect(methods('/v1/webhooks/{id}/test')).toEqual(['post'])
    expect(methods('/v1/webhooks/{id}/deliveries')).toEqual(['get'])
    expect(methods('/v1/webhooks/{id}/deliveries/{deliveryId}')).toEqual(['get'])
    expect(methods('/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver')).toEqual(['post'])
    expect(methods('/v1/scraping/jobs/{id}/export')).toEqual(['get'])
    expect(methods('/v1/curation/segment-requests/{id}/export')).toEqual(['get'])
    expect(Object.keys(doc.webhooks).sort()).toEqual([...webhookEventTypeList, 'webhook.test'].sort())
    for (const w of Object.values(doc.webhooks)) expect(w.post.parameters.map((p) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature'])
  })

  describe('bad input', () => {
    it('needs a key on every route', async () => {
      for (const [method, url] of [
        ['GET', '/v1/webhooks'],
        ['POST', '/v1/webhooks'],
        ['GET', '/v1/webhooks/1'],
        ['DELETE', '/v1/webhooks/1'],
        ['POST', '/v1/webhooks/1/test'],
        ['GET', '/v1/webhooks/1/deliveries'],
        ['GET', '/v1/webhooks/1/deliveries/1'],
        ['POST', '/v1/webhooks/1/deliveries/1/redeliver'],
      ] as const) {
        const res = await inject(method, url, {})
        expect(res.statusCode, `${method} ${url}`).toBe(401)
      }
    })

    it('answers 400 or 422 with {error, message} for bad bodies', async () => {
      const cases: [unknown, number, RegExp][] = [
        [{}, 400, /url/],
        [{ url: `${rx.url}/x` }, 400, /event_types/],
        [{ url: `${rx.url}/x`, event_types: 'deal.stopped' }, 400, /event_types/],
        [{ url: `${rx.url}/x`, event_types: [] }, 422, /event_types/],
        [{ url: `${rx.url}/x`, event_types: ['deal.started'] }, 422, /event_types/],
        [{ url: `${rx.url}/x`, event_types: ['deal.stopped', 'deal.stopped'] }, 422, /event_types/],
        [{ url: `${rx.url}/x`, event_types: ['deal.stopped'], extra: 1 }, 400, /additional/],
        [{ url: `${rx.url}/x`, event_types: ['deal.stopped'], description: 'x'.repeat(501) }, 422, /description/],
        [{ url: 'ftp://example.com/x', event_types: ['deal.stopped'] }, 422, /http or https/],
        [{ url: 'not a url', event_types: ['deal.stopped'] }, 422, /absolute URL/],
        [{ url: 'http://user:pw@127.0.0.1/x', event_types: ['deal.stopped'] }, 422, /credentials/],
        [{ url: `http://127.0.0.1/${'x'.repeat(2100)}`, event_types: ['deal.stopped'] }, 422, /url/],
        [{ url: 12, event_types: ['deal.stopped'] }, 400, /url/],
      ]
      for (const [body, status, message] of cases) {
        const res = await inject('POST', '/v1/webhooks', a.headers, body)
        expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(status)
        const err = json<{ error: string; message: string }>(res)
        expect(err.message, JSON.stringify(body).slice(0, 80)).toMatch(message)
      }
      const text = await t.app.inject({
        method: 'POST',
        url: '/v1/webhooks',
        headers: { ...a.headers, 'content-type': 'application/json' },
        payload: '{"url":',
      })
      expect(text.statusCode).toBe(400)
      expect(json(text)).toMatchObject({ error: 'invalid_json' })
    })

    it('answers 400/422 for bad ids and queries, 404 for unknown ones, 409 for redelivering a pending delivery', async () => {
      expect((await inject('GET', '/v1/webhooks/abc', a.headers)).statusCode).toBe(400)
      expect((await inject('GET', '/v1/webhooks/0', a.headers)).statusCode).toBe(422)
      expect((await inject('GET', '/v1/webhooks/99999999', a.headers)).statusCode).toBe(404)
      expect((await inject('POST', '/v1/webhooks/99999999/test', a.headers)).statusCode).toBe(404)
      const sub = await subscribe(a.headers)
      for (const q of ['limit=0', 'limit=101', 'offset=-1', 'status=lost']) {
        expect((await inject('GET', `/v1/webhooks/${sub.id}/deliveries?${q}`, a.headers)).statusCode, q).toBe(422)
      }
      expect((await inject('GET', `/v1/webhooks/${sub.id}/deliveries?limit=x`, a.headers)).statusCode).toBe(400)
      expect((await inject('GET', `/v1/webhooks/${sub.id}/deliveries/x`, a.headers)).statusCode).toBe(400)
      expect((await inject('GET', `/v1/webhooks/${sub.id}/deliveries/99999999`, a.headers)).statusCode).toBe(404)
      expect((await inject('POST', `/v1/webhooks/${sub.id}/deliveries/99999999/redeliver`, a.headers)).statusCode).toBe(404)
      // A pending delivery (the receiver keeps failing, retries far apart) cannot be redelivered.
      configure(t.ctx, { webhooks: { retryBaseMs: 60_000 } })
      rx.answers.push(500)
      const test = json<Delivery>(await inject('POST', `/v1/webhooks/${sub.id}/test`, a.headers))
      await waitFor(() => rx.received.length === 1, 10_000, 'the first attempt')
      const res = await inject('POST', `/v1/webhooks/${sub.id}/deliveries/${test.id}/redeliver`, a.headers)
      expect(res.statusCode).toBe(409)
      expect(json(res)).toMatchObject({ error: 'conflict' })
    })

    it(`refuses a client's 21st subscription`, async () => {
      for (let i = 0; i < 20; i++) await subscribe(b.headers)
      const res = await inject('POST', '/v1/webhooks', b.headers, { url: `${rx.url}/x`, event_types: ['deal.stopped'] })
      expect(res.statusCode).toBe(422)
      expect(json<{ message: string }>(res).message).toMatch(/at most 20/)
    })
  })
})
