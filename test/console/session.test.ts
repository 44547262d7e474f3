import { Writable } from 'node:stream'

import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { consoleFeature } from '../../src/console/feature.ts'
import { createContext } from '../../src/platform/context.ts'
import { buildApp } from '../../src/platform/http/app.ts'
import { createKey, revokeKey } from '../../src/platform/keys/keys.ts'
import { csrfTokenFor, readCookie, sessionTtlMs } from '../../src/platform/keys/sessions.ts'
import { snowballFeature } from '../../src/snowball/routes.ts'
import type { TestApp } from '../helpers/app.ts'
import { createTestApp, json, testConfig } from '../helpers/app.ts'
import { ManualClock } from '../helpers/clock.ts'
import { describeEachEngine } from '../helpers/db.ts'

const cookieOf = (setCookie: string | string[] | undefined) => {
  const raw = [setCookie ?? []].flat()[0] ?? ''
  return { raw, token: readCookie(raw.split(';', 1)[0], 'curata_session') }
}

describeEachEngine('console sessions', (getDb) => {
  let t: TestApp
  let clock: ManualClock
  beforeAll(async () => {
    clock = new ManualClock('2026-11-22T10:00:00Z')
    t = await createTestApp(getDb().db, { clock })
  })
  afterAll(() => t.close())

  async function signIn(key: string, headers: Record<string, string> = {}) {
    const res = await t.app.inject({ method: 'POST', url: '/console/session', headers, payload: { api_key: key } })
    const { raw, token } = cookieOf(res.headers['set-cookie'])
    return { res, raw, token: token!, cookie: `curata_session=${token}` }
  }

  it('exchanges a key for an HttpOnly, SameSite session cookie with an expiry, not echoing the key', async () => {
    const c = await t.client('Acme')
    const { res, raw, token } = await signIn(c.key)
    expect(res.statusCode, res.body).toBe(200)
    expect(raw).toMatch(/^curata_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=43200$/)
    expect(res.headers['cache-control']).toBe('no-store')
    expect(res.body).not.toContain(c.key)
    const body = json<{ client_id: number; client_name: string; csrf_token: string; expires_at: string }>(res)
    expect(body).toEqual({ client_id: c.clientId, client_name: 'Acme', csrf_token: csrfTokenFor(token), expires_at: '2026-11-22T22:00:00.000Z' })
    const stored = await getDb().db.query<{ token_hash: string }>('SELECT token_hash FROM console_sessions')
    expect(stored.rows.some((r) => r.token_hash === token)).toBe(false)
  })

  it('marks the cookie Secure behind HTTPS (a proxy saying so, or an https PUBLIC_URL)', async () => {
    const c = await t.client()
    const { raw } = await signIn(c.key, { 'x-forwarded-proto': 'https' })
    expect(raw).toContain('; Secure')
  })

  it('refuses bad sign-ins with the catalog errors', async () => {
    const bad = await t.app.inject({ method: 'POST', url: '/console/session', payload: { api_key: `cur_${'x'.repeat(43)}` } })
    expect(bad.statusCode).toBe(401)
    expect(bad.headers['set-cookie']).toBeUndefined()
    expect((await t.app.inject({ method: 'POST', url: '/console/session', payload: {} })).statusCode).toBe(400)
    expect((await t.app.inject({ method: 'POST', url: '/console/session', payload: { api_key: 'k'.repeat(201) } })).statusCode).toBe(422)
    const form = await t.app.inject({ method: 'POST', url: '/console/session', headers: { 'content-type': 'text/plain' }, payload: 'api_key=x' })
    expect(form.statusCode).toBe(415)
    const c = await t.client()
    const foreign = await signIn(c.key, { origin: 'https://evil.example', host: 'localhost:80' })
    expect(foreign.res.statusCode).toBe(403)
    expect(json(foreign.res).error).toBe('forbidden')
    expect((await signIn(c.key, { origin: 'null' })).res.statusCode).toBe(403)
    expect((await signIn(c.key, { origin: 'http://localhost:8080', host: 'localhost:8080' })).res.statusCode).toBe(200)
    // Behind a proxy that rewrites Host, the host the browser saw arrives as X-Forwarded-Host.
    const proxied = await signIn(c.key, { origin: 'https://console.example.com', host: 'backend:8080', 'x-forwarded-host': 'console.example.com' })
    expect(proxied.res.statusCode).toBe(200)
  })

  it('authenticates /v1 reads with the cookie and needs the CSRF token on writes', async () => {
    const c = await t.client()
    const { token, cookie } = await signIn(c.key)
    const list = await t.app.inject({ method: 'GET', url: '/v1/snowball/campaigns', headers: { cookie } })
    expect(list.statusCode).toBe(200)
    expect(list.headers['x-ratelimit-limit']).toBeDefined()
    const payload = { description: 'from the console' }
    const noCsrf = await t.app.inject({ method: 'POST', url: '/v1/snowball/campaigns', headers: { cookie }, payload })
    expect(noCsrf.statusCode).toBe(403)
    expect(json(noCsrf)).toMatchObject({ error: 'forbidden' })
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/v1/snowball/campaigns',
      headers: { cookie, 'x-csrf-token': csrfTokenFor('x'.repeat(43)) },
      payload,
    })
    expect(wrong.statusCode).toBe(403)
    const ok = await t.app.inject({ method: 'POST', url: '/v1/snowball/campaigns', headers: { cookie, 'x-csrf-token': csrfTokenFor(token) }, payload })
    expect(ok.statusCode).toBe(201)
    expect(json(ok).client_id).toBe(c.clientId)
    // The same applies to PATCH and DELETE.
    const id = json<{ id: number }>(ok).id
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/snowball/campaigns/${id}`, headers: { cookie } })).statusCode).toBe(403)
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/v1/snowball/campaigns/${id}`, headers: { cookie, 'x-csrf-token': csrfTokenFor(token) } })).statusCode,
    ).toBe(200)
  })

  it("keeps tenants apart: another client's record is 404 through the session too", async () => {
    const a = await t.client()
    const b = await t.client()
    const made = await t.app.inject({ method: 'POST', url: '/v1/snowball/campaigns', headers: b.headers, payload: { description: 'b only' } })
    const { cookie } = await signIn(a.key)
    const res = await t.app.inject({ method: 'GET', url: `/v1/snowball/campaigns/${json<{ id: number }>(made).id}`, headers: { cookie } })
    expect(res.statusCode).toBe(404)
  })

  it('ends at sign-out (which needs the CSRF token), at expiry, and when the key is revoked', async () => {
    const c = await t.client()
    const s1 = await signIn(c.key)
    expect((await t.app.inject({ method: 'GET', url: '/console/session', headers: { cookie: s1.cookie } })).statusCode).toBe(200)
    expect((await t.app.inject({ method: 'DELETE', url: '/console/session', headers: { cookie: s1.cookie } })).statusCode).toBe(403)
    const out = await t.app.inject({ method: 'DELETE', url: '/console/session', headers: { cookie: s1.cookie, 'x-csrf-token': csrfTokenFor(s1.token) } })
    expect(out.statusCode).toBe(204)
    expect(cookieOf(out.headers['set-cookie']).raw).toContain('Max-Age=0')
    expect((await t.app.inject({ method: 'GET', url: '/v1/snowball/campaigns', headers: { cookie: s1.cookie } })).statusCode).toBe(401)
    expect((await t.app.inject({ method: 'GET', url: '/console/session', headers: { cookie: s1.cookie } })).statusCode).toBe(401)

    const s2 = await signIn(c.key)
    clock.advance(sessionTtlMs + 1000)
    const expired = await t.app.inject({ method: 'GET', url: '/v1/snowball/campaigns', headers: { cookie: s2.cookie } })
    expect(expired.statusCode).toBe(401)
    expect(json(expired).message).toContain('sign in again')

    const s3 = await signIn(c.key)
    const keyId = (await getDb().db.query<{ id: number }>('SELECT id FROM api_keys WHERE client_id = $1', [c.clientId])).rows[0]!.id
    await revokeKey(getDb().db, keyId, clock.now())
    expect((await t.app.inject({ method: 'GET', url: '/v1/snowball/campaigns', headers: { cookie: s3.cookie } })).statusCode).toBe(401)
  })

  it('ignores a malformed or unknown cookie (401, never a 500)', async () => {
    for (const cookie of ['curata_session=', 'curata_session=%00%ff', `curata_session=${'a'.repeat(43)}`, 'other=1; curata_session', 'curata_session=a=b']) {
      const res = await t.app.inject({ method: 'GET', url: '/v1/snowball/campaigns', headers: { cookie } })
      expect(res.statusCode, cookie).toBe(401)
    }
  })

  it('an API key in a header needs no CSRF token, even with a cookie present', async () => {
    const c = await t.client()
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/snowball/campaigns',
      headers: { ...c.headers, cookie: 'curata_session=whatever' },
      payload: { description: 'api' },
    })
    expect(res.statusCode).toBe(201)
  })

  it('redirects a screen to sign-in without a session and serves it with a strict CSP with one', async () => {
    const anon = await t.app.inject({ method: 'GET', url: '/console/segments/12' })
    expect(anon.statusCode).toBe(302)
    expect(anon.headers.location).toBe('/console/sign-in?next=%2Fconsole%2Fsegments%2F12')
    expect((await t.app.inject({ method: 'GET', url: '/console' })).headers.location).toBe('/console/')

    const signInPage = await t.app.inject({ method: 'GET', url: '/console/sign-in' })
    expect(signInPage.statusCode).toBe(200)
    expect(signInPage.headers['content-type']).toContain('text/html')
    const csp = String(signInPage.headers['content-security-policy'])
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).not.toContain('unsafe-inline')
    expect(csp).not.toContain('unsafe-eval')
    expect(signInPage.headers['x-content-type-options']).toBe('nosniff')
    expect(signInPage.headers['cache-control']).toBe('no-cache')
    // No inline script in the page: every <script> has a src.
    expect(signInPage.body).toMatch(/<script type="module" crossorigin src="\/console\/assets\/[\w-]+\.js"><\/script>/)
    expect(signInPage.body.match(/<script/g)?.length).toBe(1)

    const c = await t.client()
    const s = await t.app.inject({ method: 'POST', url: '/console/session', payload: { api_key: c.key } })
    const cookie = String(s.headers['set-cookie']).split(';', 1)[0]!
    const page = await t.app.inject({ method: 'GET', url: '/console/segments/12', headers: { cookie } })
    expect(page.statusCode).toBe(200)
    expect(page.body).toBe(signInPage.body)
  })

  it('serves hashed bundles for a year, revalidates index.html by ETag, and 404s unknown files', async () => {
    const index = await t.app.inject({ method: 'GET', url: '/console/sign-in' })
    const js = /src="(\/console\/assets\/[\w-]+\.js)"/.exec(index.body)![1]!
    const bundle = await t.app.inject({ method: 'GET', url: js })
    expect(bundle.statusCode).toBe(200)
    expect(bundle.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(bundle.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    const again = await t.app.inject({ method: 'GET', url: '/console/sign-in', headers: { 'if-none-match': String(index.headers.etag) } })
    expect(again.statusCode).toBe(304)
    expect((await t.app.inject({ method: 'GET', url: '/console/assets/nope.js' })).statusCode).toBe(404)
    expect((await t.app.inject({ method: 'GET', url: '/console/../package.json' })).statusCode).not.toBe(200)
  })
})

describe('console logs', () => {
  it('never carry the API key or the session token', async () => {
    const { openTestDb } = await import('../helpers/db.ts')
    const tdb = await openTestDb('pglite')
    const lines: string[] = []
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(chunk.toString())
        cb()
      },
    })
    const ctx = createContext(tdb.db, new ManualClock(), testConfig())
    const app = await buildApp(ctx, { logger: pino({ level: 'trace' }, sink), features: [consoleFeature, snowballFeature] })
    try {
      const { api_key } = await createKey(tdb.db, { name: 'log', now: new Date() })
      const s = await app.inject({ method: 'POST', url: '/console/session', payload: { api_key } })
      const token = cookieOf(s.headers['set-cookie']).token!
      await app.inject({ method: 'GET', url: '/v1/snowball/campaigns', headers: { cookie: `curata_session=${token}` } })
      await app.inject({ method: 'POST', url: '/console/session', payload: { api_key: `${api_key}x` } })
      const all = lines.join('')
      expect(lines.length).toBeGreaterThan(3)
      expect(all).not.toContain(api_key.slice(4))
      expect(all).not.toContain(token)
    } finally {
      await app.close()
      await tdb.close()
    }
  })
})
