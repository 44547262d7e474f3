import type { ChildProcess } from 'node:child_process'
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

import { Webhook as Verifier } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { systemClock } from '../../../src/platform/clock.ts'
import { emitEvent } from '../../../src/platform/webhooks/outbox.ts'
import type { TestApp } from '../../helpers/app.ts'
import { createTestApp, json } from '../../helpers/app.ts'
import type { TestDb } from '../../helpers/db.ts'
import { openTestDb, postgresAvailable } from '../../helpers/db.ts'
import { waitFor } from '../../helpers/wait.ts'
import type { Receiver } from './receiver.ts'
import { startReceiver } from './receiver.ts'

const script = fileURLToPath(new URL('./fixtures/delivery-worker.ts', import.meta.url))

/** A delivery worker process killed with SIGKILL after the event committed, before it was delivered. */
describe.skipIf(!postgresAvailable())('webhook delivery survives a worker killed mid-delivery [postgres]', () => {
  let db: TestDb
  let t: TestApp
  let rx: Receiver
  const children: ChildProcess[] = []
  beforeAll(async () => {
    db = await openTestDb('postgres')
    t = await createTestApp(db.db, { clock: systemClock })
    rx = await startReceiver()
  })
  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL')
    await rx?.close()
    await t?.close()
    await db?.close()
  })

  function spawnWorker() {
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      env: { ...process.env, PG_URL: db.url!, PG_SCHEMA: db.schema!, JOB_LEASE_MS: '1000', JOB_POLL_MS: '50', WEBHOOK_TIMEOUT_MS: '60000' },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    children.push(child)
    let out = ''
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()))
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
    return { child, output: () => out, exited }
  }

  it('delivers after a restart, under the same webhook-id, signed with the secret every process shares', async () => {
    const { clientId, headers } = await t.client()
    const res = await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers, payload: { url: `${rx.url}/hook`, event_types: ['segment.completed'] } })
    expect(res.statusCode).toBe(201)
    const { secret, id: subId } = json<{ secret: string; id: number }>(res)
    const delivery = async () =>
      (await db.db.query<{ status: string; attempts: number }>('SELECT status, attempts FROM webhook_deliveries WHERE subscription_id = $1', [subId])).rows[0]

    // The first request hangs: the worker is killed while it waits for the answer.
    rx.answers.push(0)
    const a = spawnWorker()
    await waitFor(() => a.output().includes('ready'), 30_000, 'worker A ready')
    await db.db.transaction((tx) => emitEvent(tx, { clientId, type: 'segment.completed', data: { id: 42 }, now: new Date() }))
    await waitFor(() => rx.received.length === 1, 20_000, 'the first attempt')
    a.child.kill('SIGKILL')
    await a.exited
    expect(await delivery()).toEqual({ status: 'pending', attempts: 0 })

    const b = spawnWorker()
    await waitFor(async () => (await delivery())?.status === 'delivered', 30_000, 'delivery after the restart')
    expect(rx.received).toHaveLength(2)
    expect(rx.received[1]!.headers['webhook-id']).toBe(rx.received[0]!.headers['webhook-id'])
    for (const r of rx.received) expect(new Verifier(secret).verify(r.body, r.headers)).toMatchObject({ type: 'segment.completed', data: { id: 42 } })
    expect(await delivery()).toEqual({ status: 'delivered', attempts: 1 })
    b.child.kill('SIGTERM')
    expect(await b.exited).toBe(0)
  })
})
