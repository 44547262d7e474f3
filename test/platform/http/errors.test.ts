import type { AddressInfo } from 'node:net'
import { connect } from 'node:net'

import { Type } from '@sinclair/typebox'
import { afterAll, beforeAll, expect, it } from 'vitest'

import type { Feature } from '../../../src/platform/http/app.ts'
import type { TestApp } from '../../helpers/app.ts'
import { createTestApp, json } from '../../helpers/app.ts'
import { describeEachEngine, openTestDb } from '../../helpers/db.ts'

/** Test-only routes that fail the ways real handlers can. */
const failing: Feature = {
  prefix: '/v1/test',
  routes(app, ctx) {
    app.get('/throws-sql', async () => {
      const err = new Error(`relation "api_keys" violates: SELECT key_hash FROM api_keys WHERE id = 1`)
      throw Object.assign(err, { code: '42P01', detail: 'SELECT key_hash FROM api_keys' })
    })
    app.get('/bad-sql', async () => ctx.db.query('SELECT key_hash FROM no_such_table_here'))
    // The client's text reaches a cast unvalidated: the class-22 safety net answers 400.
    app.get('/cast', { schema: { querystring: Type.Object({ v: Type.String() }) } }, async (req) => ctx.db.query('SELECT $1::integer AS n', [req.query.v]))
    app.get('/date', { schema: { querystring: Type.Object({ v: Type.String() }) } }, async (req) => ctx.db.query('SELECT $1::date AS d', [req.query.v]))
    // Our own arithmetic fault is not the client's: still 500.
    app.get('/divide', async () => ctx.db.query('SELECT 1 / 0 AS n'))
  },
}

describeEachEngine('error mapping and readiness', (getDb, engine) => {
  let t: TestApp
  let headers: Record<string, string>
  beforeAll(async () => {
    t = await createTestApp(getDb().db, { features: [failing] })
    headers = (await t.client()).headers
  })
  afterAll(() => t.close())

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers })

  it.each(['/v1/test/throws-sql', '/v1/test/bad-sql', '/v1/test/divide'])(
    'answers a handler failure at %s with 500 internal_error and no stack or SQL',
    async (url) => {
      const res = await get(url)
      expect(res.statusCode).toBe(500)
      expect(Object.keys(json(res)).sort()).toEqual(['error', 'message'])
      expect(json(res).error).toBe('internal_error')
      expect(res.body).not.toMatch(/SELECT|api_keys|no_such_table|division|at .*\.ts|42P01/i)
      expect(res.headers['x-request-id']).toBeTruthy()
    },
  )

  it.each([
    ['text that is not an integer', '/v1/test/cast?v=abc'],
    ['an integer out of range', '/v1/test/cast?v=99999999999'],
    ['a date out of range', '/v1/test/date?v=2026-13-45'],
  ])('answers a database data exception from the client’s value (%s) with 400 and our own words', async (_n, url) => {
    const res = await get(url)
    expect(res.statusCode).toBe(400)
    expect(json(res).error).toBe('invalid_request')
    expect(res.body).not.toMatch(/integer|invalid input syntax|SELECT|\$1/)
  })

  it('reports not_ready with 503 while a migration is pending', async () => {
    const db = getDb().db
    const { rows } = await db.query<{ version: number; name: string }>('SELECT version, name FROM schema_migrations ORDER BY version DESC LIMIT 1')
    const last = rows[0]!
    await db.query('DELETE FROM schema_migrations WHERE version = $1', [last.version])
    try {
      const res = await t.app.inject({ method: 'GET', url: '/readyz' })
      expect(res.statusCode).toBe(503)
      expect(json(res)).toEqual({ status: 'not_ready', database: true, pending_migrations: [last.version] })
    } finally {
      await db.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [last.version, last.name])
    }
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200)
  })

  it('reports not_ready with 503 when the database is gone', async () => {
    const own = await openTestDb(engine)
    const app = await createTestApp(own.db)
    try {
      expect((await app.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200)
      // PostgreSQL's pool refuses new queries at once but ends only when the app's LISTEN
      // connections are given back, at app.close(); PGlite closes at once.
      const closing = own.db.close()
      if (engine === 'pglite') await closing
      const res = await app.app.inject({ method: 'GET', url: '/readyz' })
      expect(res.statusCode).toBe(503)
      expect(json(res)).toMatchObject({ status: 'not_ready', database: false })
      expect((await app.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200)
      await app.close()
      await closing
    } finally {
      await app.close()
      await own.close()
    }
  })
})

describeEachEngine('shutting down', (getDb) => {
  it('sheds requests arriving during shutdown with 503 in the catalog format, and finishes in-flight ones', async () => {
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    let entered!: () => void
    const inFlight = new Promise<void>((r) => (entered = r))
    let closingStarted!: () => void
    const closing = new Promise<void>((r) => (closingStarted = r))
    const slow: Feature = {
      prefix: '',
      routes(app) {
        app.get('/slow', async () => {
          entered()
          await held
          return { done: true }
        })
        // Runs after the platform's own preClose hook, which was registered first.
        app.addHook('preClose', async () => closingStarted())
      },
    }
    const t = await createTestApp(getDb().db, { features: [slow] })
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = t.app.server.address() as AddressInfo
    let requests = 0
    let secondArrived!: () => void
    const second = new Promise<void>((r) => (secondArrived = r))
    t.app.server.on('request', () => ++requests === 2 && secondArrived())

    // One keep-alive connection: a slow request in flight, then a second request on the same
    // connection once closing has begun (a busy connection is not closed under it).
    const sock = connect(port, '127.0.0.1')
    let received = ''
    sock.setEncoding('utf8')
    sock.on('data', (d: string) => (received += d))
    const ended = new Promise<void>((r) => sock.on('close', () => r()))
    sock.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n')
    await inFlight
    const closed = t.app.close()
    await closing
    sock.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n')
    await second
    release()
    await closed
    await ended

    const [done, shed] = received.split(/(?=HTTP\/1\.1 )/)
    expect(done).toMatch(/^HTTP\/1\.1 200/)
    expect(done).toContain('{"done":true}')
    expect(shed).toMatch(/^HTTP\/1\.1 503/)
    expect(shed).toMatch(/retry-after: 1/i)
    const body = JSON.parse(shed!.slice(shed!.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>
    expect(body).toEqual({ error: 'service_unavailable', message: expect.any(String) })
  })
})
