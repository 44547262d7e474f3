// activate_signal: a Deal ID through the activation module for a DSP and buyer seat, status
// activating until live, idempotent by key; the deal in REST and in later get_signals; marketplace
// signals become client segments, custom signals are built first, owned ones are used as they are.

import { randomUUID } from 'node:crypto'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { settlePending } from '../../src/adcp/settle.ts'
import { describeEachEngine } from '../helpers/db.ts'
import { waitFor } from '../helpers/wait.ts'
import type { Agent, SignalsOut } from './helpers.ts'
import { bearer, buildOwned, call, mcpClient, seedIndex, startAgent } from './helpers.ts'
import { callAdcp31, schemaProblems } from './schemas.ts'

interface Activated {
  status: string
  adcp_version: string
  message: string
  context_id: string
  replayed?: boolean
  sandbox: boolean
  deployments: SignalsOut['signals'][number]['deployments']
  activation: {
    signal_agent_segment_id: string
    deal_id: string | null
    platform: string
    account: string | null
    status: string
    estimated_activation_duration_minutes: number
    activation_id: number | null
    segment_id: number
    activation_status: string | null
  }
}

const seat = { platform: 'ttd', account: 'agency-7-ttd' }
const latencyMinutes = 10

describeEachEngine('activate_signal', (getDb) => {
  let agent: Agent
  let client: Client
  let key: string
  const rest = async <T>(path: string): Promise<T> => (await (await fetch(`${agent.url}${path}`, { headers: bearer(key) })).json()) as T
  const failure = async (args: Record<string, unknown>) => {
    const r = (await client.callTool({ name: 'activate_signal', arguments: { idempotency_key: randomUUID(), ...args } })) as CallToolResult
    expect(r.isError).toBe(true)
    expect(schemaProblems('activate-signal-response', r.structuredContent)).toEqual([])
    return r.structuredContent as { adcp_error: { code: string; field?: string; message: string } }
  }

  beforeAll(async () => {
    agent = await startAgent(getDb().db, { latencySeconds: latencyMinutes * 60 })
    await seedIndex(agent)
    key = (await agent.client()).key
    client = await mcpClient(agent.mcpUrl, bearer(key))
  })
  afterAll(async () => {
    await client?.close()
    await agent?.close()
  })

  describe('a marketplace signal', () => {
    let first: Activated
    it('answers with the Deal ID, status activating and the estimate', async () => {
      first = await call<Activated>(client, 'activate_signal', {
        signal_agent_segment_id: 'iab:483',
        deliver_to: { deployments: [seat], countries: ['US'] },
        idempotency_key: 'key-marketplace-000001',
      })
      expect(first.activation).toMatchObject({
        signal_agent_segment_id: 'iab:483',
        deal_id: expect.stringMatching(/^CUR-SBX-[A-Z0-9]{16}$/),
        platform: 'ttd',
        account: 'agency-7-ttd',
        status: 'activating',
        estimated_activation_duration_minutes: latencyMinutes,
      })
      expect(first.deployments).toEqual([
        {
          type: 'platform',
          platform: 'ttd',
          account: 'agency-7-ttd',
          is_live: false,
          scope: 'account',
          decisioning_platform_segment_id: null,
          estimated_activation_duration_minutes: latencyMinutes,
          activation_key: { type: 'segment_id', segment_id: first.activation.deal_id },
        },
      ])
      expect(first).toMatchObject({ status: 'completed', adcp_version: '3.1', sandbox: true, context_id: expect.stringMatching(/^ctx_/) })
      expect(first.message).toContain(first.activation.deal_id!)
      expect(schemaProblems('activate-signal-response', first)).toEqual([])
    })

    it('made the catalog entry a client segment with its pages, and a REST activation of it', async () => {
      const seg = await rest<{ status: string; url_count: number; taxonomy_id: number }>(`/v1/curation/segment-requests/${first.activation.segment_id}`)
      expect(seg).toMatchObject({ status: 'complete', url_count: 4, taxonomy_id: 483 })
      const act = await rest<{ id: number; status: string; dsp: string; buyer_seat: string; segment_ids: number[]; geo: string[] }>(
        `/v1/curation/activations/${first.activation.activation_id}`,
      )
      expect(act).toMatchObject({
        status: 'processing',
        dsp: 'the-trade-desk',
        buyer_seat: 'agency-7-ttd',
        segment_ids: [first.activation.segment_id],
        geo: ['US'],
      })
    })

    it('shows as activating in get_signals, then live with the Deal ID once the SSP has synced it', async () => {
      const before = await call<SignalsOut>(client, 'get_signals', {
        signal_ids: ['iab:483'],
        deliver_to: { deployments: [seat, { platform: 'dv360', account: 'x' }] },
      })
      expect(before.signals[0]!.deployments[0]).toMatchObject({
        is_live: false,
        decisioning_platform_segment_id: null,
        activation_key: { segment_id: first.activation.deal_id },
      })
      expect(before.signals[0]!.deployments[1]).toMatchObject({ is_live: false, platform: 'dv360' })
      expect(before.signals[0]!.deployments[1]!.activation_key).toBeUndefined()

      agent.clock.advance(latencyMinutes * 60_000)
      await waitFor(async () => (await rest<{ status: string }>(`/v1/curation/activations/${first.activation.activation_id}`)).status === 'complete')
      const act = await rest<{ deal_id: string }>(`/v1/curation/activations/${first.activation.activation_id}`)
      expect(act.deal_id).toBe(first.activation.deal_id)

      const after = await call<SignalsOut>(client, 'get_signals', { signal_spec: 'sports fans following games', deliver_to: { deployments: [seat] } })
      const sports = after.signals.find((s) => s.signal_agent_segment_id === 'iab:483')!
      expect(sports.deployments[0]).toMatchObject({
        is_live: true,
        decisioning_platform_segment_id: first.activation.deal_id,
        estimated_activation_duration_minutes: 0,
        activation_key: { type: 'segment_id', segment_id: first.activation.deal_id },
        deployed_at: expect.any(String),
      })
      expect(after.signals.filter((s) => s.signal_type === 'owned')).toEqual([]) // the copy is not listed twice
    })

    it('returns the same activation for a repeated idempotency key, and refuses the key for another request', async () => {
      const again = await call<Activated>(client, 'activate_signal', {
        signal_agent_segment_id: 'iab:483',
        deliver_to: { deployments: [seat], countries: ['US'] },
        idempotency_key: 'key-marketplace-000001',
      })
      expect(again.replayed).toBe(true)
      expect(again.activation).toMatchObject({ activation_id: first.activation.activation_id, deal_id: first.activation.deal_id, status: 'deployed' })
      const conflict = await failure({
        signal_agent_segment_id: 'iab:483',
        deliver_to: { deployments: [{ platform: 'ttd', account: 'other' }] },
        idempotency_key: 'key-marketplace-000001',
      })
      expect(conflict.adcp_error.code).toBe('IDEMPOTENCY_CONFLICT')
      const { rows } = await agent.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM activations')
      expect(rows[0]!.n).toBe(1)
    })

    it('reuses the standing deal of the seat, and the segment for another seat (AdCP 3.x form)', async () => {
      const same = await call<Activated>(client, 'activate_signal', { signal_agent_segment_id: 'iab_483', destinations: [{ type: 'platform', ...seat }] })
      expect(same.activation.activation_id).toBe(first.activation.activation_id)
      const sameAgain = await call<Activated>(client, 'activate_signal', { signal_agent_segment_id: 'iab:483', context_id: same.context_id })
      expect(sameAgain.activation).toMatchObject({ activation_id: first.activation.activation_id, platform: 'ttd', account: 'agency-7-ttd' })
      const other = await callAdcp31<Activated>(client, 'activate_signal', {
        signal_agent_segment_id: 'iab:483',
        destinations: [{ type: 'platform', platform: 'the-trade-desk', account: 'agency-8-ttd' }],
        idempotency_key: 'key-marketplace-000002',
        pricing_option_id: 'po_iab_483_cpm',
      })
      expect(other.activation.activation_id).not.toBe(first.activation.activation_id)
      expect(other.activation.segment_id).toBe(first.activation.segment_id)
      expect(other.activation.deal_id).not.toBe(first.activation.deal_id)
    })

    it('takes the destinations of the context it names', async () => {
      const found = await call<SignalsOut>(client, 'get_signals', {
        signal_spec: 'cooking recipes',
        deliver_to: { deployments: [{ platform: 'amazon', account: 'amzn-1' }] },
      })
      const food = found.signals.find((s) => s.signal_type === 'marketplace')!
      const a = await call<Activated>(client, 'activate_signal', { signal_agent_segment_id: food.signal_agent_segment_id, context_id: found.context_id })
      expect(a.context_id).toBe(found.context_id)
      expect(a.activation).toMatchObject({ platform: 'amazon', account: 'amzn-1', deal_id: expect.stringMatching(/^CUR-SBX-/) })
    })
  })

  it("activates the client's own segment, and refuses one still building", async () => {
    const own = await buildOwned(agent, key, 'stock market earnings and investors')
    const a = await call<Activated>(client, 'activate_signal', { signal_agent_segment_id: `segment:${own}`, deliver_to: { deployments: [seat] } })
    expect(a.activation).toMatchObject({ segment_id: own, status: 'activating', deal_id: expect.stringMatching(/^CUR-SBX-/) })
    const c = await agent.client()
    const { rows } = await agent.ctx.db.query<{ id: number }>(
      `INSERT INTO segment_requests (client_id, prompt, status, created_date) VALUES ($1, 'later', 'processing', now()) RETURNING id`,
      [c.clientId],
    )
    const other = await mcpClient(agent.mcpUrl, bearer(c.key))
    const r = (await other.callTool({
      name: 'activate_signal',
      arguments: { signal_agent_segment_id: `segment:${rows[0]!.id}`, deliver_to: { deployments: [seat] }, idempotency_key: randomUUID() },
    })) as CallToolResult
    expect(r.structuredContent).toMatchObject({ adcp_error: { code: 'INVALID_STATE' } })
    const foreign = (await other.callTool({
      name: 'activate_signal',
      arguments: { signal_agent_segment_id: `segment:${own}`, deliver_to: { deployments: [seat] }, idempotency_key: randomUUID() },
    })) as CallToolResult
    expect(foreign.structuredContent).toMatchObject({ adcp_error: { code: 'REFERENCE_NOT_FOUND' } })
    await other.close()
  })

  it('builds a custom signal on activation: a segment request for the spec, then its deal', async () => {
    const found = await call<SignalsOut>(client, 'get_signals', {
      signal_spec: 'shares, stock markets and company earnings',
      filters: { catalog_types: ['custom'] },
    })
    const custom = found.signals[0]!
    expect(custom.signal_agent_segment_id).toMatch(/^custom:\d+:[0-9a-f]{12}$/)
    const a = await call<Activated>(client, 'activate_signal', { signal_agent_segment_id: custom.signal_agent_segment_id, deliver_to: { deployments: [seat] } })
    expect(a.activation).toMatchObject({ status: 'activating', deal_id: expect.stringMatching(/^CUR-SBX-/) })
    const seg = await rest<{ prompt: string; status: string; url_count: number }>(`/v1/curation/segment-requests/${a.activation.segment_id}`)
    expect(seg).toMatchObject({ prompt: 'shares, stock markets and company earnings', status: 'complete' })
    expect(seg.url_count, JSON.stringify(seg)).toBeGreaterThan(0)
    const listed = await call<SignalsOut>(client, 'get_signals', { signal_ids: [custom.signal_agent_segment_id], deliver_to: { deployments: [seat] } })
    expect(listed.signals[0]).toMatchObject({ signal_type: 'custom', deployments: [{ activation_key: { segment_id: a.activation.deal_id } }] })
  })

  it('records a custom activation as pending while its segment builds, and settles it when the build is done', async () => {
    const slow = await startAgent(getDb().db, { latencySeconds: 60, adcp: { activationWaitMs: 0 } })
    try {
      const c = await slow.client()
      const sc = await mcpClient(slow.mcpUrl, bearer(c.key))
      const found = await call<SignalsOut>(sc, 'get_signals', { signal_spec: 'baking bread and cake recipes', filters: { catalog_types: ['custom'] } })
      const a = await call<Activated>(sc, 'activate_signal', {
        signal_agent_segment_id: found.signals[0]!.signal_agent_segment_id,
        deliver_to: { deployments: [seat] },
      })
      expect(a.activation).toMatchObject({ deal_id: null, activation_id: null, activation_status: 'waiting_for_segment_build', status: 'activating' })
      expect(a.activation.estimated_activation_duration_minutes).toBe(10 + 1)
      await waitFor(
        async () =>
          (await slow.ctx.db.query(`SELECT 1 FROM segment_requests WHERE id = $1 AND status = 'complete'`, [a.activation.segment_id])).rows.length > 0,
        30_000,
      )
      expect(await settlePending(slow.ctx)).toBe(1)
      expect(await settlePending(slow.ctx)).toBe(0)
      const { rows } = await slow.ctx.db.query<{ pending: boolean; destinations: { activation_id: number }[] }>(
        'SELECT pending, destinations FROM adcp_activations WHERE segment_id = $1',
        [a.activation.segment_id],
      )
      expect(rows[0]).toMatchObject({ pending: false, destinations: [{ activation_id: expect.any(Number) }] })
      await sc.close()
    } finally {
      await slow.close()
    }
  })

  it('records an activation for a sales agent and gives it a key-value to target', async () => {
    const a = await callAdcp31<Activated>(client, 'activate_signal', {
      signal_agent_segment_id: 'iab:52',
      destinations: [{ type: 'agent', agent_url: 'https://sales.example/mcp' }],
      idempotency_key: 'key-agent-destination-1',
    })
    expect(a.deployments[0]).toMatchObject({
      type: 'agent',
      agent_url: 'https://sales.example/mcp',
      is_live: true,
      activation_key: { type: 'key_value', key: 'curata_segment', value: String(a.activation.segment_id) },
    })
    expect(schemaProblems('activate-signal-response', a)).toEqual([])
    const listed = await callAdcp31<SignalsOut>(client, 'get_signals', {
      signal_ids: [{ source: 'catalog', data_provider_domain: '127.0.0.1', id: 'iab_52' }],
      destinations: [{ type: 'agent', agent_url: 'https://sales.example/mcp' }],
    })
    expect(listed.signals[0]!.deployments[0]).toMatchObject({ type: 'agent', is_live: true })
  })

  it("deactivates: action deactivate ends the signal's deal on the seat, and the SSP is told", async () => {
    const seatD = { platform: 'ttd', account: 'seat-deactivate' }
    const a = await call<Activated>(client, 'activate_signal', { signal_agent_segment_id: 'iab:52', deliver_to: { deployments: [seatD] } })
    await waitFor(async () => {
      const { rows } = await agent.ctx.db.query<{ deal_id: string | null }>(`SELECT deal_id FROM activations WHERE id = $1`, [a.activation.activation_id])
      return rows[0]?.deal_id != null
    }, 20_000)
    const off = await call<{ status: string; message: string; deployments: { is_live: boolean }[] }>(client, 'activate_signal', {
      signal_agent_segment_id: 'iab:52',
      action: 'deactivate',
      deliver_to: { deployments: [seatD] },
    })
    expect(off).toMatchObject({ status: 'completed', deployments: [{ is_live: false }] })
    expect(off.message).toMatch(/ended 1 deal/)
    expect(schemaProblems('activate-signal-response', off)).toEqual([])
    const { rows } = await agent.ctx.db.query<{ deal_state: string; deal_id: string }>(`SELECT deal_state, deal_id FROM activations WHERE id = $1`, [
      a.activation.activation_id,
    ])
    expect(rows[0]!.deal_state).toBe('ended')
    const sandbox = await agent.ctx.db.query<{ status: string }>(`SELECT status FROM sandbox_deals WHERE deal_id = $1`, [rows[0]!.deal_id])
    expect(sandbox.rows[0]!.status).toBe('inactive')
    const again = await call<{ message: string }>(client, 'activate_signal', {
      signal_agent_segment_id: 'iab:52',
      action: 'deactivate',
      deliver_to: { deployments: [seatD] },
    })
    expect(again.message).toMatch(/nothing of it is live/)
  })

  it('explains what is wrong with a request it cannot carry out', async () => {
    const base = { signal_agent_segment_id: 'iab:210' }
    expect((await failure({ ...base })).adcp_error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'destinations' })
    expect((await failure({ ...base, deliver_to: { deployments: [{ platform: 'ttd' }] } })).adcp_error).toMatchObject({ field: 'destinations[0].account' })
    expect((await failure({ ...base, deliver_to: { deployments: [{ platform: 'bidswitch', account: 'a' }] } })).adcp_error.message).toMatch(/is not a DSP/)
    expect((await failure({ ...base, destinations: [{ type: 'platform', ...seat }], idempotency_key: 'short' })).adcp_error).toMatchObject({
      code: 'INVALID_REQUEST',
      field: 'idempotency_key',
    })
    // callers stating a 3.x version must send a key, whatever form; callers stating none need not
    // (the interface spec's activate_signal, @adcp/client 4.x: activate-signal.ts speaksAdcp3)
    for (const unkeyed of [
      { ...base, destinations: [{ type: 'platform', ...seat }], adcp_major_version: 3 },
      { ...base, destinations: [{ type: 'platform', ...seat }], adcp_version: '3.0' },
      { ...base, deliver_to: { deployments: [seat] }, adcp_version: '3.1' },
    ]) {
      const missing = (await client.callTool({ name: 'activate_signal', arguments: unkeyed })) as CallToolResult
      expect(missing.structuredContent, JSON.stringify(unkeyed)).toMatchObject({ adcp_error: { code: 'INVALID_REQUEST', field: 'idempotency_key' } })
    }
    for (const unversioned of [
      { ...base, deliver_to: { deployments: [seat] } },
      { ...base, destinations: [{ type: 'platform', ...seat }] },
    ]) {
      const served = (await client.callTool({ name: 'activate_signal', arguments: unversioned })) as CallToolResult
      expect(served.isError, JSON.stringify(unversioned)).toBeFalsy()
    }
    expect((await failure({ ...base, deliver_to: { deployments: [seat], countries: ['UK'] } })).adcp_error).toMatchObject({ field: 'countries' })
    expect((await failure({ ...base, destinations: [{ type: 'platform', ...seat }], pricing_option_id: 'po_other' })).adcp_error).toMatchObject({
      field: 'pricing_option_id',
    })
    expect((await failure({ signal_agent_segment_id: 'nonsense', destinations: [{ type: 'platform', ...seat }] })).adcp_error).toMatchObject({
      code: 'REFERENCE_NOT_FOUND',
    })
    const rejected = await failure({ ...base, deliver_to: { deployments: [{ platform: 'ttd', account: 'sandbox-reject-1' }] } })
    expect(rejected.adcp_error).toMatchObject({ code: 'ACTIVATION_FAILED' })
    expect(rejected.adcp_error.message).toMatch(/sandbox SSP rejected/)
  })
})
