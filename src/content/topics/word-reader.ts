// Each word of a prompt read alone, once: whether the topic model or a language's lists know it as
// evidence of a topic, and how surely it names a tier-1 topic (word-forms.ts; a common word names
// none). One reader a language, shared by every prompt: reading a word is pure, and each cache is
// bounded. Used to read prompts (interpret-prompt.ts) and to tell their language (prompt-language.ts).
import { analyze } from '../classify/analyze.ts'
import { tier1Probabilities } from '../classify/classify-page.ts'
import { FUNCTION_WORD_SET, GENERIC_WORD_SET } from '../classify/stopwords.ts'
import type { PromptLanguage } from './prompt-language.ts'
import type { TopicStrength } from './word-forms.ts'

// Words kept per language, across prompts; past it the oldest goes, so a long-running service keeps
// caching new prompts' words (a prompt reads a compound's cuts many times over).
const MAX_READ_WORDS = 1000

export interface WordReader {
  /** whether the model (English) or the language's list knows the word as evidence of a topic */
  known: (w: string) => boolean
  strength: TopicStrength
}

const readers = new Map<PromptLanguage, WordReader>()

export function wordReader(language: PromptLanguage): WordReader {
  let reader = readers.get(language)
  if (!reader) {
    reader = newWordReader(language)
    readers.set(language, reader)
  }
  return reader
}

function newWordReader(language: PromptLanguage): WordReader {
  const cache = new Map<string, { known: boolean; strength: number }>()
  const read = (w: string): { known: boolean; strength: number } => {
    let r = cache.get(w)
    if (r === undefined) {
      const a = analyze({ body: w, language }, false)
      // The learned model is English: in another language only its list's words count.
      const known = (a.english && a.topicFeatures > 0) || a.matchedTerms > 0
      r = { known, strength: known ? (tier1Probabilities(a)[0]?.score ?? 0) : 0 }
      if (cache.size >= MAX_READ_WORDS) cache.delete(cache.keys().next().value!)
      cache.set(w, r)
    }
    return r
  }
  return {
    known: (w) => read(w).known,
    strength: (w) => (FUNCTION_WORD_SET.has(w) || GENERIC_WORD_SET.has(w) ? 0 : read(w).strength),
  }
}
