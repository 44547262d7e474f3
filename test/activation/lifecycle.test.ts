import { afterAll, beforeAll, expect, it } from 'vitest'
import { runLifecycle } from '../../src/activation/lifecycle.ts'
import { ManualClock } from '../helpers/clock.ts'
import { describeEachEngine } from '../helpers/db.ts'
import type { Act, ActivationTestApp } from './app.ts'
import { startActivationApp } from './app.ts'
import { recordDealUse } from './deal-usage.ts'
import { seedSegment } from './seed.ts'

const hour = 3_600_000
const day = 24 * hour

/** The 14-day rule pinned on both sides (docs/activation.md "The Deal ID lifecycle"). */
describeEachEngine('deal lifecycle: the 14-day rule', (getDb) => {
  const clock = new ManualClock('2026-11-22T10:00:00Z')
  let t: ActivationTestApp
  let headers: Record<string, string>
  let seg: number
  beforeAll(async () => {
    t = await startActivationApp(getDb().db, clock)
    const c = await t.client()
    headers = c.headers
    seg = await seedSegment(t.ctx.db, c.clientId)
  })
  afterAll(async () => {
    await t.close()
  })

  const state = async (a: Act) => (await t.get(headers, a.id)).deal_state
  const at = async (ms: number) => {
    clock.set(new Date(ms))
    await runLifecycle(t.ctx)
  }

  it('a deal never used is live at 14 days minus an hour and shut down at 14 days plus an hour', async () => {
    const a = await t.activate(headers, { segment_ids: [seg], dsp: 'ttd', buyer_seat: 'never-used' })
    const issued = Date.parse(a.processed_date as string)
    await at(issued + 14 * day - hour)
    expect(await state(a)).toBe('live')
    await at(issued + 14 * day + hour)
    expect(await state(a)).toBe('shut_down')
    expect((await t.get(headers, a.id)).deal_state_reason).toBe('unused for more than 14 days; the SSP shut the deal down')
  })

  it('a deal last used 13 days ago stays live, and shuts down 14 days after the end of its last day of use', async () => {
    const a = await t.activate(headers, { segment_ids: [seg], dsp: 'ttd', buyer_seat: 'used-once' })
    const issued = Date.parse(a.processed_date as string)
    const used = issued + 2 * day
    await recordDealUse(t.ctx.db, a.deal_id!, new Date(used))
    // 15 days after issue, 13 after use.
    await at(used + 13 * day)
    expect(await t.get(headers, a.id)).toMatchObject({ deal_state: 'live' })
    // Use on a day counts until the end of that (UTC) day.
    const endOfUseDay = Date.parse(new Date(used).toISOString().slice(0, 10)) + day
    expect((await t.get(headers, a.id)).deal_last_used_date).toBe(new Date(endOfUseDay).toISOString())
    await at(endOfUseDay + 14 * day - hour)
    expect(await state(a)).toBe('live')
    await at(endOfUseDay + 14 * day + hour)
    expect(await state(a)).toBe('shut_down')
  })
})
