/**
 * comply_test_controller: deterministic testing for the compliance storyboards, on sandbox accounts
 * only (accounts.ts says which; a live API key has none); a live account gets FORBIDDEN before any
 * scenario runs. Scenarios:
 *  - force_get_signals_arm: the next brief-mode get_signals of a sandbox account of this client (the
 *    API key: runners name a default account for controller calls, and the storyboard's own for the
 *    call it steers) answers `submitted` with the given task_id instead of running (one-shot);
 *  - force_task_completion: completes a submitted task of this account with the given result
 *    (delivered to its push_notification_config webhook, if any).
 * Failures are the controller's own `{success: false, error}` answers, as the AdCP schema defines.
 */

import { isLiveKey } from '../../platform/keys/keys.ts'
import { accountScope } from '../accounts.ts'
import type { AgentDeps } from '../agent.ts'
import type { ComplyTestControllerInput } from '../schemas.ts'
import { notifyTask } from '../tasks/notify.ts'
import { completeTask, getTask, setDirective } from '../tasks/repository.ts'

export const controllerScenarios = ['force_get_signals_arm', 'force_task_completion'] as const

type Answer = Record<string, unknown>
const refuse = (error: string, detail: string, extra: Answer = {}): Answer => ({ success: false, error, error_detail: detail, ...extra })

export async function complyTestController(deps: AgentDeps, input: ComplyTestControllerInput): Promise<Answer> {
  const { clientId, keyId } = await deps.principal()
  const account = accountScope(input.account, deps.ctx.connector.sandbox)
  const echo = input.context ? { context: input.context } : {}
  // A live key (`curata keys create --live`) is a production credential: the operator's record, not
  // the payload's claim nor the deployment, makes every account it acts for a live one.
  if (await isLiveKey(deps.ctx.db, keyId)) {
    return { ...refuse('FORBIDDEN', 'comply_test_controller serves sandbox accounts only: this API key is a live (production) credential'), ...echo }
  }
  if (!account.sandbox) {
    return {
      ...refuse(
        'FORBIDDEN',
        'comply_test_controller serves sandbox accounts only: sandbox: true and a brand domain or operator under a test domain (.example, .test)',
      ),
      ...echo,
    }
  }
  const params = input.params ?? {}
  const now = deps.ctx.clock.now()
  switch (input.scenario) {
    case 'list_scenarios':
      return { success: true, scenarios: [...controllerScenarios], ...echo }
    case 'force_get_signals_arm': {
      if (params.arm !== 'submitted') {
        return { ...refuse('INVALID_PARAMS', 'params.arm must be "submitted" (the arm get_signals has besides completing)'), ...echo }
      }
      const taskId = typeof params.task_id === 'string' && /^[\w.:-]{1,128}$/.test(params.task_id) ? params.task_id : null
      if (!taskId) return { ...refuse('INVALID_PARAMS', 'params.task_id must be 1 to 128 characters of A-Z a-z 0-9 _ . : -'), ...echo }
      const message = typeof params.message === 'string' ? params.message.slice(0, 500) : null
      await setDirective(deps.ctx.db, clientId, 'force_get_signals_arm', { arm: 'submitted', task_id: taskId, message }, now)
      return {
        success: true,
        forced: { arm: 'submitted', task_id: taskId },
        message: 'The next brief-mode get_signals of this account answers submitted.',
        ...echo,
      }
    }
    case 'force_task_completion': {
      const taskId = typeof params.task_id === 'string' ? params.task_id : ''
      const result = params.result && typeof params.result === 'object' && !Array.isArray(params.result) ? (params.result as Record<string, unknown>) : null
      if (!taskId || !result) return { ...refuse('INVALID_PARAMS', 'params.task_id and params.result (an object) are required'), ...echo }
      const before = await getTask(deps.ctx.db, clientId, account, taskId)
      if (!before) return { ...refuse('NOT_FOUND', `task ${taskId} does not exist in this account`, { current_state: null }), ...echo }
      const done = await completeTask(deps.ctx.db, clientId, account, taskId, result, now)
      if (!done) return { ...refuse('INVALID_TRANSITION', `task ${taskId} is already ${before.status}`, { current_state: before.status }), ...echo }
      await notifyTask(deps, clientId, done)
      return { success: true, previous_state: before.status, current_state: 'completed', message: `task ${taskId} completed`, ...echo }
    }
    default:
      return { ...refuse('UNKNOWN_SCENARIO', `scenario ${input.scenario} is not offered; list_scenarios names those that are`), ...echo }
  }
}
