import type { TSchema } from '@sinclair/typebox'
import { Type } from '@sinclair/typebox'

/** Shared schema primitives; each feature composes its request/response schemas from these. */
export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'machine-readable code, see docs/errors.md' }),
    message: Type.String(),
    details: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
  },
  { $id: 'ErrorBody', title: 'Error' },
)

/** An ISO 8601 instant in a response. Handlers may return the row's Date: the serializer writes it as ISO text. */
export const Timestamp = Type.Unsafe<Date | string>({ type: 'string', format: 'date-time' })
export const NullableTimestamp = Type.Union([Timestamp, Type.Null()])
export const DateOnly = Type.String({ format: 'date', description: 'YYYY-MM-DD' })

// Ids are bigserial; 2^53 keeps them exact in JSON and rejects absurd values before any SQL runs.
export const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })
export const IdParams = Type.Object({ id: Id })

export const Paging = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, default: 1000 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0 })),
})

/** Where a streamed export starts: a broken download resumes at the number of records it received. */
export const ExportQuery = Type.Object({
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0, description: 'records to skip (resume point)' })),
})

/** Paging for lists of large records (reports carry their whole result): 20 by default, 100 at most. */
export const SmallPaging = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0 })),
})

const errorRef = Type.Ref('ErrorBody')

/** The error responses a route documents besides its success response. */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {}
  for (const s of [401, 429, ...statuses]) out[s] = errorRef
  return out
}

export function nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()])
}

/** Documents the Idempotency-Key header on creating POSTs (checked by the idempotency hook). */
export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ description: 'retrying with the same key and body returns the original response instead of creating again' })),
})

/**
 * A string enum as JSON Schema `enum` (not a union of literals), so a wrong value is reported as
 * "must be one of …" (422) rather than as a shape mismatch.
 */
export function StringEnum<T extends string>(values: readonly T[], options: { description?: string } = {}) {
  return Type.Unsafe<T>({ type: 'string', enum: [...values], ...options })
}
