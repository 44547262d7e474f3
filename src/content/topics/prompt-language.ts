// The language a buyer prompt is written in, so "Reisen und Urlaub" is read with the German lists
// (vocab/european.ts) rather than as English words the model does not know, or knows as something
// else ("die" is a German article and an English verb). English unless the evidence is clear: n-gram
// statistics (eld, offline) mistake short English prompts for other languages ("pasta recipes" reads
// as Portuguese, "Die Hard movies" as Dutch), so the prompt must also use that language's own words.
import { eld } from 'eld/small'
import { FUNCTION_WORD_SET, FUNCTION_WORDS_BY_LANGUAGE, GENERIC_WORD_SET } from '../classify/stopwords.ts'
import { words } from '../classify/text.ts'
import { COMPOUNDING, type Compound, compound } from './compounds.ts'
import { wordReader } from './word-reader.ts'

export type PromptLanguage = 'en' | keyof typeof FUNCTION_WORDS_BY_LANGUAGE

/** The words that shape a prompt's exclusions in each language (interpret-prompt.ts, readExclusions). */
export interface PromptWords {
  /** words that begin an exclusion: "not politics", "ohne Politik", "sans politique" */
  negations: readonly string[]
  /** words after a negation that make it add rather than exclude: "not just football" */
  notOnly: readonly string[]
  /** words that end an exclusion; what follows is asked for: "not luxury but family cars" */
  ends: readonly string[]
  /** words that join the items of a list: "not politics or religion" */
  joins: readonly string[]
  /** words of exclusion only where a clause begins: "kids shows, never violence", not "who never miss" */
  clauseOnly: readonly string[]
}

export const PROMPT_WORDS: Readonly<Record<PromptLanguage, PromptWords>> = {
  en: {
    negations: ['not', 'no', 'excluding', 'exclude', 'excludes', 'except', 'without', 'avoid', 'avoiding', 'minus', 'never'],
    notOnly: ['just', 'only', 'merely', 'simply'],
    ends: ['but', 'while', 'yet'],
    joins: ['and', 'or', 'nor'],
    clauseOnly: ['never'],
  },
  de: {
    negations: ['nicht', 'kein', 'keine', 'keinen', 'keiner', 'keinem', 'ohne', 'außer', 'ausser', 'ausgenommen'],
    notOnly: ['nur'],
    ends: ['aber', 'sondern'],
    joins: ['und', 'oder'],
    clauseOnly: [],
  },
  fr: {
    negations: ['pas', 'sans', 'sauf', 'hors', 'aucun', 'aucune', 'excepté', 'excepte'],
    notOnly: ['seulement', 'que'],
    ends: ['mais'],
    joins: ['et', 'ou', 'ni'],
    clauseOnly: [],
  },
  es: {
    negations: ['no', 'sin', 'excepto', 'salvo', 'ningún', 'ningun', 'ninguna', 'ninguno'],
    notOnly: ['solo', 'sólo'],
    ends: ['pero', 'sino'],
    joins: ['y', 'e', 'o', 'u', 'ni'],
    clauseOnly: [],
  },
  it: {
    negations: ['non', 'senza', 'tranne', 'eccetto', 'nessun', 'nessuna', 'nessuno'],
    notOnly: ['solo', 'soltanto'],
    ends: ['ma'],
    joins: ['e', 'ed', 'o', 'né'],
    clauseOnly: [],
  },
  pt: {
    negations: ['não', 'nao', 'sem', 'exceto', 'excepto', 'nenhum', 'nenhuma'],
    notOnly: ['só', 'apenas'],
    ends: ['mas'],
    joins: ['e', 'ou', 'nem'],
    clauseOnly: [],
  },
  nl: { negations: ['niet', 'geen', 'zonder', 'behalve'], notOnly: ['alleen'], ends: ['maar'], joins: ['en', 'of'], clauseOnly: [] },
}

// How much surer of the other language than of English eld must be ("Tour de France cycling": 0.01).
const MARGIN = 0.05

/**
 * Another language is taken when
 * eld names it reliably and clearly before English, the prompt has a word of its own in it (a
 * function word, or a word only its list knows), and English does not know all the prompt's words;
 * for a single word, when English does not know it and one other language's list does.
 */
