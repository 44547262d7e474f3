/**
 * Text the database cannot store: PostgreSQL rejects U+0000 in text and jsonb, and a lone UTF-16
 * surrogate is not Unicode at all (drivers silently turn it into U+FFFD, jsonb refuses its escape).
 * Any request string carrying either is a client error, found here once for every route instead of
 * surfacing as a database failure deep inside a feature.
 */
export interface BadText {
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

/**
 * The first string (value or object key, at any depth) that cannot be stored, or null; the value at
 * the path `skip` is not looked into. Iterative, so a body nested 100 000 levels deep costs no stack.
 */
export function findBadText(value: unknown, root: string, skip?: string): BadText | null {
  const stack: [unknown, string][] = [[value, root]]
  while (stack.length) {
    const [v, path] = stack.pop()!
    if (path === skip) continue
    if (typeof v === 'string') {
      const problem = problemOf(v)
      if (problem) return { path, problem }
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${path}.${i}`])
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v)
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i]!
        const problem = problemOf(k)
        // Show the key as JSON so the client can see where the character is.
        if (problem) return { path: `${path}.${JSON.stringify(k)}`, problem: `key ${problem}` }
        stack.push([(v as Record<string, unknown>)[k], `${path}.${k}`])
      }
    }
  }
  return null
}
