/** The text as a regular expression that matches it literally (in `u` mode too). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}

/** A pattern for any of the words, standing alone: not inside a longer word, accented letters included. */
export function anyWordPattern(words: readonly string[]): string {
  return `(?<![\\p{L}\\p{N}])(?:${words.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])`
}