export function promptLanguage(prompt: string): PromptLanguage {
  const knownInEnglish = wordReader('en').known
  const ws = words(prompt)
  if (ws.length < 2) return ws.length ? listLanguage(ws[0]!, knownInEnglish) : 'en'
  const guess = eld.detect(prompt)
  if (!guess.isReliable()) return 'en'
  const scores = guess.getScores()
  // The likeliest language the lists read: "reisverhalen en reistips" is Norwegian by a hair, then Dutch.
  const lang = Object.keys(scores)
    .filter((l) => Object.hasOwn(FUNCTION_WORDS_BY_LANGUAGE, l) || l === 'en')
    .reduce((a, b) => ((scores[b] ?? 0) > (scores[a] ?? 0) ? b : a), 'en')
  if (lang === 'en') return 'en'
  if ((scores[lang] ?? 0) - (scores.en ?? 0) < MARGIN) return 'en'
  const other = lang as Exclude<PromptLanguage, 'en'>
  const content = contentWords(ws)
  if (content.every(knownInEnglish)) return 'en'
  const own = FUNCTION_WORDS_BY_LANGUAGE[other]
  return ws.some((w) => own.has(w)) || content.some((w) => isOwnWord(other, w, knownInEnglish)) ? other : 'en'
}

/** A compound whose first part is the language's own word, not an English one ("Reise" of "Reiseziele"), or null. */
function ownCompound(language: Exclude<PromptLanguage, 'en'>, w: string, knownInEnglish: (word: string) => boolean): Compound | null {
  if (!COMPOUNDING.has(language)) return null
  const c = compound(
    w,
    (x) => knownIn(language, x),
    (x) => !knownInEnglish(x),
  )
  return c === null || knownInEnglish(c.parts[0]) ? null : c
}

const OTHER_LANGUAGES = Object.keys(FUNCTION_WORDS_BY_LANGUAGE) as Exclude<PromptLanguage, 'en'>[]

function knownIn(language: Exclude<PromptLanguage, 'en'>, w: string): boolean {
  return wordReader(language).known(w)
}

/**
 * One word, too short for n-grams: the language whose list alone knows it ("Fußball", "Gesundheit"),
 * or alone splits it as a compound whose first part is its own word ("voetbalnieuws", "Reisetipps"; not
 * "Sportnachrichten": English knows "sport").
 */
function listLanguage(w: string, knownInEnglish: (word: string) => boolean): PromptLanguage {
  if (knownInEnglish(w)) return 'en'
  const knowing = OTHER_LANGUAGES.filter((l) => knownIn(l, w))
  if (knowing.length) return knowing.length === 1 ? knowing[0]! : 'en'
  // Where two split it, the first part reaching further, written whole before a verb stem: "Reisetipps"
  // is German Reise, not Dutch reis; "reistips" Dutch reis, not German reis(en).
  let best: PromptLanguage = 'en'
  let furthest = 0
  for (const l of OTHER_LANGUAGES) {
    const reach = ownCompound(l, w, knownInEnglish)?.reach ?? 0
    if (reach === 0 || reach < furthest) continue
    best = reach === furthest ? 'en' : l
    furthest = reach
  }
  return best
}

/** Whether a content word of the prompt is the language's own (isOwnWord): "recettes", "voetbalnieuws". */
export function hasOwnWord(prompt: string, language: Exclude<PromptLanguage, 'en'>): boolean {
  const knownInEnglish = wordReader('en').known
  return contentWords(words(prompt)).some((w) => isOwnWord(language, w, knownInEnglish))
}

/** The words that may carry a topic: not English function words, not generic ones. */
function contentWords(ws: readonly string[]): string[] {
  return ws.filter((w) => !FUNCTION_WORD_SET.has(w) && !GENERIC_WORD_SET.has(w))
}

/** A word English does not know and the language's list does, whole or as a compound of its own. */
function isOwnWord(language: Exclude<PromptLanguage, 'en'>, w: string, knownInEnglish: (word: string) => boolean): boolean {
  return !knownInEnglish(w) && (knownIn(language, w) || ownCompound(language, w, knownInEnglish) !== null)
}

/**
 * How many of a language's own function words a prompt holds (not English ones): two or more say the
 * prompt is written in it ("Artikel über die Bundestagswahl und die Parteien"), where a name holds one
 * ("La Traviata opera", "Ruud van Nistelrooy").
 */
export function ownFunctionWords(prompt: string, language: Exclude<PromptLanguage, 'en'>): number {
  const own = FUNCTION_WORDS_BY_LANGUAGE[language]
  return words(prompt).filter((w) => own.has(w) && !FUNCTION_WORD_SET.has(w)).length
}
