import type { Options } from 'ajv'
import { Ajv } from 'ajv'
import addFormatsModule from 'ajv-formats'
import type { FastifySchema, FastifySchemaCompiler } from 'fastify'

// ajv-formats ships CommonJS; its default export arrives wrapped under ESM interop.
type AddFormats = (ajv: Ajv) => Ajv
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as unknown as AddFormats

function makeAjv(coerceTypes: Options['coerceTypes']): Ajv {
  const ajv = new Ajv({ allErrors: false, coerceTypes, useDefaults: true, removeAdditional: false, strict: false })
  addFormats(ajv)
  return ajv
}

/**
 * Bodies are validated strictly (a number sent as a string is a client error, not something to
 * guess about); query strings and path params arrive as text, so they are coerced.
 */
export function validatorCompiler(shared: unknown[]): FastifySchemaCompiler<FastifySchema> {
  const strict = makeAjv(false)
  const coercing = makeAjv('array')
  for (const s of shared) {
    strict.addSchema(s as object)
    coercing.addSchema(s as object)
  }
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? strict : coercing
    return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<FastifySchema>>
  }
}
