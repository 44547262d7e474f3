import { ApiError, unprocessable } from '../platform/http/errors.ts'
import { enqueue } from '../platform/jobs/queue.ts'
import type { ActivationContext } from './context.ts'
import type { ActivationRow } from './repository.ts'
import { insertActivation, segmentStates } from './repository.ts'
import type { CreateActivationBody } from './schemas.ts'
import { validateActivation } from './validate.ts'

/**
 * Creates an activation (spec 4.2) and enqueues its processing in the same transaction. Used by
 * REST and by the AdCP activate_signal tool.
 */
export async function createActivation(ctx: ActivationContext, clientId: number, body: CreateActivationBody): Promise<ActivationRow> {
  const now = ctx.clock.now()
  const valid = validateActivation(body, now.toISOString().slice(0, 10))
  const states = await segmentStates(ctx.db, clientId, valid.segment_ids)
  const missing = valid.segment_ids.filter((id) => !states.has(id))
  if (missing.length) {
    throw new ApiError(404, 'not_found', `segment ${missing.join(', ')} not found`)
  }
  const unfinished = valid.segment_ids.filter((id) => states.get(id)!.status !== 'complete')
  if (unfinished.length) {
    throw unprocessable(
      `segment ${unfinished.join(', ')} is not complete yet; activate it once its processed_date is set`,
      unfinished.map((id) => ({ path: `body.segment_ids`, message: `segment ${id} is ${states.get(id)!.status}` })),
    )
  }
  // A deal over no URLs would be live and target nothing: refuse it and say why.
  const empty = valid.segment_ids.filter((id) => !states.get(id)!.hasUrls)
  if (empty.length) {
    throw unprocessable(
      `segment ${empty.join(', ')} has no URLs, so a deal on it would target nothing; expand it (POST …/optimizations) or build another segment`,
      empty.map((id) => ({ path: 'body.segment_ids', message: `segment ${id} has no URLs` })),
    )
  }
  return ctx.db.transaction(async (tx) => {
    const row = await insertActivation(tx, clientId, valid, ctx.connector.name, now)
    await enqueue(tx, 'activation.issue', { id: row.id }, { now })
    return row
  })
}
