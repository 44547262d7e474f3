import { expect, it } from 'vitest'

import { runKeyCommand } from '../../../src/platform/keys/commands.ts'
import type { CreatedKey } from '../../../src/platform/keys/keys.ts'
import { isLiveKey, verifyKey } from '../../../src/platform/keys/keys.ts'
import { ManualClock } from '../../helpers/clock.ts'
import { describeEachEngine } from '../../helpers/db.ts'

describeEachEngine('live API keys', (getDb) => {
  it('keys.create --live records a production credential; other keys stay as they were', async () => {
    const { db } = getDb()
    const clock = new ManualClock('2026-11-27T02:00:00Z')
    const plain = (await runKeyCommand(db, clock, { cmd: 'keys.create', args: { name: 'Acme' } })) as CreatedKey
    const live = (await runKeyCommand(db, clock, { cmd: 'keys.create', args: { name: 'Acme', clientId: plain.client_id, live: true } })) as CreatedKey
    expect([plain.live, live.live]).toEqual([false, true])
    expect([await isLiveKey(db, plain.key_id), await isLiveKey(db, live.key_id), await isLiveKey(db, 999_999)]).toEqual([false, true, false])
    // a live key authenticates like any other
    expect(await verifyKey(db, live.api_key)).toEqual({ keyId: live.key_id, clientId: plain.client_id })
    const listed = (await runKeyCommand(db, clock, { cmd: 'keys.list', args: {} })) as { id: number; live: boolean }[]
    expect(listed.filter((k) => [plain.key_id, live.key_id].includes(k.id)).map((k) => k.live)).toEqual([false, true])
  })
})
