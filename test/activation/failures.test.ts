import { afterAll, beforeAll, expect, it } from 'vitest'
import { json } from '../helpers/app.ts'
import { ManualClock } from '../helpers/clock.ts'
import { describeEachEngine } from '../helpers/db.ts'
import { waitFor } from '../helpers/wait.ts'
import type { Act, ActivationTestApp } from './app.ts'
import { startActivationApp } from './app.ts'
import { seedSegment } from './seed.ts'

// What a database error would say; none of it may reach a buyer.
const internals = /constraint|activations_|SELECT|relation|trigger|violates/i

describeEachEngine('activation failures', (getDb) => {
  const clock = new ManualClock('2026-11-22T10:00:00Z')
  let t: ActivationTestApp
  beforeAll(async () => {
    t = await startActivationApp(getDb().db, clock)
    // A database failure on chosen buyer seats, raised the way PostgreSQL reports a broken
    // constraint: when issuance is recorded (seat `breaks-on-issue`) or when the deal is confirmed
    // (seat `breaks-on-confirm`).
    await getDb().db.query(
      `CREATE FUNCTION break_for_test() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         RAISE EXCEPTION 'duplicate key value violates unique constraint "activations_deal_id_key" (SELECT * FROM activations WHERE id = %)', NEW.id;
       END $$`,
    )
    await getDb().db.query(
      `CREATE TRIGGER break_issue BEFORE UPDATE ON activations FOR EACH ROW
        WHEN (NEW.buyer_seat LIKE 'breaks-on-issue%' AND OLD.deal_id IS NULL AND NEW.deal_id IS NOT NULL)
        EXECUTE FUNCTION break_for_test()`,
    )
    await getDb().db.query(
      `CREATE TRIGGER break_confirm BEFORE UPDATE ON activations FOR EACH ROW
        WHEN (NEW.buyer_seat = 'breaks-on-confirm' AND NEW.status = 'complete')
        EXECUTE FUNCTION break_for_test()`,
    )
  })
  afterAll(async () => {
    await t.close()
  })

  it('a retryable SSP error on every attempt ends in failed with a readable reason after the 5th', async () => {
    const c = await t.client()
    const seg = await seedSegment(t.ctx.db, c.clientId)
    const a = json<Act>(await t.post(c.headers, { segment_ids: [seg], dsp: 'ttd', buyer_seat: 'sandbox-unavailable-1' }))
    const states: string[] = []
    const last = await t.settle('activation.issue', a.id, async (j) => {
      const now = await t.get(c.headers, a.id)
      states.push(now.status)
      if (j.status === 'queued') {
        // Between attempts the activation is still being processed, with no reason yet.
        expect(now.status).toBe('processing')
        expect(now.failure_reason).toBeNull()
      }
    })
    expect(last).toMatchObject({ status: 'failed', attempts: 5 })
    expect(states).toEqual(['processing', 'processing', 'processing', 'processing', 'failed'])
    const failed = await t.get(c.headers, a.id)
    expect(failed).toMatchObject({ status: 'failed', deal_id: null, processed_date: null, deal_state: null })
    expect(failed.failure_reason).toBe('the Deal ID could not be issued: sandbox SSP is temporarily unavailable (HTTP 503) (failed attempt 5 of 5)')
    const { rows } = await t.ctx.db.query('SELECT 1 FROM sandbox_deals WHERE activation_id = $1', [a.id])
    expect(rows).toHaveLength(0)
  })

  it('a deal that cannot be confirmed stays processing while retried, then fails without leaking internals', async () => {
    const c = await t.client()
    const seg = await seedSegment(t.ctx.db, c.clientId)
    const a = json<Act>(await t.post(c.headers, { segment_ids: [seg], dsp: 'ttd', buyer_seat: 'breaks-on-confirm' }))
    await t.issued(c.headers, a.id)
    clock.advance(30_000) // the deal is due to go live: the complete job runs, and breaks
    const last = await t.settle('activation.complete', a.id, async (j) => {
      if (j.status === 'queued') {
        const now = await t.get(c.headers, a.id)
        expect(now.status).toBe('processing')
        expect(now.deal_id).toBeNull()
        expect(now.failure_reason).toBeNull()
      }
    })
    expect(last.status).toBe('failed')
    // Operators keep the database's own words; the buyer does not see them.
    expect(last.last_error).toMatch(/violates unique constraint/)
    const failed = await t.get(c.headers, a.id)
    expect(failed.status).toBe('failed')
    expect(failed.failure_reason).toMatch(/^the deal could not be confirmed: an internal error stopped processing/)
    expect(failed.failure_reason).not.toMatch(internals)
    expect(failed).toMatchObject({ deal_id: null, processed_date: null, deal_state: null })
  })

  it('a database error while issuing, on every attempt, gives the same generic reason', async () => {
    const c = await t.client()
    const seg = await seedSegment(t.ctx.db, c.clientId)
    const a = json<Act>(await t.post(c.headers, { segment_ids: [seg], dsp: 'ttd', buyer_seat: 'breaks-on-issue-always' }))
    expect((await t.settle('activation.issue', a.id)).status).toBe('failed')
    const failed = await t.get(c.headers, a.id)
    expect(failed.failure_reason).toMatch(/^the Deal ID could not be issued: an internal error stopped processing/)
    expect(failed.failure_reason).not.toMatch(internals)
  })

  it('a retry after the deal was issued but not recorded gets the same deal, not a second one', async () => {
    const c = await t.client()
    const seg = await seedSegment(t.ctx.db, c.clientId)
    const a = json<Act>(await t.post(c.headers, { segment_ids: [seg], dsp: 'ttd', buyer_seat: 'breaks-on-issue-once' }))
    // Attempt 1: the sandbox SSP issues the deal, then recording it in the activation fails.
    // One read of the job: status and attempts of the same moment (two reads could straddle a claim).
    await waitFor(async () => {
      const j = await t.job('activation.issue', a.id)
      return j?.status === 'queued' && j.attempts === 1
    })
    const first = await t.ctx.db.query<{ deal_id: string }>('SELECT deal_id FROM sandbox_deals WHERE activation_id = $1', [a.id])
    expect(first.rows).toHaveLength(1)
    expect((await t.get(c.headers, a.id)).status).toBe('processing')
    // The database recovers (the seat no longer trips the trigger); attempt 2 asks the SSP again.
    await t.ctx.db.query(`UPDATE activations SET buyer_seat = 'recovered' WHERE id = $1`, [a.id])
    clock.advance(10 * 60_000)
    await waitFor(async () => (await t.job('activation.issue', a.id))?.status === 'done')
    expect((await t.job('activation.issue', a.id))!.attempts).toBe(2)
    const deals = await t.ctx.db.query<{ deal_id: string }>('SELECT deal_id FROM sandbox_deals WHERE activation_id = $1', [a.id])
    expect(deals.rows).toEqual(first.rows)
    // The SSP's sync latency ran from when it created the deal, 10 minutes ago: the deal is live now.
    await waitFor(async () => (await t.get(c.headers, a.id)).status === 'complete')
    expect((await t.get(c.headers, a.id)).deal_id).toBe(first.rows[0]!.deal_id)
  })
})
