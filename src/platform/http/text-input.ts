/**
 * Text the database cannot store: PostgreSQL rejects U+0000 in text and jsonb, and a lone UTF-16
 * surrogate is not Unicode at all (drivers silently turn it into U+FFFD, jsonb refuses its escape).
 * Any request string carrying either is a client error, found here once for every route instead of
 * surfacing as a database failure deep inside a feature. So is a value nested deeper than MAX_DEPTH:
 * JSON.parse takes any depth, but the code after it recurses (JSON.stringify of the body for the
 * Idempotency-Key's hash overflowed the stack on a body 5,000 objects deep: a 500).
 */
export interface RefusedInput {
  /** Dotted path of the offending value or key, e.g. `body.items.2.name`. */
  path: string
  problem: string
}

// With the u flag a valid surrogate pair is one code point, so only a lone surrogate matches Cs.
const loneSurrogate = /\p{Cs}/u

function problemOf(s: string): string | null {
  if (s.includes('\u0000')) return 'contains the NUL character (\\u0000), which cannot be stored'
  if (loneSurrogate.test(s)) return 'contains a lone UTF-16 surrogate, which is not valid Unicode text'
  return null
}

/** Nesting no request of the API needs (its deepest bodies, AdCP's, nest under ten levels). */
export const MAX_DEPTH = 32

/**
 * The first string (value or object key, at any depth) that cannot be stored, or the first value
 * nested deeper than MAX_DEPTH, or null; the value at the path `skip` is not looked into. Iterative,
 * so a body nested 100 000 levels deep costs no stack.
 */
export function findRefusedInput(value: unknown, root: string, skip?: string): RefusedInput | null {
  const stack: [unknown, string, number][] = [[value, root, 0]]
  while (stack.length) {
    const [v, path, depth] = stack.pop()!
    if (path === skip) continue
    if (depth >= MAX_DEPTH && v !== null && typeof v === 'object') return { path, problem: `is nested deeper than ${MAX_DEPTH} levels` }
    if (typeof v === 'string') {
      const problem = problemOf(v)
      if (problem) return { path, problem }
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${path}.${i}`, depth + 1])
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v)
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i]!
        const problem = problemOf(k)
        // Show the key as JSON so the client can see where the character is.
        if (problem) return { path: `${path}.${JSON.stringify(k)}`, problem: `key ${problem}` }
        stack.push([(v as Record<string, unknown>)[k], `${path}.${k}`, depth + 1])
      }
    }
  }
  return null
}
