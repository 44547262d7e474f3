/** The text as a regular expression that matches it literally (in `u` mode too). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}
