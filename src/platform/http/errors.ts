/**
 * The error catalog (docs/errors.md) and the one mapper from anything thrown to the spec's body
 * `{error, message}`. Handlers throw ApiError; framework and validation errors are translated here;
 * everything else is an internal_error whose details stay in the log.
 */
export type ErrorCode =
  | 'invalid_json'
  | 'invalid_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'validation_failed'
  | 'conflict'
  | 'rate_limited'
  | 'internal_error'
  | 'service_unavailable'

export interface ErrorDetail {
  path: string
  message: string
}

export interface ErrorBody {
  error: ErrorCode
  message: string
  details?: ErrorDetail[]
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message)
  }
}

export const notFound = (what: string) => new ApiError(404, 'not_found', `${what} not found`)
export const badRequest = (message: string, details?: ErrorDetail[]) => new ApiError(400, 'invalid_request', message, details)
export const unprocessable = (message: string, details?: ErrorDetail[]) => new ApiError(422, 'validation_failed', message, details)

/** An inclusive body date range (YYYY-MM-DD strings compare as dates): end_date before start_date is a 422. */
export function checkDateRange(body: { start_date: string; end_date: string }): void {
  if (body.start_date > body.end_date) {
    throw unprocessable('start_date must not be after end_date', [{ path: 'body.end_date', message: 'before start_date' }])
  }
}

interface ValidationIssue {
  keyword: string
  instancePath: string
  message?: string
  params?: Record<string, unknown>
}

// Missing or mistyped parameters are 400 (spec part 7: "invalid or missing parameters"); values of
// the right type that break a rule (an enum, a format, a range) are 422 "validation error".
const shapeKeywords = new Set(['required', 'type', 'additionalProperties', 'anyOf', 'oneOf', 'not'])

const partNames: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'headers' }

function validationError(issues: ValidationIssue[], part: string): ApiError {
  const where = partNames[part] ?? part
  const details = issues.map((i) => {
    const missing = i.keyword === 'required' ? `/${String(i.params?.missingProperty ?? '')}` : ''
    const path = `${where}${i.instancePath}${missing}`.replaceAll('/', '.')
    return { path, message: describe(i, path) }
  })
  const shape = issues.some((i) => shapeKeywords.has(i.keyword))
  const message = details.map((d) => d.message).join('; ')
  return shape ? badRequest(message, details) : unprocessable(message, details)
}

function describe(i: ValidationIssue, path: string): string {
  if (i.keyword === 'required') return `${path} is required`
  if (i.keyword === 'enum') {
    const allowed = (i.params?.allowedValues as unknown[] | undefined)?.map((v) => JSON.stringify(v)).join(', ')
    return `${path} must be one of ${allowed}`
  }
  return `${path} ${i.message ?? 'is invalid'}`
}

/**
 * SQLSTATE class 22 (data exception) codes a client's value can cause once past validation: bytes
 * the encoding cannot hold, a number beyond a column's range, text that does not parse as the
 * column's type, a date out of range, a string too long. They are a safety net — validation and
 * the text check in app.ts should stop such values first — and are answered 400. Codes that only
 * our own SQL can cause (division by zero, a bad regex, an invalid parameter to a function) stay
 * 500, and the 400s are logged with the full error so a bug behind one is still seen.
 */
const clientDataExceptions: Record<string, string> = {
  '22001': 'a text value in the request is longer than can be stored',
  '22003': 'a number in the request is out of the range that can be stored',
  '22007': 'a date or time in the request is not in a valid format',
  '22008': 'a date or time in the request is out of range',
  '22021': 'a text value in the request contains bytes that are not valid text',
  '22P02': 'a value in the request does not have the expected format',
  '22P05': 'a text value in the request contains a character that cannot be stored',
}

/** True when err is a database data exception that a client's value can cause (see above). */
export function isClientDataException(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code
  return typeof code === 'string' && Object.hasOwn(clientDataExceptions, code)
}

interface FrameworkError {
  code?: string
  statusCode?: number
  message?: string
  validation?: ValidationIssue[]
  validationContext?: string
}

/** Maps any thrown value to the response we send. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err
  const e = (err ?? {}) as FrameworkError
  if (Array.isArray(e.validation)) return validationError(e.validation, e.validationContext ?? 'body')
  switch (e.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError(400, 'invalid_json', 'request body is not valid JSON')
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(400, 'invalid_json', 'request body is empty but Content-Type is application/json')
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, 'payload_too_large', 'request body is larger than this endpoint accepts')
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CHARSET':
      return new ApiError(415, 'unsupported_media_type', 'send the body as Content-Type: application/json')
    case 'FST_ERR_BAD_URL':
      return badRequest('the URL path is not valid percent-encoded UTF-8')
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return badRequest('a path segment of the URL is too long')
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError(400, 'invalid_request', 'Content-Length does not match the body')
  }
  // The database's own message names types and values of our schema: the client gets ours.
  if (isClientDataException(err)) return badRequest(clientDataExceptions[e.code!]!)
  const status = e.statusCode ?? 500
  if (status === 413) return new ApiError(413, 'payload_too_large', 'request body too large')
  if (status === 415) return new ApiError(415, 'unsupported_media_type', 'unsupported Content-Type')
  if (status >= 400 && status < 500) return badRequest(e.message || 'bad request')
  return new ApiError(500, 'internal_error', 'internal error; the request id in X-Request-Id helps the operator find it')
}
