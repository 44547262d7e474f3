// Async tasks and the compliance test controller: a sandbox account's force_get_signals_arm makes the
// next get_signals answer `submitted`; the task is listed and polled only in its own account, and
// force_task_completion completes it, queueing its push_notification_config webhook once.

import { createHmac } from 'node:crypto'
import type { IncomingHttpHeaders, Server } from 'node:http'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, expect, it } from 'vitest'

import { accountScope } from '../../src/adcp/accounts.ts'
import { createKey, isLiveKey, listKeys } from '../../src/platform/keys/keys.ts'
import { describeEachEngine } from '../helpers/db.ts'
import { waitFor } from '../helpers/wait.ts'
import type { Agent } from './helpers.ts'
import { bearer, call, mcpClient, seedIndex, startAgent } from './helpers.ts'
import { signedMcpClient, signingKey } from './signing-helpers.ts'

const nova = { brand: { domain: 'novamotors.example' }, operator: 'pinnacle-agency.example', sandbox: true }
const other = { brand: { domain: 'otherbrand.example' }, operator: 'other.example', sandbox: true }

/** A controller call it refuses: an isError result whose structuredContent is the ControllerError. */
async function refused(client: Client, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const r = (await client.callTool({ name: 'comply_test_controller', arguments: args })) as CallToolResult
  expect(r.isError).toBe(true)
  const answer = r.structuredContent as Record<string, unknown>
  expect(answer.success).toBe(false)
  expect(r.content).toEqual([{ type: 'text', text: `${String(answer.error)}: ${String(answer.error_detail)}` }])
  return answer
}

