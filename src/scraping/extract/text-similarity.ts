// Word-overlap similarity of two short strings (titles vs headings): 1 means B adds no words to A.

const TOKEN_SPLIT = /\W+/

function tokens(text: string): string[] {
  return text.toLowerCase().split(TOKEN_SPLIT).filter(Boolean)
}

export function textSimilarity(a: string, b: string): number {
  const ta = tokens(a)
  const tb = tokens(b)
  if (ta.length === 0 || tb.length === 0) return 0
  const known = new Set(ta)
  const unique = tb.filter((t) => !known.has(t))
  return 1 - unique.join(' ').length / tb.join(' ').length
}
