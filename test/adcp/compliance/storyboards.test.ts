// The AdCP compliance storyboards against the service as `npm start` runs it: the capability-driven
// run and each storyboard the signals agent must pass, with the AdCP 3.1.19 bundle (vendored in
// fixtures/adcp) and with the one @adcp/sdk 6.11.0 ships, on both engines. No failed step beyond
// the known ones (harness.ts knownFailures, each with its reason).

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { TestDb } from '../../helpers/db.ts'
import { openTestDb, postgresAvailable } from '../../helpers/db.ts'
import type { Bundle, SeededService } from './harness.ts'
import { namedStoryboards, runStoryboards, startSeededService, unexpectedFailures } from './harness.ts'

/** Storyboards of the 3.1.19 bundle that the SDK's 3.0.6 bundle does not have. */
const only319 = new Set([
  'error_compliance_signals',
  'schema_validation_signals',
  'wholesale_feed_signals',
  'version_negotiation',
  'comply_controller_mode_gate',
])

for (const engine of ['pglite', 'postgres'] as const) {
  describe.skipIf(engine === 'postgres' && !postgresAvailable())(`AdCP storyboards, service as npm start runs it [${engine}]`, () => {
    let pg: TestDb | null = null
    let target: SeededService
    beforeAll(async () => {
      let url: string | null = null
      if (engine === 'postgres') {
        pg = await openTestDb('postgres')
        url = `${pg.url}?options=${encodeURIComponent(`-c search_path=${pg.schema}`)}`
      }
      target = await startSeededService(url)
    })
    afterAll(async () => {
      await target?.stop()
      await pg?.close()
    })

    const capabilityDriven = '(capability-driven)'
    const runs: [Bundle, string][] = (['3.1.19', 'sdk'] as const).flatMap((b) =>
      [capabilityDriven, ...namedStoryboards]
        .filter((id) => (b === '3.1.19' ? true : !only319.has(id) && id !== 'signals_baseline/get_signals_async'))
        .map((id): [Bundle, string] => [b, id]),
    )
    it.each(runs)('bundle %s, %s: no failed step but the known ones', async (bundle, id) => {
      const r = await runStoryboards(target, bundle, id === capabilityDriven ? undefined : id)
      expect(unexpectedFailures(r.failures)).toEqual([])
      expect(r.passed + r.failed + r.skipped).toBeGreaterThan(0)
    })
  })
}
