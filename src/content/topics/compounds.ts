// German and Dutch write a topic and what is said of it as one word ("Sportnachrichten", "Fußballfans",
// "voetbalnieuws"), which no list holds whole. A prompt word its language's list does not know is
// read through its parts when the first is a word the list knows: the topic usually sits there.
import type { PromptLanguage } from './prompt-language.ts'

/** Languages that write compounds as one word. */
export const COMPOUNDING: ReadonlySet<PromptLanguage> = new Set(['de', 'nl'])

// The first part is a word of its own (4 letters or more), the second at least 3.
const MIN_FIRST = 4
const MIN_SECOND = 3
/**
 * A first part this long may stand before a second the list does not know ("Fußball|fans"); a shorter
 * one only when it is the language's own word ("reis|bestemmingen"): "Auto|käufer" and "Film|kritiken"
 * are lost so that "Auto|immunerkrankungen", "Auto|kratien", "Golf|staaten", "Mars|eille" and
 * "Mall|orca" are not read as cars, golf, space or shopping.
 */
const MIN_FIRST_ALONE = 5
/** Longer words are not split: a name or junk, and each cut costs a look-up. */
const MAX_COMPOUND = 32
/** Linking letters between the parts (Fugenelemente): "Gesundheit-s-tipps", "Sonne-n-brille". */
const LINKS = ['s', 'es', 'n', 'en', 'e'] as const
/** German suffixes after which a compound takes a linking -s-: "Gesundheitstipps", "Versicherungsvergleich". */
const TAKES_S = /(?:heit|keit|ung|ion|tät|schaft|ling|tum)$/u
/** Verb stems stand first without their ending: "Kochrezepte" is kochen + Rezepte, "Wanderschuhe" wandern. */
const STEM_ENDINGS = ['', 'en', 'n'] as const
/** Letters no German or Dutch word begins with: the first is a linking letter ("Urlaub-s-ziele", "Börse-n-nachrichten"). */
const NO_WORD_START = /^(?:s[bdfgnrz]|([a-z])\1)/u

/**
 * The two parts of a compound `known` does not know whole, the first as the list knows it, or null:
 * the longest first part the list knows (not one holding the second's linking -s-: "Fußballs|chuhe"),
 * then the linking letters that make the second part known, or that its suffix or the second's
 * first letters call for. Without a known second part, the split must look likely
 * (plausibleUnknownSecond; `own`: whether a word is the language's only, not English).
 */
export function compoundParts(word: string, known: (w: string) => boolean, own: (w: string) => boolean = () => false): [string, string] | null {
  return compound(word, known, own)?.parts ?? null
}

export interface Compound {
  parts: [string, string]
  /** how many letters of the word the first part covers, and how surely: written whole counts more than a verb stem */
  reach: number
}

/** compoundParts, with how much of the word its first part reaches (to choose between languages). */
export function compound(word: string, known: (w: string) => boolean, own: (w: string) => boolean = () => false): Compound | null {
  if (word.length < MIN_FIRST + MIN_SECOND || word.length > MAX_COMPOUND || !/^\p{L}+$/u.test(word) || known(word)) return null
  for (let end = word.length - MIN_SECOND; end >= MIN_FIRST; end--) {
    const stem = word.slice(0, end)
    const ending = STEM_ENDINGS.find((e) => known(stem + e))
    if (ending === undefined) continue
    // The lists know inflected forms: "fußballs" is known, but its -s- links to "schuhe".
    if (ending === '' && stem.endsWith('s') && known(stem.slice(0, -1))) continue
    const rest = word.slice(end)
    const linked = LINKS.filter((l) => rest.startsWith(l) && rest.length - l.length >= MIN_SECOND).map((l) => rest.slice(l.length))
    const knownSecond = [rest, ...linked].find(known)
    if (knownSecond === undefined && !plausibleUnknownSecond(stem + ending, rest, known, own)) continue
    const second = knownSecond ?? ((TAKES_S.test(stem) && rest.startsWith('s')) || NO_WORD_START.test(rest) ? rest.slice(1) : rest)
    if (second.length < MIN_SECOND) continue
    return { parts: [stem + ending, second], reach: 2 * end + (ending === '' ? 1 : 0) }
  }
  return null
}

/**
 * Whether a split is likely where the second part is unknown: not when a known word starts a letter
 * or three further on (the cut is misplaced: "Euro|pameisterschaft" hides "meisterschaft"), and
 * after a short first part only as compoundParts says.
 */
function plausibleUnknownSecond(first: string, rest: string, known: (w: string) => boolean, own: (w: string) => boolean): boolean {
  for (let k = 1; k <= 3 && rest.length - k >= MIN_SECOND + 1; k++) if (known(rest.slice(k))) return false
  return first.length >= MIN_FIRST_ALONE || own(first)
}
