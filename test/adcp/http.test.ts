// The MCP endpoint on the API app: the auth gate (401 with WWW-Authenticate before any MCP
// processing, the same keys as REST in three headers), the rate limit, both paths, results as
// structuredContent with a JSON text copy, domain failures as isError results, protocol misuse as
// JSON-RPC errors.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { revokeKey } from '../../src/platform/keys/keys.ts'
import { describeEachEngine } from '../helpers/db.ts'
import type { Agent } from './helpers.ts'
import { bearer, mcpClient, payload, seedIndex, startAgent } from './helpers.ts'
import { schemaProblems } from './schemas.ts'

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
}
const listTools = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }

function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  })
}

describeEachEngine('MCP over HTTP', (getDb) => {
  let agent: Agent
  let key: string
  let client: Client
  beforeAll(async () => {
    agent = await startAgent(getDb().db)
    key = (await agent.client()).key
    client = await mcpClient(agent.mcpUrl, bearer(key))
  })
  afterAll(async () => {
    await client?.close()
    await agent?.close()
  })

  describe('OAuth client credentials', () => {
    const token = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${agent.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body })

    it('publishes protected-resource and authorization-server metadata', async () => {
      const prm = (await (await fetch(`${agent.url}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<string, unknown>
      expect(prm).toMatchObject({ resource: agent.mcpUrl, authorization_servers: [agent.url], bearer_methods_supported: ['header'] })
      const as = (await (await fetch(`${agent.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>
      expect(as).toMatchObject({ issuer: agent.url, token_endpoint: `${agent.url}/oauth/token`, grant_types_supported: ['client_credentials'] })
    })

    it('exchanges the API key for an access token that /mcp accepts, until the key is revoked', async () => {
      const c = await agent.client()
      const basic = { authorization: `Basic ${Buffer.from(`curata:${c.key}`).toString('base64')}` }
      const res = await token('grant_type=client_credentials', basic)
      expect(res.status).toBe(200)
      const t = (await res.json()) as { access_token: string; token_type: string; expires_in: number }
      expect(t).toMatchObject({ token_type: 'Bearer', expires_in: 3600, access_token: expect.stringMatching(/^cat_/) })
      expect((await post(agent.mcpUrl, initialize, bearer(t.access_token))).status).toBe(200)
      const viaForm = (await (await token(`grant_type=client_credentials&client_secret=${encodeURIComponent(c.key)}`)).json()) as { access_token: string }
      expect(viaForm.access_token).toMatch(/^cat_/)
      await agent.ctx.db.query('UPDATE api_keys SET revoked_at = now() WHERE client_id = $1', [c.clientId])
      const { rows } = await agent.ctx.db.query<{ n: string }>(`SELECT count(*) AS n FROM adcp_access_tokens WHERE client_id = $1`, [c.clientId])
      expect(Number(rows[0]!.n)).toBe(2)
      const after = await post(agent.mcpUrl, initialize, bearer(t.access_token))
      expect(after.status).toBe(401)
    })

    it('refuses a bad token request with the OAuth error', async () => {
      const other = await token('grant_type=password&username=a&password=b')
      expect(other.status).toBe(400)
      expect(await other.json()).toMatchObject({ error: 'unsupported_grant_type' })
      const none = await token('grant_type=client_credentials')
      expect(none.status).toBe(401)
      expect(await none.json()).toMatchObject({ error: 'invalid_client' })
      const wrong = await token('grant_type=client_credentials', { authorization: `Basic ${Buffer.from(`x:cur_${'y'.repeat(43)}`).toString('base64')}` })
      expect(wrong.status).toBe(401)
      const forged = await post(agent.mcpUrl, initialize, bearer(`cat_${'z'.repeat(43)}`))
      expect(forged.status).toBe(401)
      expect(forged.headers.get('www-authenticate')).toMatch(/error="invalid_token"/)
    })
  })

  describe('the gate', () => {
    it('answers 401 with a Bearer challenge when no key is sent, before any MCP processing', async () => {
      for (const body of [initialize, listTools, { not: 'json-rpc' }]) {
        const res = await post(agent.mcpUrl, body)
        expect(res.status).toBe(401)
        expect(res.headers.get('www-authenticate')).toBe(`Bearer realm="curata", resource_metadata="${agent.url}/.well-known/oauth-protected-resource/mcp"`)
        expect(await res.json()).toMatchObject({ error: 'unauthorized' })
      }
      const bad = await fetch(agent.mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{not json' })
      expect(bad.status).toBe(401)
    })

    it('answers a real tools/call without a key with 401 and the challenge, and carries nothing out', async () => {
      await seedIndex(agent)
      const count = async () =>
        (await agent.ctx.db.query<{ n: number }>('SELECT (SELECT count(*) FROM adcp_contexts) + (SELECT count(*) FROM activations) AS n')).rows[0]!.n
      const before = await count()
      const calls = [
        {
          name: 'get_signals',
          arguments: { signal_spec: 'sports fans following games', destinations: [{ type: 'platform', platform: 'ttd', account: 'seat-1' }] },
        },
        {
          name: 'activate_signal',
          arguments: {
            signal_agent_segment_id: 'iab:483',
            destinations: [{ type: 'platform', platform: 'ttd', account: 'seat-1' }],
            idempotency_key: 'unauthenticated-000001',
          },
        },
      ]
      for (const [i, params] of calls.entries()) {
        for (const headers of [{}, { 'x-adcp-auth': '' }, { authorization: 'Bearer ' }] as Record<string, string>[]) {
          const res = await post(agent.mcpUrl, { jsonrpc: '2.0', id: 10 + i, method: 'tools/call', params }, headers)
          expect(res.status, `${params.name} ${JSON.stringify(headers)}`).toBe(401)
          expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="curata"/)
          expect(await res.json()).toMatchObject({ error: 'unauthorized', message: expect.any(String) })
        }
      }
      expect(Number(await count())).toBe(Number(before))
      // The same call with the key goes through.
      const ok = await post(agent.mcpUrl, { jsonrpc: '2.0', id: 20, method: 'tools/call', params: calls[0] }, bearer(key))
      expect(ok.status).toBe(200)
      expect(((await ok.json()) as { result: { isError?: boolean } }).result.isError).toBeFalsy()
    })

    it('refuses an unknown key and a revoked key with invalid_token', async () => {
      const res = await post(agent.mcpUrl, initialize, bearer(`cur_${'x'.repeat(43)}`))
      expect(res.status).toBe(401)
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="curata", resource_metadata="[^"]+", error="invalid_token"/)
      const c = await agent.client()
      expect((await post(agent.mcpUrl, initialize, bearer(c.key))).status).toBe(200)
      const { rows } = await agent.ctx.db.query<{ id: number }>('SELECT id FROM api_keys WHERE client_id = $1', [c.clientId])
      await revokeKey(agent.ctx.db, rows[0]!.id, new Date())
      await new Promise((r) => setTimeout(r, 50)) // NOTIFY evicts the cached key
      expect((await post(agent.mcpUrl, initialize, bearer(c.key))).status).toBe(401)
    })

    it.each([
      ['Authorization: Bearer', (k: string) => ({ authorization: `Bearer ${k}` })],
      ['x-adcp-auth', (k: string) => ({ 'x-adcp-auth': k })],
      ['X-API-Key', (k: string) => ({ 'X-API-Key': k })],
    ])('accepts the key as %s', async (_name, headers) => {
      const res = await post(agent.mcpUrl, listTools, headers(key))
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toMatch(/application\/json/)
      expect(res.headers.get('x-ratelimit-limit')).toBe('100000')
      const body = (await res.json()) as { result: { tools: { name: string }[] } }
      expect(body.result.tools.map((t) => t.name).sort()).toEqual([
        'activate_signal',
        'comply_test_controller',
        'get_adcp_capabilities',
        'get_signals',
        'get_task_status',
        'list_tasks',
      ])
    })

    it('serves /mcp/ too, and answers JSON to a client that accepts only JSON', async () => {
      const slash = await mcpClient(`${agent.url}/mcp/`, bearer(key))
      expect((await slash.listTools()).tools).toHaveLength(6)
      await slash.close()
      const res = await fetch(agent.mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...bearer(key) },
        body: JSON.stringify(listTools),
      })
      expect(res.status).toBe(200)
    })

    it('has no stream or session to GET or DELETE: 405 (after the gate)', async () => {
      expect((await fetch(agent.mcpUrl)).status).toBe(401)
      const get = await fetch(agent.mcpUrl, { headers: { accept: 'text/event-stream', ...bearer(key) } })
      expect(get.status).toBe(405)
      expect(get.headers.get('allow')).toBe('POST')
      expect((await fetch(agent.mcpUrl, { method: 'DELETE', headers: bearer(key) })).status).toBe(405)
    })
  })

  it('counts MCP requests in the key rate limit, as REST does', async () => {
    const limited = await startAgent(getDb().db, { config: { rateLimitPerMinute: 3 } })
    try {
      const c = await limited.client()
      const statuses: number[] = []
      for (let i = 0; i < 3; i++) statuses.push((await post(limited.mcpUrl, listTools, bearer(c.key))).status)
      const rest = await fetch(`${limited.url}/v1/snowball/campaigns`, { headers: bearer(c.key) })
      statuses.push(rest.status)
      const over = await post(limited.mcpUrl, listTools, bearer(c.key))
      expect(statuses).toEqual([200, 200, 200, 429])
      expect(over.status).toBe(429)
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0)
    } finally {
      await limited.close()
    }
  })

  describe('tools', () => {
    it('declare input and output schemas', async () => {
      const { tools } = await client.listTools()
      for (const t of tools) {
        expect(t.inputSchema.type).toBe('object')
        expect(t.outputSchema?.type).toBe('object')
        expect(t.description?.length).toBeGreaterThan(20)
      }
      const gs = tools.find((t) => t.name === 'get_signals')!
      expect(Object.keys(gs.inputSchema.properties ?? {})).toEqual(
        expect.arrayContaining(['signal_spec', 'deliver_to', 'destinations', 'countries', 'filters', 'max_results', 'pagination', 'context_id']),
      )
      const as = tools.find((t) => t.name === 'activate_signal')!
      expect(as.inputSchema.required).toEqual(['signal_agent_segment_id'])
      expect(Object.keys(as.inputSchema.properties ?? {})).toEqual(
        expect.arrayContaining(['deliver_to', 'destinations', 'idempotency_key', 'pricing_option_id']),
      )
    })

    it('answer in structuredContent with a JSON text copy', async () => {
      const r = (await client.callTool({ name: 'get_adcp_capabilities', arguments: { context: { trace: 'abc' } } })) as CallToolResult
      expect(r.isError).toBeFalsy()
      const body = payload<Record<string, unknown>>(r)
      expect(body).toMatchObject({
        status: 'completed',
        adcp_version: '3.1',
        supported_protocols: ['signals'],
        adcp: { major_versions: [3], supported_versions: ['3.0', '3.1'], idempotency: { supported: true } },
        context: { trace: 'abc' },
      })
      expect(schemaProblems('get-adcp-capabilities-response', body)).toEqual([])
    })

    it('report domain failures as isError results with a readable message', async () => {
      const r = (await client.callTool({
        name: 'activate_signal',
        arguments: {
          signal_agent_segment_id: 'iab:999999',
          deliver_to: { deployments: [{ platform: 'ttd', account: 'seat' }] },
          idempotency_key: 'http-test-unknown-signal-0001',
          context: { n: 1 },
        },
      })) as CallToolResult
      expect(r.isError).toBe(true)
      expect(r.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/iab:999999 does not exist/) })
      expect(r.structuredContent).toMatchObject({ status: 'failed', adcp_error: { code: 'REFERENCE_NOT_FOUND', recovery: 'correctable' }, context: { n: 1 } })

      const platform = (await client.callTool({
        name: 'get_signals',
        arguments: { signal_spec: 'sports', deliver_to: { deployments: [{ platform: 'bidswitch', account: 'a' }] } },
      })) as CallToolResult
      expect(platform.isError).toBe(true)
      expect(platform.structuredContent).toMatchObject({ adcp_error: { code: 'VALIDATION_ERROR', field: 'destinations[0].platform' } })
      expect(JSON.stringify(platform.content)).toMatch(/is not a DSP/)

      const version = (await client.callTool({ name: 'get_signals', arguments: { signal_spec: 'x', adcp_version: '4.0' } })) as CallToolResult
      expect(version.structuredContent).toMatchObject({ adcp_error: { code: 'VERSION_UNSUPPORTED' } })
    })

    it('report an unknown tool as a JSON-RPC error, and arguments that break the schema as INVALID_REQUEST naming the field', async () => {
      const unknown = client.callTool({ name: 'list_creatives', arguments: {} })
      await expect(unknown).rejects.toBeInstanceOf(McpError)
      await expect(unknown).rejects.toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringMatching(/Unknown tool: list_creatives/) })
      const bad = async (name: string, args: Record<string, unknown>) =>
        ((await client.callTool({ name, arguments: args })) as CallToolResult).structuredContent
      expect(await bad('get_signals', { max_results: 'ten', context: { k: 1 } })).toMatchObject({
        status: 'failed',
        adcp_error: { code: 'INVALID_REQUEST', field: 'max_results' },
        signals: [],
        context: { k: 1 },
      })
      expect(await bad('get_signals', { signal_spec: 42 })).toMatchObject({ adcp_error: { code: 'INVALID_REQUEST', field: 'signal_spec' } })
      expect(await bad('activate_signal', { idempotency_key: 'http-test-missing-id-0001' })).toMatchObject({
        adcp_error: { code: 'INVALID_REQUEST', field: 'signal_agent_segment_id' },
      })
      const res = await post(agent.mcpUrl, { jsonrpc: '2.0', id: 7, method: 'signals/teleport', params: {} }, bearer(key))
      expect(((await res.json()) as { error: { code: number } }).error.code).toBe(ErrorCode.MethodNotFound)
    })
  })
})
