// get_signals: both request shapes, the fields of spec 2.9/4.9 and AdCP 3.1, filters, paging,
// deployments per destination, context_id follow-ups, look-up by id, wholesale listing, and the
// AdCP JSON schemas.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { describeEachEngine } from '../helpers/db.ts'
import type { Agent, SignalsOut } from './helpers.ts'
import { bearer, buildOwned, call, mcpClient, payload, seedIndex, startAgent } from './helpers.ts'
import { callAdcp31, schemaProblems } from './schemas.ts'

const spec = 'sports fans following games, results and transfer news'
const seat = { platform: 'ttd', account: 'agency-1-ttd' }

describeEachEngine('get_signals', (getDb) => {
  let agent: Agent
  let client: Client
  let key: string
  let owned = 0
  beforeAll(async () => {
    agent = await startAgent(getDb().db)
    await seedIndex(agent)
    key = (await agent.client()).key
    client = await mcpClient(agent.mcpUrl, bearer(key))
    owned = await buildOwned(agent, key, 'football league match reports')
  })
  afterAll(async () => {
    await client?.close()
    await agent?.close()
  })

  it('offers the best available signals for a broad or weakly matched spec, paged, and says how well they match', async () => {
    const first = await call<SignalsOut & { message: string; pagination: { has_more: boolean; cursor?: string } }>(client, 'get_signals', {
      signal_spec: 'audience',
      max_results: 1,
    })
    expect(first.signals).toHaveLength(1)
    expect(first.pagination.has_more).toBe(true)
    expect(first.message).toMatch(/names no topic: showing the best available signals/)
    const next = await call<SignalsOut>(client, 'get_signals', { signal_spec: 'audience', pagination: { max_results: 1, cursor: first.pagination.cursor } })
    expect(next.signals[0]!.signal_agent_segment_id).not.toBe(first.signals[0]!.signal_agent_segment_id)

    const traits = await call<SignalsOut & { message: string }>(client, 'get_signals', { signal_spec: 'football fans, age 25-54, US' })
    // ranked on "football fans": the client's own football segment and Sports lead
    expect(traits.signals.slice(0, 3).map((s) => s.signal_agent_segment_id)).toEqual(expect.arrayContaining(['iab:483', `segment:${owned}`]))
    expect(traits.message).toMatch(/Match quality: \w+/)
    expect(traits.message).toMatch(/Read as who and where rather than topics: age 25-54, country US/)
  })

  it('reports deployments on platforms outside the DSP list (a Deal ID works on any DSP that takes deal IDs)', async () => {
    const r = await call<SignalsOut>(client, 'get_signals', {
      signal_spec: spec,
      destinations: [
        { type: 'platform', platform: 'trade-desk', account: 'a-1' },
        { type: 'platform', platform: 'pinnacle-dsp', account: 'a-1' },
      ],
    })
    expect(r.signals[0]!.deployments.map((d) => d.platform)).toEqual(['trade-desk', 'pinnacle-dsp'])
  })

  it('versions the wholesale feed: a matching if_wholesale_feed_version answers unchanged without signals', async () => {
    const feed = await call<{ wholesale_feed_version: string; signals: unknown[] }>(client, 'get_signals', { discovery_mode: 'wholesale' })
    expect(feed.wholesale_feed_version).toMatch(/^wf_/)
    const same = await call<Record<string, unknown>>(client, 'get_signals', {
      discovery_mode: 'wholesale',
      if_wholesale_feed_version: feed.wholesale_feed_version,
    })
    expect(same).toMatchObject({ unchanged: true, wholesale_feed_version: feed.wholesale_feed_version })
    expect(same.signals).toBeUndefined()
    const stale = await call<{ signals: unknown[] }>(client, 'get_signals', { discovery_mode: 'wholesale', if_wholesale_feed_version: 'wf_old' })
    expect(stale.signals.length).toBe(feed.signals.length)
  })

  it('answers the spec form and the AdCP 3.x form alike, with one deployment per destination', async () => {
    const specForm = await call<SignalsOut>(client, 'get_signals', {
      signal_spec: spec,
      deliver_to: { deployments: [seat, { platform: 'dv360', account: 'seat-9' }], countries: ['US', 'gb'] },
      max_results: 5,
    })
    const adcp3 = await callAdcp31<SignalsOut>(client, 'get_signals', {
      signal_spec: spec,
      destinations: [
        { type: 'platform', ...seat },
        { type: 'platform', platform: 'dv360', account: 'seat-9' },
      ],
      countries: ['US', 'GB'],
      pagination: { max_results: 5 },
    })
    expect(adcp3.signals).toEqual(specForm.signals)
    expect(specForm.signals.map((s) => s.signal_agent_segment_id)).toEqual(expect.arrayContaining(['iab:483', `segment:${owned}`]))
    for (const s of specForm.signals) {
      expect(s.deployments).toHaveLength(2)
      expect(s.deployments.map((d) => [d.platform, d.account])).toEqual([
        ['ttd', 'agency-1-ttd'],
        ['dv360', 'seat-9'],
      ])
    }
  })

  it('carries every field of spec 2.9 and 4.9 and what AdCP 3.1 requires', async () => {
    const r = await call<SignalsOut & Record<string, unknown>>(client, 'get_signals', { signal_spec: spec, deliver_to: { deployments: [seat] } })
    expect(r).toMatchObject({
      status: 'completed',
      adcp_version: '3.1',
      cache_scope: 'account', // owned and custom signals are this client's
      message: expect.stringContaining(spec),
      context_id: expect.stringMatching(/^ctx_/),
    })
    const sports = r.signals.find((s) => s.signal_agent_segment_id === 'iab:483')!
    expect(sports).toMatchObject({
      name: 'Sports',
      description: expect.any(String),
      signal_type: 'marketplace',
      data_provider: 'Curata',
      coverage_percentage: expect.any(Number),
      pricing: { cpm: 1, currency: 'USD' },
      pricing_options: [{ pricing_option_id: 'po_iab_483_cpm', model: 'cpm', cpm: 1, currency: 'USD' }],
      signal_id: { source: 'catalog', data_provider_domain: '127.0.0.1', id: 'iab_483' },
      signal_ref: { scope: 'data_provider', data_provider_domain: '127.0.0.1', signal_id: 'iab_483' },
    })
    expect(sports.coverage_percentage).toBeGreaterThan(0)
    expect(sports.deployments).toEqual([
      {
        type: 'platform',
        platform: 'ttd',
        account: 'agency-1-ttd',
        is_live: false,
        scope: 'account',
        decisioning_platform_segment_id: null,
        estimated_activation_duration_minutes: 0,
      },
    ])
    const own = r.signals.find((s) => s.signal_type === 'owned')!
    expect(own.signal_id).toMatchObject({ source: 'agent', agent_url: `${agent.url}/mcp`, id: `segment_${owned}` })
    const custom = r.signals.find((s) => s.signal_type === 'custom')!
    expect(custom.signal_agent_segment_id).toMatch(/^custom:483:[0-9a-f]{12}$/)
    expect(custom.deployments[0]!.estimated_activation_duration_minutes).toBe(10)
    expect(schemaProblems('get-signals-response', r)).toEqual([])
    const r31 = await callAdcp31<SignalsOut>(client, 'get_signals', {
      signal_spec: spec,
      destinations: [{ type: 'platform', ...seat }],
      countries: ['US'],
      pagination: { max_results: 5 },
    })
    expect(schemaProblems('get-signals-response', r31)).toEqual([])
  })

  it('takes coverage_percentage and pricing from the catalog entry of each signal', async () => {
    const r = await call<SignalsOut>(client, 'get_signals', { signal_spec: spec, max_results: 50 })
    const res = await fetch(`${agent.url}/v1/curation/catalog?limit=1000`, { headers: bearer(key) })
    const catalog = new Map(
      ((await res.json()) as { entries: { id: string; coverage: { percentage: number }; pricing: { cpm: number; currency: string } }[] }).entries.map((e) => [
        e.id,
        e,
      ]),
    )
    const listed = r.signals.filter((s) => s.signal_type !== 'custom')
    expect(listed.map((s) => s.signal_type)).toEqual(expect.arrayContaining(['marketplace', 'owned']))
    for (const s of listed) {
      const entry = catalog.get(s.signal_agent_segment_id)
      expect(entry, s.signal_agent_segment_id).toBeDefined()
      expect(s.coverage_percentage, s.signal_agent_segment_id).toBe(entry!.coverage.percentage)
      expect(s.pricing, s.signal_agent_segment_id).toEqual({ cpm: entry!.pricing.cpm, currency: entry!.pricing.currency })
      expect(s.pricing_options[0], s.signal_agent_segment_id).toMatchObject({ model: 'cpm', cpm: entry!.pricing.cpm, currency: entry!.pricing.currency })
    }
    expect(listed.find((s) => s.signal_agent_segment_id === 'iab:483')!.coverage_percentage).toBeGreaterThan(0)
  })

  it('offers seasonal segments as marketplace signals, kept by catalog_types marketplace', async () => {
    const r = await callAdcp31<SignalsOut>(client, 'get_signals', {
      signal_spec: 'Thanksgiving dinner recipes, turkey and family gatherings',
      filters: { catalog_types: ['marketplace'] },
      pagination: { max_results: 20 },
    })
    const thanksgiving = r.signals.find((s) => s.signal_agent_segment_id === 'seasonal:thanksgiving:2026')
    expect(thanksgiving, JSON.stringify(r.signals.map((s) => s.signal_agent_segment_id))).toMatchObject({ signal_type: 'marketplace', pricing: { cpm: 2.5 } })
    expect(r.signals.every((s) => s.signal_type === 'marketplace')).toBe(true)
    const others = await call<SignalsOut>(client, 'get_signals', {
      signal_spec: 'Thanksgiving dinner recipes, turkey and family gatherings',
      filters: { catalog_types: ['owned', 'custom'] },
    })
    expect(others.signals.map((s) => s.signal_agent_segment_id)).not.toContain('seasonal:thanksgiving:2026')
  })

  it('gives a destination without an account a platform-scoped deployment', async () => {
    const r = await callAdcp31<SignalsOut>(client, 'get_signals', {
      signal_spec: spec,
      destinations: [
        { type: 'platform', platform: 'ttd' },
        { type: 'platform', ...seat },
      ],
    })
    const sports = r.signals.find((s) => s.signal_agent_segment_id === 'iab:483')!
    expect(sports.deployments[0]).toMatchObject({ type: 'platform', platform: 'ttd', scope: 'platform', is_live: false })
    expect(sports.deployments[0]!.account).toBeUndefined()
    expect(sports.deployments[1]).toMatchObject({ platform: 'ttd', account: 'agency-1-ttd', scope: 'account' })
    expect(schemaProblems('get-signals-response', r)).toEqual([])
  })

  it('honours filters.catalog_types, filters.max_cpm and filters.min_coverage_percentage', async () => {
    const types = async (filters: Record<string, unknown>) =>
      (await call<SignalsOut>(client, 'get_signals', { signal_spec: spec, filters, max_results: 50 })).signals.map((s) => s.signal_type)
    expect(new Set(await types({ catalog_types: ['owned'] }))).toEqual(new Set(['owned']))
    expect(await types({ catalog_types: ['custom'] })).toEqual(['custom'])
    expect(new Set(await types({ catalog_types: ['marketplace', 'owned'] }))).toEqual(new Set(['marketplace', 'owned']))
    const cheap = await call<SignalsOut>(client, 'get_signals', { signal_spec: spec, filters: { max_cpm: 1.2 } })
    expect(cheap.signals.length).toBeGreaterThan(0)
    expect(cheap.signals.every((s) => s.pricing.cpm <= 1.2)).toBe(true)
    expect(cheap.signals.some((s) => s.signal_type === 'owned')).toBe(false) // own segments cost 3.00
    const wide = await call<SignalsOut>(client, 'get_signals', { signal_spec: spec, filters: { min_coverage_percentage: 20 } })
    expect(wide.signals.every((s) => s.coverage_percentage >= 20)).toBe(true)
    const elsewhere = await call<SignalsOut>(client, 'get_signals', { signal_spec: spec, filters: { data_providers: ['Polk'] } })
    expect(elsewhere.signals).toEqual([])
  })

  it('honours max_results and pages with pagination.cursor', async () => {
    const all = await callAdcp31<SignalsOut>(client, 'get_signals', { discovery_mode: 'wholesale', max_results: 100 })
    expect(all.signals.length).toBeGreaterThan(3)
    const one = await call<SignalsOut>(client, 'get_signals', { discovery_mode: 'wholesale', max_results: 1 })
    expect(one.signals).toHaveLength(1)
    expect(one.pagination).toMatchObject({ has_more: true, total_count: all.signals.length })
    const seen = [...one.signals]
    let cursor = one.pagination.cursor
    while (cursor) {
      const next = await callAdcp31<SignalsOut>(client, 'get_signals', { discovery_mode: 'wholesale', pagination: { max_results: 2, cursor } })
      seen.push(...next.signals)
      cursor = next.pagination.cursor
    }
    expect(seen.map((s) => s.signal_agent_segment_id)).toEqual(all.signals.map((s) => s.signal_agent_segment_id))
    const bad = (await client.callTool({ name: 'get_signals', arguments: { pagination: { cursor: 'nope' } } })) as CallToolResult
    expect(bad.structuredContent).toMatchObject({ adcp_error: { code: 'VALIDATION_ERROR', field: 'pagination.cursor' } })
  })

  it('lists the whole catalog without a spec (wholesale), owned segments first', async () => {
    const r = await call<SignalsOut>(client, 'get_signals', { context: { correlation_id: 'probe' } })
    expect(r.signals[0]!.signal_type).toBe('owned')
    expect(r.signals.map((s) => s.signal_agent_segment_id)).toEqual(expect.arrayContaining(['iab:483', 'iab:52', 'iab:210']))
    expect(r.signals.some((s) => s.signal_type === 'custom')).toBe(false)
    expect((r as unknown as { context: unknown }).context).toEqual({ correlation_id: 'probe' })
  })

  it('looks signals up by signal_ids (objects or ids), skipping unknown ones', async () => {
    const r = await call<SignalsOut>(client, 'get_signals', {
      signal_ids: [
        { source: 'catalog', data_provider_domain: '127.0.0.1', id: 'iab_483' },
        `segment:${owned}`,
        'iab:99999',
        { scope: 'data_provider', signal_id: 'iab_52' },
      ],
      deliver_to: { deployments: [seat] },
    })
    expect(r.signals.map((s) => s.signal_agent_segment_id)).toEqual(['iab:483', `segment:${owned}`, 'iab:52'])
    expect(r.signals.every((s) => s.deployments.length === 1)).toBe(true)
  })

  it('keeps context_id: a follow-up inherits the spec and destinations of the context it names', async () => {
    const first = await call<SignalsOut>(client, 'get_signals', { signal_spec: spec, deliver_to: { deployments: [seat] } })
    const refined = await call<SignalsOut>(client, 'get_signals', { context_id: first.context_id, filters: { catalog_types: ['marketplace'] } })
    expect(refined.context_id).toBe(first.context_id)
    expect(refined.message).toContain(spec)
    expect(refined.signals[0]!.signal_agent_segment_id).toBe('iab:483')
    expect(refined.signals[0]!.deployments[0]).toMatchObject({ platform: 'ttd', account: 'agency-1-ttd' })
    const { rows } = await agent.ctx.db.query<{ signal_ids: string[] }>('SELECT signal_ids FROM adcp_contexts WHERE id = $1', [first.context_id])
    expect(rows[0]!.signal_ids).toContain('iab:483')

    const unknown = (await client.callTool({ name: 'get_signals', arguments: { context_id: 'ctx_nope' } })) as CallToolResult
    expect(unknown.structuredContent).toMatchObject({ adcp_error: { code: 'REFERENCE_NOT_FOUND', field: 'context_id' } })
    const other = await mcpClient(agent.mcpUrl, bearer((await agent.client()).key))
    const foreign = (await other.callTool({ name: 'get_signals', arguments: { context_id: first.context_id } })) as CallToolResult
    expect(foreign.structuredContent).toMatchObject({ adcp_error: { code: 'REFERENCE_NOT_FOUND' } })
    await other.close()
  })

  it("shows another client neither this client's segments nor its proposals", async () => {
    const other = await mcpClient(agent.mcpUrl, bearer((await agent.client()).key))
    const r = await call<SignalsOut>(other, 'get_signals', { discovery_mode: 'wholesale', max_results: 100 })
    expect(r.signals.some((s) => s.signal_type !== 'marketplace')).toBe(false)
    const lookedUp = await call<SignalsOut>(other, 'get_signals', { signal_ids: [`segment:${owned}`] })
    expect(lookedUp.signals).toEqual([])
    await other.close()
  })

  it('declares cache_scope account for an account-scoped request, and checks countries', async () => {
    const r = await call<SignalsOut>(client, 'get_signals', { signal_spec: spec, account: { account_id: 'acme' } })
    expect(r.cache_scope).toBe('account')
    const bad = (await client.callTool({ name: 'get_signals', arguments: { signal_spec: spec, countries: ['XX'] } })) as CallToolResult
    expect(bad.isError).toBe(true)
    expect(bad.structuredContent).toMatchObject({ adcp_error: { code: 'VALIDATION_ERROR', field: 'countries' } })
    expect(payload(bad)).toMatchObject({ status: 'failed' })
    expect(schemaProblems('get-signals-response', bad.structuredContent)).toEqual([])
  })

  it('answers a spec the classifier cannot place with what text matching finds, and no custom proposal', async () => {
    const r = await call<SignalsOut>(client, 'get_signals', { signal_spec: 'zzqx wvvb' })
    expect(r.signals.some((s) => s.signal_type === 'custom')).toBe(false)
    expect(r.message).toMatch(/No signal matches|Found/)
  })
})

