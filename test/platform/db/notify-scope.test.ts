import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { notify } from '../../../src/platform/db/db.ts'
import { openTestDb, postgresAvailable, type TestDb } from '../../helpers/db.ts'
import { waitFor } from '../../helpers/wait.ts'

// Two Curata databases on different schemas of one PostgreSQL database (as the tests run, and as a
// shared server may host): a NOTIFY of one must not reach the other's listeners (pixel campaign ids,
// for one, repeat across schemas).
describe.skipIf(!postgresAvailable())('NOTIFY channels are scoped to the schema [postgres]', () => {
  let a: TestDb
  let b: TestDb
  beforeAll(async () => {
    a = await openTestDb('postgres')
    b = await openTestDb('postgres')
  })
  afterAll(async () => {
    await a?.close()
    await b?.close()
  })

  it('delivers a schema its own notifications and none of another schema', async () => {
    const heard: string[] = []
    const unlisten = await a.db.listen('curata_test', (payload) => heard.push(payload))
    await notify(b.db, 'curata_test', 'from b')
    await notify(a.db, 'curata_test', 'from a')
    await waitFor(async () => heard.includes('from a'))
    // b's notification was sent first, so it would have arrived first on a shared channel.
    expect(heard).toEqual(['from a'])
    await unlisten()
  })
})
