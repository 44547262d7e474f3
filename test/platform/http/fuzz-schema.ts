/**
 * Schema-directed fuzzing: a valid request body built from a route's OpenAPI request schema, and
 * the paths of its fields, so a hostile value can be put into one field of an otherwise valid
 * request — which gets it past validation's first rejection and deep into the feature.
 */
export type JsonSchema = {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  items?: JsonSchema
  minItems?: number
  enum?: unknown[]
  const?: unknown
  format?: string
  minLength?: number
  minimum?: number
  maximum?: number
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  allOf?: JsonSchema[]
  default?: unknown
  $ref?: string
}

const formats: Record<string, string> = {
  uri: 'https://example.com/a',
  url: 'https://example.com/a',
  'date-time': '2026-11-22T10:00:00.000Z',
  date: '2026-11-22',
  email: 'a@example.com',
  hostname: 'example.com',
  uuid: '00000000-0000-4000-8000-000000000000',
}

/** A value valid against `schema` as far as a plain reading goes (every property, not only required). */
export function sample(schema: JsonSchema, depth = 0): unknown {
  if (depth > 8) return null
  if (schema.const !== undefined) return schema.const
  if (schema.enum?.length) return schema.enum[0]
  if (schema.default !== undefined) return schema.default
  const alternatives = schema.anyOf ?? schema.oneOf
  if (alternatives?.length) {
    const pick = alternatives.find((a) => a.type !== 'null') ?? alternatives[0]!
    return sample(pick, depth + 1)
  }
  if (schema.allOf?.length) return Object.assign({}, ...schema.allOf.map((s) => sample(s, depth + 1)))
  const types = [schema.type ?? (schema.properties ? 'object' : 'string')].flat()
  const type = types.find((t) => t !== 'null') ?? 'null'
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, sample(s, depth + 1)]))
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => sample(schema.items ?? {}, depth + 1))
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, Math.min(schema.maximum ?? 1, 1))
    case 'boolean':
      return true
    case 'null':
      return null
    default:
      return (schema.format && formats[schema.format]) || 'x'.repeat(Math.max(1, schema.minLength ?? 1))
  }
}

export type Path = (string | number)[]

/** Every field path of a value, containers included (the body itself is []). */
export function paths(value: unknown, at: Path = []): Path[] {
  const out: Path[] = [at]
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...at, i])))
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...at, k]))
  }
  return out
}

/** A copy of `value` with the field at `path` replaced. */
export function replaceAt(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement
  const [head, ...rest] = path
  if (Array.isArray(value)) return value.map((v, i) => (i === head ? replaceAt(v, rest, replacement) : v))
  const obj = (value ?? {}) as Record<string, unknown>
  return { ...obj, [head!]: replaceAt(obj[head!], rest, replacement) }
}

/** Nested arrays as JSON text (JSON.stringify would overflow the stack at such depths). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** Values that have broken services: each is put into one field of a valid body. */
export const hostileValues: unknown[] = [
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDFFFy',
  '\u202e',
  '',
  ' ',
  '%00',
  "'; DROP TABLE jobs; --",
  'x'.repeat(300_000),
  '😀'.repeat(50_000),
  1e308,
  -1e308,
  2 ** 63,
  -(2 ** 63),
  2 ** 64,
  Number.MAX_SAFE_INTEGER + 2,
  -1,
  0,
  0.5,
  -0,
  true,
  null,
  [],
  {},
  { '\u0000': 1 },
  ['\u0000'],
  new RawJson('['.repeat(5000) + ']'.repeat(5000)),
  new RawJson('{"a":'.repeat(5000) + '1' + '}'.repeat(5000)),
]

/** JSON text of a body that may hold RawJson pieces. */
export function toJson(value: unknown): string {
  const raws: string[] = []
  const text = JSON.stringify(value, (_k, v: unknown) => {
    if (v instanceof RawJson) {
      raws.push(v.text)
      return `\u0001raw${raws.length - 1}\u0001`
    }
    return v
  })
  return text.replace(/"\\u0001raw(\d+)\\u0001"/g, (_m, i: string) => raws[Number(i)]!)
}

/** Hostile query-string and path values, already percent-encoded. */
export const hostileParams = [
  '%00',
  'a%00b',
  '%ED%A0%80', // a surrogate encoded as UTF-8: not valid UTF-8
  '%C0%AE', // overlong '.'
  '%FF',
  '%',
  '%ZZ',
  '1e308',
  '9223372036854775808',
  '-9223372036854775809',
  '99999999999999999999999',
  '-1',
  '0',
  '1.5',
  'NaN',
  'Infinity',
  'null',
  '[]',
  encodeURIComponent('x'.repeat(5000)),
  encodeURIComponent("'; DROP TABLE jobs; --"),
]