describe('AdCP 3.1 request checks (test/adcp/schemas.ts)', () => {
  const dest = [{ type: 'platform', platform: 'ttd', account: 'seat-1' }]
  const key = 'activation-key-0001'
  it('accept what a 3.1 client sends', () => {
    expect(schemaProblems('activate-signal-request', { signal_agent_segment_id: 'iab:483', destinations: dest, idempotency_key: key })).toEqual([])
    expect(schemaProblems('get-signals-request', { signal_spec: 'sports', destinations: dest })).toEqual([])
    expect(schemaProblems('get-signals-request', { discovery_mode: 'wholesale' }, ['3.1'])).toEqual([]) // 3.0 has no wholesale mode
    expect(schemaProblems('get-signals-request', { signal_ids: [{ source: 'catalog', data_provider_domain: 'curata.example', id: 'iab_483' }] })).toEqual([])
  })
  it.each([
    ['no destinations', { signal_agent_segment_id: 'iab:483', idempotency_key: key }],
    ['empty destinations', { signal_agent_segment_id: 'iab:483', destinations: [], idempotency_key: key }],
    ['a destination without type', { signal_agent_segment_id: 'iab:483', destinations: [{ platform: 'ttd' }], idempotency_key: key }],
    ['no idempotency_key', { signal_agent_segment_id: 'iab:483', destinations: dest }],
    ['an idempotency_key under 16 characters', { signal_agent_segment_id: 'iab:483', destinations: dest, idempotency_key: 'short-key-1' }],
    ['an idempotency_key with a space', { signal_agent_segment_id: 'iab:483', destinations: dest, idempotency_key: 'activation key 0001' }],
  ])('refuse an activate_signal request with %s', (_name, request) => {
    expect(schemaProblems('activate-signal-request', request).some((p) => p.startsWith('3.1 '))).toBe(true)
  })
  it.each([
    ['brief mode with nothing to search by', { destinations: dest }],
    ['explicit brief mode with nothing to search by', { discovery_mode: 'brief', countries: ['US'] }],
    ['wholesale mode with a spec', { discovery_mode: 'wholesale', signal_spec: 'sports' }],
    ['a lower-case country', { signal_spec: 'sports', countries: ['us'] }],
  ])('refuse a get_signals request with %s', (_name, request) => {
    expect(schemaProblems('get-signals-request', request).some((p) => p.startsWith('3.1 '))).toBe(true)
  })
})
