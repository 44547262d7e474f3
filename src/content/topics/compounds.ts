// German and Dutch write a topic and what is said of it as one word ("Sportnachrichten", "Fußballfans",
// "voetbalnieuws"), which no list holds whole. A prompt word its language's list does not know is
// read through its parts when the first is a word the list knows: the topic usually sits there.
import type { PromptLanguage } from './prompt-language.ts'

/** Languages that write compounds as one word. */
export const COMPOUNDING: ReadonlySet<PromptLanguage> = new Set(['de', 'nl'])

// The first part is a word of its own (4 letters or more: "Fuß" would cut "Fußballfans" wrongly only
// if "ballfans" were taken), the second at least 3.
const MIN_FIRST = 4
const MIN_SECOND = 3
/** Linking letters between the parts (Fugenelemente): "Gesundheit-s-tipps", "Sonne-n-brille". */
const LINKS = ['s', 'es', 'n', 'en', 'e'] as const
/** German suffixes after which a compound takes a linking -s-: "Gesundheitstipps", "Versicherungsvergleich". */
const TAKES_S = /(?:heit|keit|ung|ion|tät|schaft|ling|tum)$/u
/** Verb stems stand first without their ending: "Kochrezepte" is kochen + Rezepte, "Wanderschuhe" wandern. */
const STEM_ENDINGS = ['', 'en', 'n'] as const

/**
 * The two parts of a compound `known` does not know whole, the first as the list knows it, or null:
 * the longest first part the list knows, then the linking letters that make the second part known
 * (or the -s- its suffix calls for; none otherwise).
 */
export function compoundParts(word: string, known: (w: string) => boolean): [string, string] | null {
  return compound(word, known)?.parts ?? null
}

export interface Compound {
  parts: [string, string]
  /** how many letters of the word the first part covers, and how surely: written whole counts more than a verb stem */
  reach: number
}

/** compoundParts, with how much of the word its first part reaches (to choose between languages). */
export function compound(word: string, known: (w: string) => boolean): Compound | null {
  if (word.length < MIN_FIRST + MIN_SECOND || !/^\p{L}+$/u.test(word) || known(word)) return null
  for (let end = word.length - MIN_SECOND; end >= MIN_FIRST; end--) {
    const stem = word.slice(0, end)
    const ending = STEM_ENDINGS.find((e) => known(stem + e))
    if (ending === undefined) continue
    const rest = word.slice(end)
    const linked = LINKS.filter((l) => rest.startsWith(l) && rest.length - l.length >= MIN_SECOND).map((l) => rest.slice(l.length))
    const second = linked.find(known) ?? (TAKES_S.test(stem) && rest.startsWith('s') && linked.length ? rest.slice(1) : rest)
    return { parts: [stem + ending, second], reach: 2 * end + (ending === '' ? 1 : 0) }
  }
  return null
}
