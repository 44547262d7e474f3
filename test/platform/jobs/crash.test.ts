import type { ChildProcess } from 'node:child_process'
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { systemClock } from '../../../src/platform/clock.ts'
import { enqueue } from '../../../src/platform/jobs/queue.ts'
import type { TestDb } from '../../helpers/db.ts'
import { openTestDb, postgresAvailable } from '../../helpers/db.ts'
import { waitFor } from '../../helpers/wait.ts'

const script = fileURLToPath(new URL('./fixtures/worker-process.ts', import.meta.url))

/** Worker processes sharing one PostgreSQL schema: killed, stopped, and taking over from each other. */
describe.skipIf(!postgresAvailable())('job workers as processes [postgres]', () => {
  let t: TestDb
  const children: ChildProcess[] = []
  beforeAll(async () => {
    t = await openTestDb('postgres')
    await t.db.exec('CREATE TABLE test_effects (job_id bigint)')
  })
  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL')
    await t.close()
  })

  function spawnWorker(env: Record<string, string> = {}) {
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      env: { ...process.env, PG_URL: t.url!, PG_SCHEMA: t.schema!, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    children.push(child)
    let out = ''
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()))
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
    return { child, output: () => out, exited }
  }
  const status = async (id: number) =>
    (await t.db.query<{ status: string; attempts: number }>('SELECT status, attempts FROM jobs WHERE id = $1', [id])).rows[0]!
  const effectCount = async (id: number) => (await t.db.query('SELECT 1 FROM test_effects WHERE job_id = $1', [id])).rows.length

  it('a worker killed with SIGKILL mid-job loses nothing: another completes the job exactly once', async () => {
    const id = (await enqueue(t.db, 'test.effect', { sleepMs: 2500 }, { now: systemClock.now() }))!
    const a = spawnWorker({ LEASE_MS: '1000' })
    await waitFor(() => a.output().includes(`claimed ${id}`), 20_000, 'worker A to claim')
    a.child.kill('SIGKILL')
    await a.exited
    expect(await effectCount(id)).toBe(0)
    const b = spawnWorker({ LEASE_MS: '1000' })
    await waitFor(async () => (await status(id)).status === 'done', 20_000, 'worker B to finish')
    expect(b.output()).toContain(`claimed ${id}`)
    expect(await effectCount(id)).toBe(1)
    expect((await status(id)).attempts).toBe(2)
    b.child.kill('SIGTERM')
    expect(await b.exited).toBe(0)
  })

  it('SIGTERM lets the running job finish and exits 0', async () => {
    const w = spawnWorker({ GRACE_MS: '10000' })
    await waitFor(() => w.output().includes('ready'), 20_000, 'worker ready')
    const id = (await enqueue(t.db, 'test.effect', { sleepMs: 800 }, { now: systemClock.now() }))!
    await waitFor(() => w.output().includes(`claimed ${id}`), 20_000, 'claim')
    w.child.kill('SIGTERM')
    expect(await w.exited).toBe(0)
    expect(await status(id)).toMatchObject({ status: 'done' })
    expect(await effectCount(id)).toBe(1)
  })

  it('SIGTERM gives back a job that outlives the grace period and exits 0; the next worker completes it', async () => {
    const w = spawnWorker({ GRACE_MS: '200' })
    await waitFor(() => w.output().includes('ready'), 20_000, 'worker ready')
    const id = (await enqueue(t.db, 'test.effect', { sleepMs: 60_000 }, { now: systemClock.now() }))!
    await waitFor(() => w.output().includes(`claimed ${id}`), 20_000, 'claim')
    w.child.kill('SIGTERM')
    expect(await w.exited).toBe(0)
    expect(await status(id)).toMatchObject({ status: 'queued', attempts: 0 })
    await t.db.query(`UPDATE jobs SET payload = '{"sleepMs": 10}' WHERE id = $1`, [id])
    const next = spawnWorker()
    await waitFor(async () => (await status(id)).status === 'done', 20_000, 'completion')
    expect(await effectCount(id)).toBe(1)
    next.child.kill('SIGTERM')
    await next.exited
  })
})
