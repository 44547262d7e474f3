/**
 * get_task_status and list_tasks: the caller's AdCP tasks (answered `submitted` with a task_id), in
 * the account it names. Another account's or client's task is REFERENCE_NOT_FOUND / not listed.
 */

import { accountScope } from '../accounts.ts'
import type { AgentDeps } from '../agent.ts'
import { DomainError } from '../results.ts'
import type { GetTaskStatusInput, ListTasksInput } from '../schemas.ts'
import type { TaskRow } from './repository.ts'
import { getTask, listTasks } from './repository.ts'

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : undefined)

function summary(t: TaskRow) {
  return {
    task_id: t.task_id,
    task_type: t.task_type,
    status: t.status,
    created_at: iso(t.created_at)!,
    updated_at: iso(t.updated_at)!,
    ...(t.completed_at ? { completed_at: iso(t.completed_at) } : {}),
    has_webhook: t.webhook_url !== null,
  }
}

export async function getTaskStatus(deps: AgentDeps, input: GetTaskStatusInput) {
  const { clientId } = await deps.principal()
  const task = await getTask(deps.ctx.db, clientId, accountScope(input.account), input.task_id)
  if (!task) {
    throw new DomainError('REFERENCE_NOT_FOUND', `task ${input.task_id} does not exist (for this account)`, 'correctable', 'task_id')
  }
  return {
    ...summary(task),
    protocol: 'signals',
    ...(task.message ? { message: task.message } : {}),
    ...(input.include_result && task.result ? { result: task.result } : {}),
    ...(task.error ? { error: task.error } : {}),
    ...(input.context ? { context: input.context } : {}),
  }
}

const pageMax = 100

export async function listTasksTool(deps: AgentDeps, input: ListTasksInput) {
  const { clientId } = await deps.principal()
  const f = input.filters ?? {}
  const limit = Math.min(pageMax, input.pagination?.max_results ?? 50)
  const offset = input.pagination?.cursor ? Number(/^t(\d{1,7})$/.exec(Buffer.from(input.pagination.cursor, 'base64url').toString())?.[1] ?? Number.NaN) : 0
  if (!Number.isFinite(offset))
    throw new DomainError('INVALID_REQUEST', 'pagination.cursor is not a cursor this agent issued', 'correctable', 'pagination.cursor')
  const protocols = [f.protocol, ...(f.protocols ?? [])].filter((p): p is string => typeof p === 'string')
  const { rows, total } =
    protocols.length && !protocols.includes('signals')
      ? { rows: [], total: 0 }
      : await listTasks(
          deps.ctx.db,
          clientId,
          accountScope(input.account),
          {
            taskIds: f.task_ids,
            taskTypes: f.task_type ? [f.task_type, ...(f.task_types ?? [])] : f.task_types,
            statuses: f.status ? [f.status, ...(f.statuses ?? [])] : f.statuses,
            hasWebhook: f.has_webhook,
          },
          { offset, limit },
        )
  const hasMore = offset + rows.length < total
  const byStatus: Record<string, number> = {}
  for (const t of rows) byStatus[t.status] = (byStatus[t.status] ?? 0) + 1
  return {
    query_summary: { total_matching: total, returned: rows.length, domain_breakdown: { signals: rows.length }, status_breakdown: byStatus },
    tasks: rows.map((t) => ({ ...summary(t), domain: 'signals' })),
    pagination: { has_more: hasMore, ...(hasMore ? { cursor: Buffer.from(`t${offset + rows.length}`).toString('base64url') } : {}), total_count: total },
    ...(input.context ? { context: input.context } : {}),
  }
}
