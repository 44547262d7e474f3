/**
 * The AdCP signals agent as an MCP server: `buildServer(deps)` returns a fresh McpServer with the
 * three tools, for one HTTP request (stateless) or one stdio session. Transport wiring lives in
 * http.ts and stdio.ts.
 *
 * Errors, as the MCP spec separates them:
 *  - an unknown tool is a JSON-RPC error (-32602 InvalidParams) naming the tools there are;
 *  - arguments that do not fit the tool's inputSchema are AdCP's INVALID_REQUEST in the tool result
 *    (`adcp_error.field` names the first offending field), as AdCP 3.1 requires;
 *  - a domain failure — an unknown signal, an unsupported platform, a segment still building — is an
 *    `isError` result with a readable message and AdCP's `adcp_error` (results.ts);
 *  - a fault on our side is an `isError` result saying so, its details only in the log.
 * The SDK's own tools/call handler would turn every one of these into an isError result, so it is
 * replaced by a small one that keeps the distinction; tools/list stays the SDK's.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { CallToolRequestSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import type { z } from 'zod'

import pkg from '../../package.json' with { type: 'json' }
import type { AgentDeps } from './agent.ts'
import { asDomainError, controllerResult, DomainError, failed, ok } from './results.ts'
import {
  ActivateSignalInput,
  ActivateSignalOutput,
  CapabilitiesInput,
  CapabilitiesOutput,
  ComplyTestControllerInput,
  ControllerOutput,
  GetSignalsInput,
  GetSignalsOutput,
  GetTaskStatusInput,
  ListTasksInput,
  ListTasksOutput,
  TaskStatusOutput,
} from './schemas.ts'
import { getTaskStatus, listTasksTool } from './tasks/tools.ts'
import { activateSignal } from './tools/activate-signal.ts'
import { capabilities, declaration } from './tools/capabilities.ts'
import { complyTestController } from './tools/comply-test-controller.ts'
import { getSignals } from './tools/get-signals.ts'

const instructions = `Curata is an AdCP signals agent for contextual advertising.
1. get_signals with a signal_spec (what the audience reads about, in plain words) and deliver_to.deployments [{platform, account}] (the DSP and buyer seat): ranked signals — public IAB and seasonal segments (marketplace), your own segments (owned), and a segment built for your brief (custom) — with coverage, CPM and per-platform deployment status.
2. activate_signal with a signal_agent_segment_id and the same platform/account: a Deal ID for the DSP (status activating until the deal is live). Send an idempotency_key so a retry does not make a second deal.`

interface Tool {
  schema: z.ZodType<Record<string, unknown>>
  run(args: Record<string, unknown>): Promise<Record<string, unknown>>
  /** Body fields a failed result still carries (AdCP 3.0 requires `signals` on every get_signals response). */
  failureBody?: () => Record<string, unknown>
  /** how an answer becomes the tool result (default `ok`) */
  render?: (payload: Record<string, unknown>) => CallToolResult
}

