/**
 * AdCP tasks (adcp_tasks): work answered `submitted` with a task_id, polled with get_task_status,
 * listed with list_tasks. Every query is scoped by client and account: another account's task is
 * indistinguishable from one that does not exist.
 */
import type { Queryable } from '../../platform/db/db.ts'
import type { AccountScope } from '../accounts.ts'

export interface TaskRow {
  task_id: string
  task_type: string
  status: string
  message: string | null
  request: Record<string, unknown>
  result: Record<string, unknown> | null
  error: Record<string, unknown> | null
  webhook_url: string | null
  webhook_operation: string | null
  webhook_auth_enc: string | null
  created_at: Date
  updated_at: Date
  completed_at: Date | null
}

const columns =
  'task_id, task_type, status, message, request, result, error, webhook_url, webhook_operation, webhook_auth_enc, created_at, updated_at, completed_at'

export interface NewTask {
  taskId: string
  taskType: string
  message: string | null
  request: Record<string, unknown>
  webhook: { url: string; operation_id: string | null; authEnc: string | null } | null
}

/**
 * Records a submitted task. The ids are the runner's (forced on sandbox accounts), so a repeated id
 * in the same account starts that task over.
 */
export async function createTask(db: Queryable, clientId: number, account: AccountScope, t: NewTask, now: Date): Promise<boolean> {
  const { rows } = await db.query(
    `INSERT INTO adcp_tasks (client_id, account_key, task_id, task_type, status, message, request, webhook_url, webhook_operation, webhook_auth_enc, created_at, updated_at)
     VALUES ($1, $2, $3, $4, 'submitted', $5, $6::jsonb, $7, $8, $9, $10, $10)
     ON CONFLICT (client_id, account_key, task_id) DO UPDATE SET task_type = EXCLUDED.task_type, status = 'submitted', message = EXCLUDED.message,
       request = EXCLUDED.request, result = NULL, error = NULL, webhook_url = EXCLUDED.webhook_url, webhook_operation = EXCLUDED.webhook_operation,
       webhook_auth_enc = EXCLUDED.webhook_auth_enc, created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at, completed_at = NULL
     RETURNING task_id`,
    [
      clientId,
      account.key,
      t.taskId,
      t.taskType,
      t.message,
      JSON.stringify(t.request),
      t.webhook?.url ?? null,
      t.webhook?.operation_id ?? null,
      t.webhook?.authEnc ?? null,
      now,
    ],
  )
  return rows.length > 0
}

export async function getTask(db: Queryable, clientId: number, account: AccountScope, taskId: string): Promise<TaskRow | null> {
  const { rows } = await db.query<TaskRow>(`SELECT ${columns} FROM adcp_tasks WHERE client_id = $1 AND account_key = $2 AND task_id = $3`, [
    clientId,
    account.key,
    taskId,
  ])
  return rows[0] ?? null
}

/** Moves a non-terminal task to completed with its result; the row after, or null when it was not open. */
export async function completeTask(
  db: Queryable,
  clientId: number,
  account: AccountScope,
  taskId: string,
  result: Record<string, unknown>,
  now: Date,
): Promise<TaskRow | null> {
  const { rows } = await db.query<TaskRow>(
    `UPDATE adcp_tasks SET status = 'completed', result = $4::jsonb, updated_at = $5, completed_at = $5
      WHERE client_id = $1 AND account_key = $2 AND task_id = $3 AND status IN ('submitted', 'working', 'input-required')
      RETURNING ${columns}`,
    [clientId, account.key, taskId, JSON.stringify(result), now],
  )
  return rows[0] ?? null
}

export interface TaskFilter {
  taskIds?: string[] | undefined
  taskTypes?: string[] | undefined
  statuses?: string[] | undefined
  hasWebhook?: boolean | undefined
}

export async function listTasks(
  db: Queryable,
  clientId: number,
  account: AccountScope,
  f: TaskFilter,
  page: { offset: number; limit: number },
): Promise<{ rows: TaskRow[]; total: number }> {
  const where = ['client_id = $1', 'account_key = $2']
  const args: unknown[] = [clientId, account.key]
  const add = (sql: (n: number) => string, v: unknown) => {
    args.push(v)
    where.push(sql(args.length))
  }
  if (f.taskIds) add((n) => `task_id = ANY($${n}::text[])`, f.taskIds)
  if (f.taskTypes) add((n) => `task_type = ANY($${n}::text[])`, f.taskTypes)
  if (f.statuses) add((n) => `status = ANY($${n}::text[])`, f.statuses)
  if (f.hasWebhook !== undefined) add((n) => `(webhook_url IS NOT NULL) = $${n}`, f.hasWebhook)
  const sql = where.join(' AND ')
  const [{ rows }, count] = await Promise.all([
    db.query<TaskRow>(`SELECT ${columns} FROM adcp_tasks WHERE ${sql} ORDER BY created_at DESC, task_id LIMIT ${page.limit} OFFSET ${page.offset}`, args),
    db.query<{ n: string }>(`SELECT count(*) AS n FROM adcp_tasks WHERE ${sql}`, args),
  ])
  return { rows, total: Number(count.rows[0]!.n) }
}

const sandboxKey = 'sandbox'

/** Registers a one-shot directive for the client's sandbox accounts (replacing an earlier one of the same scenario). */
export async function setDirective(db: Queryable, clientId: number, scenario: string, params: object, now: Date): Promise<void> {
  await db.query(
    `INSERT INTO adcp_directives (client_id, account_key, scenario, params, created_at) VALUES ($1, $2, $3, $4::jsonb, $5)
     ON CONFLICT (client_id, account_key, scenario) DO UPDATE SET params = EXCLUDED.params, created_at = EXCLUDED.created_at`,
    [clientId, sandboxKey, scenario, JSON.stringify(params), now],
  )
}

/** Takes (and removes) the directive, if one is registered. */
export async function takeDirective(db: Queryable, clientId: number, scenario: string): Promise<Record<string, unknown> | null> {
  const { rows } = await db.query<{ params: Record<string, unknown> }>(
    `DELETE FROM adcp_directives WHERE client_id = $1 AND account_key = $2 AND scenario = $3 RETURNING params`,
    [clientId, sandboxKey, scenario],
  )
  return rows[0]?.params ?? null
}
