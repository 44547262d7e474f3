// The language a buyer prompt is written in, so "Reisen und Urlaub" is read with the German lists
// (vocab/european.ts) rather than as English words the model does not know, or knows as something
// else ("die" is a German article and an English verb). English unless the evidence is clear: n-gram
// statistics (eld, offline) mistake short English prompts for other languages ("pasta recipes" reads
// as Portuguese, "Die Hard movies" as Dutch), so the prompt must also use that language's own words.
import { eld } from 'eld/small'
import { analyze } from '../classify/analyze.ts'
import { FUNCTION_WORD_SET, FUNCTION_WORDS_BY_LANGUAGE, GENERIC_WORD_SET } from '../classify/stopwords.ts'
import { words } from '../classify/text.ts'

export type PromptLanguage = 'en' | keyof typeof FUNCTION_WORDS_BY_LANGUAGE

// How much surer of the other language than of English eld must be ("Tour de France cycling": 0.01).
const MARGIN = 0.05

/**
 * `knownInEnglish`: whether the English model or lists know a word. Another language is taken when
 * eld names it reliably and clearly before English, the prompt has a word of its own in it (a
 * function word, or a word only its list knows), and English does not know all the prompt's words.
 */
export function promptLanguage(prompt: string, knownInEnglish: (word: string) => boolean): PromptLanguage {
  const ws = words(prompt)
  if (ws.length < 2) return 'en'
  const guess = eld.detect(prompt)
  const lang = guess.language
  if (!guess.isReliable() || !Object.hasOwn(FUNCTION_WORDS_BY_LANGUAGE, lang)) return 'en'
  const scores = guess.getScores()
  if ((scores[lang] ?? 0) - (scores.en ?? 0) < MARGIN) return 'en'
  const other = lang as Exclude<PromptLanguage, 'en'>
  const content = ws.filter((w) => !FUNCTION_WORD_SET.has(w) && !GENERIC_WORD_SET.has(w))
  if (content.every(knownInEnglish)) return 'en'
  const own = FUNCTION_WORDS_BY_LANGUAGE[other]
  const onlyTheirs = (w: string): boolean => !knownInEnglish(w) && analyze({ body: w, language: other }, false).matchedTerms > 0
  return ws.some((w) => own.has(w)) || content.some(onlyTheirs) ? other : 'en'
}
