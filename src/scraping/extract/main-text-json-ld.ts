// The article body a page carries in its JSON-LD (schema.org `articleBody`), used when the visible page
// holds almost no text. Pages rendered in the browser (Vue, React, Next.js) often ship a shell whose only
// complete copy of the article is that field; what the shell shows is an author box or a teaser.
import { parseHtml } from './parse-html.ts'
import { renderText } from './text-render.ts'
import { countWords } from './word-count.ts'

/** Main text this short may be a shell: a page with a real article in view is never replaced. */
const SHELL_MAX_WORDS = 100
/** The JSON-LD body must be this many times longer than what the page shows, and a real article. */
const MIN_RATIO = 3
const MIN_BODY_WORDS = 150
/** Beyond this, the field is not an article body a person wrote (and parsing it would cost). */
const MAX_BODY_CHARS = 500_000
const BLOCK_MARKUP = /<(?:p|div|br|h[1-6]|ul|ol|li|blockquote|table)\b/i

/** The longest `articleBody` among the page's JSON-LD objects, as readable text (markup and entities resolved). */
export function jsonLdArticleBody(objects: ReadonlyArray<Record<string, unknown>>): string | null {
  let longest = ''
  for (const o of objects) {
    const body = o.articleBody
    if (typeof body === 'string' && body.length > longest.length && body.length <= MAX_BODY_CHARS) longest = body
  }
  if (longest.trim() === '') return null
  // Plain text keeps its line breaks as paragraphs; markup keeps its own blocks. Either way the parser
  // resolves entities (`&amp;`, `&#8217;`) as it does for the page.
  const html = BLOCK_MARKUP.test(longest)
    ? longest
    : longest
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter((line) => line !== '')
        .map((line) => `<p>${line}</p>`)
        .join('')
  // Attempt -1: no element of this fresh tree was removed by any main-text attempt.
  const text = renderText([parseHtml(`<html><body>${html}</body></html>`).body], -1)
  return text === '' ? null : text
}

/**
 * The page's main text, or its JSON-LD article body when the page shows only a shell of it, with the
 * text's word count (counted here once: the caller needs it too).
 */
export function withJsonLdBody(mainText: string, objects: ReadonlyArray<Record<string, unknown>>): { text: string; wordCount: number } {
  const shown = { text: mainText, wordCount: countWords(mainText) }
  if (shown.wordCount >= SHELL_MAX_WORDS) return shown
  const body = jsonLdArticleBody(objects)
  if (body === null) return shown
  const words = countWords(body)
  return words >= MIN_BODY_WORDS && words >= MIN_RATIO * shown.wordCount ? { text: body, wordCount: words } : shown
}
