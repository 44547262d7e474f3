// Real AdCP clients against the agent on loopback: @adcp/client 4.8.0's typed getSignals /
// activateSignal with strict response validation, and the @adcp/sdk 6.11.0 compliance storyboards
// (signals_baseline, security_baseline, signal_marketplace), which validate every response against
// the AdCP 3.0 JSON schemas.

import type { GetSignalsResponse } from '@adcp/client'
import { ADCPMultiAgentClient } from '@adcp/client'
import type { StoryboardResult } from '@adcp/sdk/testing'
import { getComplianceStoryboardById, runStoryboard } from '@adcp/sdk/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { indexTopic } from '../curation/fixtures.ts'
import { describeEachEngine } from '../helpers/db.ts'
import type { Agent } from './helpers.ts'
import { seedIndex, startAgent } from './helpers.ts'
import { schemaProblems } from './schemas.ts'

/** The failing steps of a storyboard run, readable (empty when it passed). */
function failures(r: StoryboardResult): string[] {
  return r.phases.flatMap((phase) =>
    phase.steps
      .filter((s) => !s.passed)
      .map(
        (s) =>
          `${phase.phase_id}.${s.step_id}: ${s.error ?? ''} ${s.validations
            .filter((v) => !v.passed)
            .map((v) => `${v.check} ${v.error ?? ''}`)
            .join('; ')}`,
      ),
  )
}

describeEachEngine('AdCP clients', (getDb) => {
  let agent: Agent
  let key: string
  beforeAll(async () => {
    agent = await startAgent(getDb().db, { latencySeconds: 300 })
    // A real catalog, computed from a small index: every signal offered has pages behind it, so
    // activating whichever one a storyboard picks builds a segment with URLs. The storyboards ask
    // for "adults interested in electric vehicles": the index has such pages, as an agent's would.
    await indexTopic(
      getDb().db,
      'autos',
      ['https://ev.example.com/a', 'https://ev.example.com/b', 'https://cars.example.org/c', 'https://cars.example.org/d'],
      60,
    )
    await seedIndex(agent)
    key = (await agent.client()).key
  })
  afterAll(async () => {
    await agent?.close()
  })

  describe('@adcp/client 4.8.0 (strict schema validation)', () => {
    const connect = () =>
      new ADCPMultiAgentClient([{ id: 'curata', name: 'Curata', agent_uri: agent.mcpUrl, protocol: 'mcp', auth_token: key }], {
        validation: { strictSchemaValidation: true },
      }).agent('curata')

    it('getSignals and activateSignal, typed', async () => {
      const a = connect()
      const found = await a.getSignals({
        signal_spec: 'sports fans following games, results and transfer news',
        destinations: [{ type: 'platform', platform: 'the-trade-desk', account: 'agency-123-ttd' }],
        countries: ['US'],
        filters: { catalog_types: ['marketplace'], max_cpm: 2 },
        max_results: 5,
      })
      expect(found.error).toBeUndefined()
      expect(found).toMatchObject({ success: true, status: 'completed' })
      const signals = (found.data as GetSignalsResponse).signals
      expect(signals[0]).toMatchObject({ signal_agent_segment_id: 'iab:483', signal_type: 'marketplace' })
      expect(schemaProblems('get-signals-response', found.data)).toEqual([])

      const activated = await a.activateSignal({
        signal_agent_segment_id: signals[0]!.signal_agent_segment_id,
        destinations: [{ type: 'platform', platform: 'the-trade-desk', account: 'agency-123-ttd' }],
        pricing_option_id: signals[0]!.pricing_options[0]!.pricing_option_id,
      })
      expect(activated.error).toBeUndefined()
      expect(activated).toMatchObject({ success: true, status: 'completed' })
      expect(activated.data).toMatchObject({
        deployments: [
          { type: 'platform', platform: 'the-trade-desk', is_live: false, estimated_activation_duration_minutes: 5, activation_key: { type: 'segment_id' } },
        ],
        activation: { status: 'activating', deal_id: expect.stringMatching(/^CUR-SBX-/) },
      })
    })

    it("passes the spec's deliver_to form through the generic call (4.x moves it into destinations)", async () => {
      const r = await connect().executeTask('get_signals', {
        signal_spec: 'business decision-makers following company news, markets and the economy',
        deliver_to: { deployments: [{ platform: 'ttd', account: 'seat-2' }], countries: ['US'] },
      })
      expect(r.error).toBeUndefined()
      const signals = (r.data as GetSignalsResponse).signals
      expect(signals[0]!.signal_agent_segment_id).toBe('iab:52')
      expect(signals[0]!.deployments).toMatchObject([{ type: 'platform', platform: 'ttd', account: 'seat-2' }])
    })

    it('sees a domain failure as a failed task with the readable message', async () => {
      const r = await connect().activateSignal({
        signal_agent_segment_id: 'iab:999999',
        destinations: [{ type: 'platform', platform: 'ttd', account: 'seat' }],
      })
      expect(r.success).toBe(false)
      expect(r.error).toMatch(/iab:999999 does not exist/)
    })
  })

  describe('@adcp/sdk 6.11.0 storyboards', () => {
    const run = async (id: string) => {
      const storyboard = getComplianceStoryboardById(id)
      expect(storyboard, id).toBeDefined()
      return runStoryboard(agent.mcpUrl, storyboard!, {
        auth: { type: 'bearer', token: key },
        allow_http: true,
        test_kit: { auth: { api_key: key, probe_task: 'get_signals' } },
      })
    }

    // Nothing may be skipped: the OAuth discovery probes run too (the agent serves its
    // client-credentials metadata and token endpoint beside API keys).
    const expectedSkips: Record<string, string[]> = { signals_baseline: [], security_baseline: [], signal_marketplace: [] }

    it.each(Object.keys(expectedSkips))('%s passes, skipping only what it must', async (id) => {
      const r = await run(id)
      expect(failures(r)).toEqual([])
      expect(r.overall_passed).toBe(true)
      const steps = r.phases.flatMap((p) => p.steps.map((s) => ({ ...s, id: `${p.phase_id}.${s.step_id}` })))
      const skipped = steps.filter((s) => s.skipped)
      expect(skipped.map((s) => s.id)).toEqual(expectedSkips[id])
      expect(r.skipped_count).toBe(expectedSkips[id]!.length)
      expect(steps.filter((s) => !s.skipped).length).toBeGreaterThan(3)
    })
  })
})