export function buildServer(deps: AgentDeps): McpServer {
  const server = new McpServer({ name: 'curata', title: 'Curata signals agent', version: pkg.version }, { instructions })
  const tools = new Map<string, Tool>()
  const unreachable = async (): Promise<CallToolResult> => {
    throw new Error('tools/call is handled by buildServer')
  }

  server.registerTool(
    'get_adcp_capabilities',
    {
      title: 'AdCP capabilities',
      description: 'The AdCP protocols and versions this agent supports (signals; AdCP 3.0 and 3.1).',
      inputSchema: CapabilitiesInput,
      outputSchema: CapabilitiesOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    unreachable,
  )
  tools.set('get_adcp_capabilities', {
    schema: CapabilitiesInput,
    run: (a) => capabilities(deps, a as CapabilitiesInput),
    // A refused version still answers with what is supported (the response schema requires it).
    failureBody: () => declaration(deps),
  })

  server.registerTool(
    'get_signals',
    {
      title: 'Find signals',
      description:
        'Find contextual signals (segments) for a targeting description: signal_spec in plain words, deliver_to.deployments [{platform, account}] (or AdCP 3.x destinations [{type:"platform", platform, account}]) to see deployment status per DSP seat, optional filters {catalog_types, max_cpm} and max_results. Returns ranked signals with coverage_percentage, CPM pricing and deployments; keep context_id for follow-ups.',
      inputSchema: GetSignalsInput,
      outputSchema: GetSignalsOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    unreachable,
  )
  tools.set('get_signals', { schema: GetSignalsInput, run: (a) => getSignals(deps, a as GetSignalsInput), failureBody: () => ({ signals: [] }) })

  server.registerTool(
    'activate_signal',
    {
      title: 'Activate a signal',
      description:
        'Activate a signal (its signal_agent_segment_id from get_signals) on a DSP for a buyer seat: deliver_to.deployments [{platform, account}] or destinations [{type:"platform", platform, account}]. Returns the Deal ID to target in the DSP, status activating until the deal is live. Pass an idempotency_key: repeating a call with it returns the same activation.',
      inputSchema: ActivateSignalInput,
      outputSchema: ActivateSignalOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    unreachable,
  )
  tools.set('activate_signal', { schema: ActivateSignalInput, run: (a) => activateSignal(deps, a as ActivateSignalInput) })

  server.registerTool(
    'get_task_status',
    {
      title: 'Task status',
      description:
        'The status of a task answered as submitted (task_id), with its result once completed (include_result: true). Tasks are scoped to the account named.',
      inputSchema: GetTaskStatusInput,
      outputSchema: TaskStatusOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    unreachable,
  )
  tools.set('get_task_status', { schema: GetTaskStatusInput, run: (a) => getTaskStatus(deps, a as GetTaskStatusInput) })

  server.registerTool(
    'list_tasks',
    {
      title: 'List tasks',
      description: 'Tasks of the account named (get_signals answered as submitted), filtered by task_ids, task_type, status, has_webhook; newest first.',
      inputSchema: ListTasksInput,
      outputSchema: ListTasksOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    unreachable,
  )
  tools.set('list_tasks', { schema: ListTasksInput, run: (a) => listTasksTool(deps, a as ListTasksInput) })

  server.registerTool(
    'comply_test_controller',
    {
      title: 'Compliance test controller',
      description:
        'Deterministic testing on sandbox accounts only (account.sandbox: true): list_scenarios, force_get_signals_arm (the next get_signals answers submitted), force_task_completion.',
      inputSchema: ComplyTestControllerInput,
      outputSchema: ControllerOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    unreachable,
  )
  tools.set('comply_test_controller', {
    schema: ComplyTestControllerInput,
    run: (a) => complyTestController(deps, a as ComplyTestControllerInput),
    render: controllerResult,
  })

  server.server.removeRequestHandler('tools/call')
  server.server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name } = request.params
    const tool = tools.get(name)
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}; this agent has ${[...tools.keys()].join(', ')}`)
    const raw = request.params.arguments ?? {}
    const parsed = tool.schema.safeParse(raw)
    if (!parsed.success) return failed(invalidArguments(name, parsed.error), { context: contextOf(raw), body: tool.failureBody?.() })
    const context = contextOf(parsed.data)
    try {
      return (tool.render ?? ok)(await tool.run(parsed.data))
    } catch (err) {
      const domain = asDomainError(err)
      if (domain) return failed(domain, { context, body: tool.failureBody?.() })
      deps.log.error({ err, tool: name }, 'AdCP tool failed')
      const fault = new DomainError('SERVICE_UNAVAILABLE', `${name} failed on our side; retry, and tell the operator if it persists`, 'transient')
      return failed(fault, { context, body: tool.failureBody?.() })
    }
  })
  return server
}

function contextOf(args: Record<string, unknown>): Record<string, unknown> | undefined {
  const c = args.context
  return c && typeof c === 'object' && !Array.isArray(c) ? (c as Record<string, unknown>) : undefined
}

/** Arguments that do not fit the tool's schema: AdCP's INVALID_REQUEST naming the first bad field. */
function invalidArguments(tool: string, error: z.ZodError): DomainError {
  const where = (i: z.core.$ZodIssue) => (i.path.length ? i.path.join('.') : '(arguments)')
  const detail = error.issues
    .slice(0, 5)
    .map((i) => `${where(i)}: ${i.message}`)
    .join('; ')
  const first = error.issues[0]
  return new DomainError('INVALID_REQUEST', `Invalid arguments for ${tool}: ${detail}`, 'correctable', first?.path.length ? first.path.join('.') : undefined)
}
