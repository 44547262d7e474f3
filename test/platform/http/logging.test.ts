import { Writable } from 'node:stream'

import pino from 'pino'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createContext } from '../../../src/platform/context.ts'
import type { App } from '../../../src/platform/http/app.ts'
import { buildApp } from '../../../src/platform/http/app.ts'
import { createKey } from '../../../src/platform/keys/keys.ts'
import { snowballFeature } from '../../../src/snowball/routes.ts'
import { testConfig } from '../../helpers/app.ts'
import { ManualClock } from '../../helpers/clock.ts'
import { describeEachEngine } from '../../helpers/db.ts'

describeEachEngine('structured logs', (getDb) => {
  const lines: string[] = []
  let app: App
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(chunk.toString())
        cb()
      },
    })
    const db = getDb().db
    const ctx = createContext(db, new ManualClock(), testConfig())
    app = await buildApp(ctx, { logger: pino({ level: 'trace' }, sink), features: [snowballFeature] })
  })
  afterAll(() => app.close())

  it('carry a request id and never the API key', async () => {
    const { api_key } = await createKey(getDb().db, { name: 'log test', now: new Date() })
    await app.inject({ method: 'GET', url: '/v1/snowball/campaigns', headers: { 'x-api-key': api_key, 'x-request-id': 'req-42' } })
    await app.inject({ method: 'GET', url: '/v1/snowball/campaigns', headers: { authorization: `Bearer ${api_key}` } })
    await app.inject({ method: 'POST', url: '/v1/snowball/campaigns', headers: { 'x-api-key': api_key, 'content-type': 'application/json' }, payload: '{bad' })
    const all = lines.join('')
    expect(lines.length).toBeGreaterThan(3)
    expect(all).toContain('"reqId":"req-42"')
    expect(all).not.toContain(api_key)
    expect(all).not.toContain(api_key.slice(4))
    for (const l of lines) expect(() => JSON.parse(l)).not.toThrow()
  })
})