describeEachEngine('AdCP tasks and comply_test_controller', (getDb) => {
  let agent: Agent
  let client: Client
  const receiver = { url: '', received: [] as { headers: IncomingHttpHeaders; body: string }[], server: null as Server | null }
  beforeAll(async () => {
    receiver.server = createServer((req, res) => {
      let body = ''
      req.on('data', (c: Buffer) => {
        body += c.toString('utf8')
      })
      req.on('end', () => {
        receiver.received.push({ headers: req.headers, body })
        res.writeHead(204).end()
      })
    })
    await new Promise<void>((r) => receiver.server!.listen(0, '127.0.0.1', r))
    receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`
    agent = await startAgent(getDb().db)
    await seedIndex(agent)
    // signed: registering webhook credentials (push_notification_config.authentication) requires it
    const { clientId } = await agent.client()
    client = await signedMcpClient(agent.ctx.db, agent.mcpUrl, clientId, signingKey('tasks-agent'), () => Math.floor(agent.clock.now().getTime() / 1000))
  })
  afterAll(async () => {
    await client?.close()
    await agent?.close()
    receiver.server?.close()
  })

  it('refuses a live account with FORBIDDEN, and an unknown scenario', async () => {
    // on a live deployment only accounts named under test domains and claiming sandbox are sandbox
    // accounts; on a sandbox deployment (this one: the sandbox SSP connector) every account is
    expect(accountScope({ brand: { domain: 'acme.com' }, operator: 'agency.com', sandbox: true }).sandbox).toBe(false)
    expect(accountScope({ ...nova, sandbox: false }).sandbox).toBe(false)
    expect(accountScope(nova).sandbox).toBe(true)
    expect(accountScope(undefined).sandbox).toBe(false)
    expect(accountScope({ brand: { domain: 'acme.com' } }, true).sandbox).toBe(true)

    const live = agent.ctx.connector
    // a live deployment: the same connector but not a sandbox one
    agent.ctx.connector = { ...live, sandbox: false }
    try {
      expect(await refused(client, { scenario: 'list_scenarios', account: { ...nova, sandbox: false } })).toMatchObject({
        success: false,
        error: 'FORBIDDEN',
      })
      expect(await refused(client, { scenario: 'list_scenarios' })).toMatchObject({ error: 'FORBIDDEN' })
    } finally {
      agent.ctx.connector = live
    }
    expect(await call(client, 'comply_test_controller', { scenario: 'list_scenarios', account: nova })).toMatchObject({
      success: true,
      scenarios: ['force_get_signals_arm', 'force_task_completion'],
    })
    expect(await refused(client, { scenario: 'teleport', account: nova })).toMatchObject({ success: false, error: 'UNKNOWN_SCENARIO' })
    expect(await refused(client, { scenario: 'force_get_signals_arm', account: nova, params: { arm: 'later' } })).toMatchObject({
      success: false,
      error: 'INVALID_PARAMS',
    })
  })

  it('refuses a live API key with FORBIDDEN on a sandbox deployment too, whatever the account claims', async () => {
    // the persisted record decides (`curata keys create --live`): the controller gate of a
    // single-endpoint seller, comply_controller_mode_gate's live principal
    const { clientId } = await agent.client()
    const liveKey = await createKey(agent.ctx.db, { name: 'live', clientId, live: true, now: agent.clock.now() })
    expect(liveKey.live).toBe(true)
    expect(await isLiveKey(agent.ctx.db, liveKey.key_id)).toBe(true)
    expect((await listKeys(agent.ctx.db)).find((k) => k.id === liveKey.key_id)?.live).toBe(true)
    expect(agent.ctx.connector.sandbox).toBe(true)
    const liveClient = await mcpClient(agent.mcpUrl, bearer(liveKey.api_key))
    try {
      const context = { correlation_id: 'live-probe' }
      for (const args of [
        { scenario: 'force_creative_status', params: { creative_id: 'probe-000', status: 'approved' }, account: { sandbox: true }, context },
        { scenario: 'list_scenarios', account: nova, context },
      ]) {
        expect(await refused(liveClient, args)).toEqual({
          success: false,
          error: 'FORBIDDEN',
          error_detail: expect.stringContaining('live (production) credential'),
          context,
        })
      }
      // the key is valid for everything else
      expect(await call(liveClient, 'get_signals', { signal_spec: 'sports' })).toMatchObject({ status: 'completed' })
    } finally {
      await liveClient.close()
    }
    // a sandbox key of the same client is still served
    expect(await call(client, 'comply_test_controller', { scenario: 'list_scenarios', account: nova })).toMatchObject({ success: true })
  })

  it('forces get_signals into submitted, scopes the task to its account, completes it and queues its webhook once', async () => {
    const forced = await call(client, 'comply_test_controller', {
      scenario: 'force_get_signals_arm',
      account: nova,
      params: { arm: 'submitted', task_id: 'task_nova_1' },
    })
    expect(forced).toMatchObject({ success: true, forced: { arm: 'submitted', task_id: 'task_nova_1' } })
    const secret = 'a-shared-secret-of-at-least-32-characters'
    const submitted = await call(client, 'get_signals', {
      signal_spec: 'sports fans',
      account: nova,
      push_notification_config: {
        url: `${receiver.url}/hook`,
        operation_id: 'op_1',
        token: 'buyer-token-0123456789',
        authentication: { schemes: ['HMAC-SHA256'], credentials: secret },
      },
    })
    expect(submitted).toMatchObject({ status: 'submitted', task_id: 'task_nova_1' })
    expect(submitted.signals).toBeUndefined()
    // the directive is one-shot
    expect(await call(client, 'get_signals', { signal_spec: 'sports fans', account: nova })).toMatchObject({ status: 'completed' })

    const listed = await call(client, 'list_tasks', { account: nova, filters: { task_ids: ['task_nova_1'], has_webhook: true } })
    expect(listed).toMatchObject({
      query_summary: { total_matching: 1, returned: 1 },
      tasks: [{ task_id: 'task_nova_1', status: 'submitted', domain: 'signals' }],
    })
    expect(await call(client, 'list_tasks', { account: other, filters: { task_ids: ['task_nova_1'] } })).toMatchObject({ query_summary: { total_matching: 0 } })
    const hidden = (await client.callTool({ name: 'get_task_status', arguments: { task_id: 'task_nova_1', account: other } })) as CallToolResult
    expect(hidden.structuredContent).toMatchObject({ adcp_error: { code: 'REFERENCE_NOT_FOUND' } })

    const result = { signals: [], cache_scope: 'public' }
    const done = await call(client, 'comply_test_controller', { scenario: 'force_task_completion', account: nova, params: { task_id: 'task_nova_1', result } })
    expect(done).toMatchObject({ success: true, previous_state: 'submitted', current_state: 'completed' })
    const again = await refused(client, { scenario: 'force_task_completion', account: nova, params: { task_id: 'task_nova_1', result } })
    expect(again).toMatchObject({ success: false, error: 'INVALID_TRANSITION' })
    const status = await call(client, 'get_task_status', { task_id: 'task_nova_1', account: nova, include_result: true })
    expect(status).toMatchObject({ task_type: 'get_signals', protocol: 'signals', status: 'completed', has_webhook: true, result })

    const { rows } = await agent.ctx.db.query<{ url: string; payload: string }>(`SELECT url, payload FROM webhook_deliveries WHERE url LIKE '%/hook'`)
    expect(rows).toHaveLength(1)
    // delivered by the platform's outbox: the AdCP payload, signed with the caller's HMAC secret
    await waitFor(async () => receiver.received.length > 0, 20_000, 'the task webhook')
    const hit = receiver.received[0]!
    // the stored payload is the sent one with the token sealed away
    expect(JSON.parse(rows[0]!.payload)).toEqual({ ...JSON.parse(hit.body), token: '[sealed]' })
    expect(JSON.stringify(rows)).not.toContain('buyer-token-0123456789')
    expect(JSON.parse(hit.body)).toMatchObject({
      operation_id: 'op_1',
      task_id: 'task_nova_1',
      task_type: 'get_signals',
      protocol: 'signals',
      status: 'completed',
      token: 'buyer-token-0123456789',
      idempotency_key: expect.any(String),
      result,
    })
    const id = hit.headers['webhook-id'] as string
    const ts = hit.headers['webhook-timestamp'] as string
    const expected = createHmac('sha256', Buffer.from(secret)).update(`${id}.${ts}.${hit.body}`).digest('base64')
    expect(hit.headers['webhook-signature']).toContain(`v1,${expected}`)
    // the token and the credentials are not stored in the clear with the task
    const { rows: stored } = await agent.ctx.db.query<{ webhook_auth_enc: string }>(`SELECT webhook_auth_enc FROM adcp_tasks WHERE task_id = 'task_nova_1'`)
    expect(stored[0]!.webhook_auth_enc).not.toContain(secret)
  })
})
