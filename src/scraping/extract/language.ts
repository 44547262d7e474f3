// Language of the extracted text (ISO 639-1) with eld's n-gram model, which ships with the package and
// runs offline. Declared languages (<html lang>, og:locale, content-language) are only a fallback: CMS
// templates often declare "en" whatever the article is written in.
import { eld } from 'eld/small'

export interface LanguageGuess {
  language: string | null
  reliable: boolean
}

/** eld is linear in its input; a few thousand characters decide the language as well as the full text. */
const SAMPLE_CHARS = 3000
const MIN_TEXT_CHARS = 40

export function declaredLanguage(values: Array<string | null | undefined>): string | null {
  for (const value of values) {
    if (!value) continue
    const primary = value.trim().toLowerCase().split(/[-_]/)[0] ?? ''
    if (/^[a-z]{2}$/.test(primary)) return primary
  }
  return null
}

function sample(text: string): string {
  if (text.length <= SAMPLE_CHARS) return text
  // Skip the first part a little: leads often carry datelines and bylines in another script.
  const start = text.length > SAMPLE_CHARS * 2 ? Math.floor(SAMPLE_CHARS / 4) : 0
  return text.slice(start, start + SAMPLE_CHARS)
}

/**
 * Languages close enough that n-gram statistics confuse them (Malay/Indonesian, the Scandinavian and
 * Serbo-Croatian families, Czech/Slovak); within a group the page's declaration decides.
 */
const CLOSE_GROUPS = [
  ['ms', 'id'],
  ['no', 'nb', 'nn', 'da'],
  ['hr', 'sr', 'bs'],
  ['cs', 'sk'],
]

function sameGroup(a: string, b: string): boolean {
  return CLOSE_GROUPS.some((g) => g.includes(a) && g.includes(b))
}

export function detectLanguage(text: string, declared: string | null): LanguageGuess {
  const trimmed = text.trim()
  if (trimmed.length >= MIN_TEXT_CHARS) {
    const result = eld.detect(sample(trimmed))
    if (result.language !== '' && result.isReliable()) {
      if (declared !== null && declared !== result.language && sameGroup(declared, result.language)) {
        return { language: declared, reliable: true }
      }
      return { language: result.language, reliable: true }
    }
    if (declared === null && result.language !== '') return { language: result.language, reliable: false }
  }
  return { language: declared, reliable: false }
}
