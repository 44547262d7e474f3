/**
 * What GET /v1/curation/optimizations/{id} tells about the change: `status` stays the spec's
 * `accepted`; `outcome` is pending → applied (with result) or failed (with failure) after the job's
 * last attempt.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { json } from '../helpers/app.ts'
import type { ManualClock } from '../helpers/clock.ts'
import { describeEachEngine } from '../helpers/db.ts'
import { waitFor } from '../helpers/wait.ts'
import { indexTopic } from './fixtures.ts'
import type { CurationTestApp, SegmentRecord } from './helpers.ts'
import { createCurationApp } from './helpers.ts'

const path = '/v1/curation/optimizations'

interface OptimizationRecord {
  id: number
  status: string
  applied_date: string | null
  outcome: 'pending' | 'applied' | 'failed'
  result: { removed: number; added: number; url_count: number } | null
  failure: { code: string; message: string; failed_date: string | null } | null
}

describeEachEngine('optimization outcomes', (getDb) => {
  let t: CurationTestApp
  let a: { headers: Record<string, string>; clientId: number }
  let b: { headers: Record<string, string> }
  let seg: SegmentRecord
  const arenas = ['https://www.arena.example/1', 'https://www.arena.example/2', 'https://www.goal.example/1', 'https://www.pitch.example/1']

  const job = async (id: number) =>
    (
      await getDb().db.query<{ status: string; attempts: number; run_at: Date; last_error: string | null }>(
        `SELECT status, attempts, run_at, last_error FROM jobs WHERE kind = 'curation.optimize' AND (payload->>'optimizationId')::bigint = $1`,
        [id],
      )
    ).rows[0]
  /** Waits until the optimization is no longer pending, moving the app's clock to each retry. */
  const settled = async (id: number): Promise<OptimizationRecord> => {
    const clock = t.ctx.clock as ManualClock
    let rec: OptimizationRecord | null = null
    await waitFor(
      async () => {
        const j = await job(id)
        if (j?.status === 'queued' && j.run_at > clock.now()) clock.set(j.run_at)
        rec = json<OptimizationRecord>(await t.get(a.headers, `${path}/${id}`))
        return rec.outcome !== 'pending'
      },
      30_000,
      `optimization ${id} to settle`,
    )
    return rec!
  }

  beforeAll(async () => {
    t = await createCurationApp(getDb().db)
    a = await t.client()
    b = await t.client()
    await indexTopic(getDb().db, 'sports', arenas, 800)
    seg = await t.build(a.headers, { prompt: 'sports fans following games, results and transfer news' })
  })
  afterAll(() => t.close())

  it('shows a failed application on GET after the last attempt; the creation answer stays accepted', async () => {
    const db = getDb().db
    // A database fault on every attempt: recording the applied change is refused.
    await db.query('ALTER TABLE optimizations ADD CONSTRAINT test_refuse_apply CHECK (applied_date IS NULL) NOT VALID')
    let id: number
    try {
      const before = (await t.urls(a.headers, seg.id)).map((u) => u.url)
      expect(before).toContain('https://www.goal.example/1')
      const res = await t.post(a.headers, path, { segment_id: seg.id, block: { domains: ['goal.example'] } })
      expect(res.statusCode, res.body).toBe(201)
      expect(json(res)).toMatchObject({ status: 'accepted', outcome: 'pending', applied_date: null, result: null, failure: null })
      id = json<{ id: number }>(res).id
      const rec = await settled(id)
      expect(rec).toMatchObject({
        status: 'accepted',
        outcome: 'failed',
        applied_date: null,
        result: null,
        failure: { code: 'optimization_failed', message: expect.stringContaining('not applied'), failed_date: expect.any(String) },
      })
      expect(JSON.stringify(rec)).not.toContain('constraint')
      expect(await job(id)).toMatchObject({ status: 'failed', attempts: 3, last_error: expect.stringContaining('test_refuse_apply') })
      // Nothing of it reached the segment.
      expect((await t.urls(a.headers, seg.id)).map((u) => u.url)).toEqual(before)
    } finally {
      await db.query('ALTER TABLE optimizations DROP CONSTRAINT test_refuse_apply')
    }
    // The listing says the same; another client still sees a 404.
    const list = json<OptimizationRecord[]>(await t.get(a.headers, `${path}?segment_id=${seg.id}`))
    expect(list.find((o) => o.id === id)?.outcome).toBe('failed')
    expect((await t.get(b.headers, `${path}/${id}`)).statusCode).toBe(404)
  })

  it('shows an applied change with what it did', async () => {
    const res = await t.post(a.headers, path, { segment_id: seg.id, block: { domains: ['goal.example'] } })
    const rec = await settled(json<{ id: number }>(res).id)
    expect(rec).toMatchObject({ status: 'accepted', outcome: 'applied', applied_date: expect.any(String), failure: null, result: { removed: 1, added: 0 } })
    expect(rec.result!.url_count).toBe((await t.urls(a.headers, seg.id)).length)
    expect((await t.urls(a.headers, seg.id)).map((u) => u.url)).not.toContain('https://www.goal.example/1')
  })
})
