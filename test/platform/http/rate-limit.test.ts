import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TestApp } from '../../helpers/app.ts'
import { createTestApp, json } from '../../helpers/app.ts'
import { ManualClock } from '../../helpers/clock.ts'
import { describeEachEngine } from '../../helpers/db.ts'

describeEachEngine('rate limit', (getDb) => {
  let t: TestApp
  const clock = new ManualClock('2026-11-22T10:00:10Z')
  beforeAll(async () => {
    t = await createTestApp(getDb().db, { clock, config: { rateLimitPerMinute: 120 } })
  })
  afterAll(() => t.close())

  it('lets 120 requests a minute through per key and answers the 121st with 429 and Retry-After', async () => {
    const a = await t.client()
    const b = await t.client()
    for (let i = 0; i < 120; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/v1/snowball/campaigns', headers: a.headers })
      expect(res.statusCode).toBe(200)
    }
    const over = await t.app.inject({ method: 'GET', url: '/v1/snowball/campaigns', headers: a.headers })
    expect(over.statusCode).toBe(429)
    expect(json(over).error).toBe('rate_limited')
    expect(over.headers['retry-after']).toBe('50')
    // Another key has its own budget.
    expect((await t.app.inject({ method: 'GET', url: '/v1/snowball/campaigns', headers: b.headers })).statusCode).toBe(200)
    // The next window starts afresh.
    clock.advance(50_000)
    expect((await t.app.inject({ method: 'GET', url: '/v1/snowball/campaigns', headers: a.headers })).statusCode).toBe(200)
  })
})
