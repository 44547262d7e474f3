/**
 * Tool results as AdCP clients read them: the payload in `structuredContent` (envelope fields flat
 * beside body fields), a JSON copy as the text content. A domain failure is an `isError` result whose
 * text is a readable message and whose structuredContent carries `adcp_error` and `errors[]`.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'

import { ApiError } from '../platform/http/errors.ts'

/** The AdCP release the responses follow (release precision, as 3.1 requires). */
export const adcpVersion = '3.1'

export type Recovery = 'correctable' | 'transient' | 'terminal'

/** A failure the caller can read and act on: returned as an isError result, never a protocol error. */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly recovery: Recovery = 'correctable',
    readonly field?: string,
  ) {
    super(message)
  }
}

export function ok(payload: Record<string, unknown>): CallToolResult {
  return { structuredContent: payload, content: [{ type: 'text', text: JSON.stringify(payload) }] }
}

/**
 * A comply_test_controller answer: a ControllerError (`success: false`) is the tool failing, an
 * `isError` result (as @adcp/sdk's own controller answers, server/test-controller.js toMcpResponse)
 * whose structuredContent is the ControllerError and whose text is its detail.
 */
export function controllerResult(payload: Record<string, unknown>): CallToolResult {
  if (payload.success !== false) return ok(payload)
  const text = typeof payload.error_detail === 'string' ? `${String(payload.error)}: ${payload.error_detail}` : String(payload.error)
  return { isError: true, structuredContent: payload, content: [{ type: 'text', text }] }
}

export function failed(
  err: DomainError,
  extra: { context?: Record<string, unknown> | undefined; adcp_version?: string; body?: Record<string, unknown> } = {},
): CallToolResult {
  const error = { code: err.code, message: err.message, recovery: err.recovery, ...(err.field ? { field: err.field } : {}) }
  const payload = {
    status: 'failed',
    adcp_version: extra.adcp_version ?? adcpVersion,
    message: err.message,
    adcp_error: error,
    errors: [error],
    ...extra.body,
    ...(extra.context ? { context: extra.context } : {}),
  }
  return { isError: true, structuredContent: payload, content: [{ type: 'text', text: err.message }] }
}

/** Errors of the modules underneath (their REST ApiErrors) in AdCP terms. */
export function fromApiError(e: ApiError, field?: string): DomainError {
  const code = e.status === 404 ? 'REFERENCE_NOT_FOUND' : e.status === 429 ? 'RATE_LIMITED' : e.status === 409 ? 'CONFLICT' : 'VALIDATION_ERROR'
  const recovery: Recovery = e.status === 429 ? 'transient' : 'correctable'
  const detail = e.details?.map((d) => d.message).join('; ')
  return new DomainError(code, detail && !e.message.includes(detail) ? `${e.message}: ${detail}` : e.message, recovery, field)
}

export function asDomainError(err: unknown): DomainError | null {
  if (err instanceof DomainError) return err
  if (err instanceof ApiError && err.status < 500) return fromApiError(err)
  return null
}
