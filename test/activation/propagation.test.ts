import { afterAll, beforeAll, expect, it } from 'vitest'

import { activationJobs } from '../../src/activation/jobs.ts'
import { propagateChanges } from '../../src/activation/propagate.ts'
import type { Worker } from '../../src/platform/jobs/worker.ts'
import { createWorker } from '../../src/platform/jobs/worker.ts'
import { indexTopic } from '../curation/fixtures.ts'
import type { CurationTestApp } from '../curation/helpers.ts'
import { createCurationApp } from '../curation/helpers.ts'
import { json } from '../helpers/app.ts'
import type { ManualClock } from '../helpers/clock.ts'
import { describeEachEngine } from '../helpers/db.ts'
import { waitFor } from '../helpers/wait.ts'
import type { Act } from './app.ts'
import { seedSegment, setSegmentUrls } from './seed.ts'

type Headers = Record<string, string>

/** Segment changes reaching the deals through the connector (docs/activation.md "Optimizations reach live deals"). */
describeEachEngine('propagation of segment changes to deals', (getDb, engine) => {
  let t: CurationTestApp
  let activationWorker: Worker
  let clock: ManualClock
  let h: Headers
  let clientId: number
  beforeAll(async () => {
    t = await createCurationApp(getDb().db)
    clock = t.ctx.clock as ManualClock
    activationWorker = createWorker({ db: getDb().db, clock, handlers: activationJobs(t.ctx).filter((j) => !j.everyMs), pollMs: 20, graceMs: 500 })
    await activationWorker.start()
    const c = await t.client()
    h = c.headers
    clientId = c.clientId
  })
  afterAll(async () => {
    await activationWorker.stop()
    await t.close()
  })

  const activation = async (id: number) => json<Act>(await t.get(h, `/v1/curation/activations/${id}`))
  const activate = async (segmentId: number, seat: string): Promise<Act> => {
    const res = await t.post(h, '/v1/curation/activations', { segment_ids: [segmentId], dsp: 'ttd', buyer_seat: seat })
    expect(res.statusCode, res.body).toBe(201)
    const id = json<Act>(res).id
    await waitFor(async () => (await activation(id)).estimated_ready_date != null, 15_000, `activation ${id} to be issued`)
    clock.advance(30_000)
    await waitFor(async () => (await activation(id)).status === 'complete', 15_000, `activation ${id} to complete`)
    return activation(id)
  }
  const sandboxDeal = async (dealId: string) =>
    (
      await t.ctx.db.query<{ update_count: number; targeting: { urls: string[]; domains: string[] } }>(
        'SELECT update_count, targeting FROM sandbox_deals WHERE deal_id = $1',
        [dealId],
      )
    ).rows[0]!
  const unpropagated = async () =>
    (await t.ctx.db.query<{ segment_id: number }>('SELECT segment_id FROM segment_changes WHERE propagated_at IS NULL ORDER BY id')).rows.map(
      (r) => r.segment_id,
    )

  it("a deleted segment's live deal ends: the SSP is told and the activation says why", async () => {
    const urls = ['https://www.court.example/1', 'https://www.court.example/2', 'https://www.rally.example/1']
    await indexTopic(getDb().db, 'sports', urls, 900)
    const seg = await t.build(h, { prompt: 'tennis fans following tournaments and results' })
    const a = await activate(seg.id, 'delete-seat')
    expect(a).toMatchObject({ deal_state: 'live' })
    await propagateChanges(t.ctx)
    const del = await t.app.inject({ method: 'DELETE', url: `/v1/curation/segment-requests/${seg.id}`, headers: h })
    expect(del.statusCode, del.body).toBe(200)
    expect(await unpropagated()).toContain(seg.id)
    await propagateChanges(t.ctx)
    expect(await unpropagated()).not.toContain(seg.id)
    expect(await activation(a.id)).toMatchObject({
      deal_id: a.deal_id,
      deal_state: 'ended',
      deal_state_reason: `segment ${seg.id} was deleted; the deal no longer serves`,
    })
    const { rows } = await t.ctx.db.query<{ status: string }>('SELECT status FROM sandbox_deals WHERE deal_id = $1', [a.deal_id])
    expect(rows[0]?.status).toBe('inactive')
  })

  it('a block optimization of an activated segment reaches its live sandbox deal', async () => {
    const urls = ['https://www.arena.example/1', 'https://www.arena.example/2', 'https://www.goal.example/1', 'https://www.pitch.example/1']
    await indexTopic(getDb().db, 'sports', urls, 700)
    const seg = await t.build(h, { prompt: 'sports fans following games, results and transfer news' })
    expect(seg.status).toBe('complete')
    expect((await t.urls(h, seg.id)).map((u) => u.url)).toContain('https://www.goal.example/1')
    const a = await activate(seg.id, 'e2e-seat')
    await propagateChanges(t.ctx) // the build's own change
    const before = await sandboxDeal(a.deal_id!)
    expect(before.targeting.urls).toContain('https://www.goal.example/1')

    const opt = await t.post(h, '/v1/curation/optimizations', { segment_id: seg.id, block: { urls: ['https://www.goal.example/1'] } })
    expect(opt.statusCode, opt.body).toBe(201)
    const optId = json<{ id: number }>(opt).id
    await waitFor(async () => json<{ applied_date: string | null }>(await t.get(h, `/v1/curation/optimizations/${optId}`)).applied_date !== null)

    expect(await propagateChanges(t.ctx)).toBe(1)
    const after = await sandboxDeal(a.deal_id!)
    expect(after.update_count).toBe(before.update_count + 1)
    expect(after.targeting.urls).not.toContain('https://www.goal.example/1')
    expect(after.targeting.domains).not.toContain('goal.example')
    expect(after.targeting.urls.length).toBe(before.targeting.urls.length - 1)
    expect((await activation(a.id)).targeting).toMatchObject({ url_count: after.targeting.urls.length })
    expect(await unpropagated()).toEqual([])
    expect(await propagateChanges(t.ctx)).toBe(0) // nothing is pushed twice
  })

  it('a change waits while an activation of its segment is being issued, then reaches that deal too', async () => {
    const seg = await seedSegment(t.ctx.db, clientId)
    // An activation the issuing job has not recorded a deal for yet (no job: it stays that way).
    const { rows } = await t.ctx.db.query<{ id: number }>(
      `INSERT INTO activations (client_id, segment_ids, dsp, buyer_seat, connector, status, created_date)
       VALUES ($1, $2, 'the-trade-desk', 'issuing', 'sandbox', 'processing', $3) RETURNING id`,
      [clientId, [seg], clock.now()],
    )
    await setSegmentUrls(t.ctx.db, clientId, seg, ['https://news.example.com/a', 'https://later.example.net/b'])
    await t.ctx.db.query(`INSERT INTO segment_changes (segment_id, client_id, kind, created_at) VALUES ($1, $2, 'optimization', $3)`, [
      seg,
      clientId,
      clock.now(),
    ])
    expect(await propagateChanges(t.ctx)).toBe(0)
    expect(await unpropagated()).toEqual([seg])
    // The issuing job records its deal (shaped, say, before the change): the change now reaches it.
    await t.ctx.db.query(
      `INSERT INTO sandbox_deals (deal_id, activation_id, dsp, buyer_seat, status, targeting, created_at, updated_at)
       VALUES ('CUR-SBX-ISSUING', $1, 'the-trade-desk', 'issuing', 'active', '{"urls": []}', $2, $2)`,
      [rows[0]!.id, clock.now()],
    )
    await t.ctx.db.query(`UPDATE activations SET deal_id = 'CUR-SBX-ISSUING' WHERE id = $1`, [rows[0]!.id])
    expect(await propagateChanges(t.ctx)).toBe(1)
    expect((await sandboxDeal('CUR-SBX-ISSUING')).targeting.urls).toContain('https://later.example.net/b')
    expect(await unpropagated()).toEqual([])
  })

  // PGlite runs one transaction at a time, so a change cannot commit out of id order there.
  it.skipIf(engine === 'pglite')('a change committed after a later one (a lower id, committed late) is not skipped', async () => {
    const early = await seedSegment(t.ctx.db, clientId)
    const late = await seedSegment(t.ctx.db, clientId)
    const [aEarly, aLate] = [await activate(early, 'race-early'), await activate(late, 'race-late')]
    await propagateChanges(t.ctx)
    const counts = async () => [(await sandboxDeal(aEarly.deal_id!)).update_count, (await sandboxDeal(aLate.deal_id!)).update_count]
    const [e0, l0] = await counts()

    // `late` takes its change id first but commits last.
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    let lateId = 0
    const slow = t.ctx.db.transaction(async (tx) => {
      await setSegmentUrls(tx, clientId, late, ['https://news.example.com/a', 'https://late.example.org/z'])
      const { rows } = await tx.query<{ id: number }>(
        `INSERT INTO segment_changes (segment_id, client_id, kind, created_at) VALUES ($1, $2, 'optimization', $3) RETURNING id`,
        [late, clientId, clock.now()],
      )
      lateId = rows[0]!.id
      await gate
    })
    await waitFor(() => lateId > 0)
    const { rows } = await t.ctx.db.query<{ id: number }>(
      `INSERT INTO segment_changes (segment_id, client_id, kind, created_at) VALUES ($1, $2, 'optimization', $3) RETURNING id`,
      [early, clientId, clock.now()],
    )
    expect(rows[0]!.id).toBeGreaterThan(lateId)
    expect(await propagateChanges(t.ctx)).toBe(1)
    expect(await counts()).toEqual([e0! + 1, l0])

    release()
    await slow
    expect(await propagateChanges(t.ctx)).toBe(1)
    expect(await counts()).toEqual([e0! + 1, l0! + 1])
    expect((await sandboxDeal(aLate.deal_id!)).targeting.urls).toContain('https://late.example.org/z')
  })
})
