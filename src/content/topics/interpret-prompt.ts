// Reads a buyer prompt the way a contextual vendor's relevance engine does: what content it asks for
// (topics with weights, terms), and what content cannot express — the audience ("moms", "age 25-54"),
// the geography ("in Germany", "US": offered as geo, and searched too where the content is about the
// place) — and what it excludes ("not politics"). The result is returned
// to the buyer as the segment's `interpretation` (docs/curation.md).

import { anyWordPattern } from '../../platform/regexp.ts'
import { type Analysis, analyze } from '../classify/analyze.ts'
import { classifyAnalysis, type ScoredCategory, tier1Probabilities, vocabularyTier1 } from '../classify/classify-page.ts'
import { type Embedding, embedAnalysis } from '../classify/embed.ts'
import { FUNCTION_WORD_SET, FUNCTION_WORDS_BY_LANGUAGE, GENERIC_WORD_SET } from '../classify/stopwords.ts'
import { stem, type WordGap, words, writtenWords } from '../classify/text.ts'
import { ancestry, getNode, tier1Of } from '../taxonomy/taxonomy.ts'
import { COMPOUNDING, compoundParts } from './compounds.ts'
import { hasOwnWord, ownFunctionWords, PROMPT_WORDS, type PromptLanguage, type PromptWords, promptLanguage } from './prompt-language.ts'
import { joinedForm, knownForm, type TopicStrength } from './word-forms.ts'
import { wordReader } from './word-reader.ts'
import { nearestWords, wordCosine } from './word-vectors.ts'

export interface InterpretedCategory {
  taxonomy_id: number
  name: string
  /** share of the prompt's topical intent, 0..1 */
  weight: number
}

export interface IgnoredWord {
  word: string
  why: 'common word' | 'audience' | 'geography' | 'not a word'
}

export interface Interpretation {
  /** the language the prompt was read in (prompt-language.ts): en, or one of the other languages the lists know */
  language: PromptLanguage
  /** topics the prompt asks for, best first */
  categories: InterpretedCategory[]
  /** content words searched in pages (as written, lower-cased) */
  terms: string[]
  /** related terms for the prompt's unknown words, searched with less weight: learned from the index (stemmed), or nearest in the word vectors */
  expansions: string[]
  /** audience and demographic words: content cannot target them (activation can) */
  audience: string[]
  /** ISO 3166 codes of the countries named (offered to activation as geo); one the content is about is also among `terms` */
  geo: string[]
  /** what the prompt excludes: pages of these categories or with these words are left out */
  blocks: { categories: InterpretedCategory[]; terms: string[] }
  ignored: IgnoredWord[]
}

/** The interpretation plus what ranking needs. */
export interface PromptIntent {
  interpretation: Interpretation
  /** tier-1 distribution of the topical words (model order irrelevant), and deeper nodes */
  categories: ScoredCategory[]
  /** stem → weight (names and words the model does not know weigh more: they are specific) */
  termWeights: Map<string, number>
  /** stem → the word as written, for reasons */
  surface: Map<string, string>
  /** true when the prompt holds at least one content word */
  topical: boolean
  /** the content words as a page embedding (embed.ts), for the similarity measurement of promptFit */
  embedding: Embedding
}

// Words that describe who the buyer wants, not what they read.
const AUDIENCE = new Set(
  `reader readers fan fans people person persons user users audience audiences viewer viewers buyer buyers shopper shoppers consumer consumers
   customer customers enthusiast enthusiasts lover lovers follower followers visitor visitors adult adults men women man woman male males
   female females mom moms mum mums mother mothers dad dads father fathers teen teens teenager teenagers millennial millennials boomer boomers
   genz gen senior seniors retiree retirees professionals decision makers maker executive executives affluent wealthy
   earner earners household households demographic demographics aged age ages year years interested interests
   following follow follows looking researching engaged savvy avid keen passionate curious reading read watching watch
   target targeting targeted segment segments prospect prospects intender intenders likes loves want wants planning
   parents-to-be singles hobbyists amateurs beginners novices experts`.split(/\s+/),
)
// Words that say what kind of content is wanted more than what it is about: "the gun control debate" is
// about guns, and a page need not say "debate" to be about them. They are read and searched, with a
// small weight, since alone or before a noun they may be the subject ("stories", "debate club").
const CONTENT_KIND = new Set(
  'debate debates discussion discussions controversy controversies coverage update updates development developments story stories article articles topic topics commentary'.split(
    ' ',
  ),
)
const KIND_WORD_WEIGHT = 0.25
// Common words that also say what kind of content is meant, when an exclusion begins with them ("no news about war").
const CONTENT_KIND_GENERIC = new Set(['news', 'report', 'reports'])
// Words that are audience only beside an audience word ("young moms", "people who love cooking"), and
// content elsewhere: "Middle East", "interest rates", "income tax", "lower back pain", "cancer research".
const AUDIENCE_BESIDE = new Set(
  'high higher low lower upper middle working class young younger old older income interest rich single married professional research love plan'.split(' '),
)
// Demographic pairs made of such words: "high income", "middle class", "upper-income earners".
const DEMOGRAPHIC_PAIR = /\b(?:high|higher|low|lower|upper|middle|mid|working)[\s-]+(?:income|class|earning|earners?)\b/giu

// Countries buyers name most, by name and common code (lower-cased surface forms).
const COUNTRIES: Record<string, string> = {
  us: 'US',
  usa: 'US',
  america: 'US',
  'united states': 'US',
  uk: 'GB',
  britain: 'GB',
  'great britain': 'GB',
  'united kingdom': 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  ireland: 'IE',
  germany: 'DE',
  deutschland: 'DE',
  france: 'FR',
  spain: 'ES',
  italy: 'IT',
  portugal: 'PT',
  netherlands: 'NL',
  belgium: 'BE',
  austria: 'AT',
  switzerland: 'CH',
  sweden: 'SE',
  norway: 'NO',
  denmark: 'DK',
  finland: 'FI',
  poland: 'PL',
  greece: 'GR',
  turkey: 'TR',
  russia: 'RU',
  ukraine: 'UA',
  canada: 'CA',
  mexico: 'MX',
  brazil: 'BR',
  argentina: 'AR',
  chile: 'CL',
  colombia: 'CO',
  australia: 'AU',
  'new zealand': 'NZ',
  japan: 'JP',
  china: 'CN',
  india: 'IN',
  korea: 'KR',
  'south korea': 'KR',
  singapore: 'SG',
  indonesia: 'ID',
  philippines: 'PH',
  vietnam: 'VN',
  thailand: 'TH',
  malaysia: 'MY',
  'south africa': 'ZA',
  nigeria: 'NG',
  kenya: 'KE',
  egypt: 'EG',
  israel: 'IL',
  'saudi arabia': 'SA',
  uae: 'AE',
  'united arab emirates': 'AE',
}
const GEO_PREPOSITION = /^(?:in|from|across|throughout|within|based)$/
// "U.S.", "U.S.A.", "U.K.", "u.s." as buyers write them: read as the codes, not as single letters (nor
// "U.S. A.I." as one word, nor the start of "U.S.S.R.").
const DOTTED_CODE = /(?<![\p{L}.])U\.\s?(S(?:\.\s?A)?|K)\.?(?![\p{L}.])/giu
/**
 * A place that qualifies the content ("travel in Japan", "UK politics") is also searched, at this share
 * of a prompt word's weight: its pages rank first, others on the topic still qualify.
 */
const PLACE_WEIGHT = 0.5
/** A code that is also a common word ("us"): offered as geo, never searched. */
const PLACES_NOT_SEARCHED = new Set(['us'])
/** Words that put the audience in the place that follows them: "moms living in Germany". */
const LOCATED = new Set(['living', 'live', 'lives', 'located', 'residing', 'resident', 'residents', 'based'])
/** Audience words that point at content: "people interested in Japan". */
const INTEREST = new Set(['interested', 'interest', 'interests'])

/** The ISO code of a country name or code (an own key only: "constructor" is no country). */
function countryOf(name: string): string | undefined {
  return Object.hasOwn(COUNTRIES, name) ? COUNTRIES[name] : undefined
}
const AGE_RANGE = /\b(?:ages?d?\s*)?(\d{2})\s*(?:-|–|to)\s*(\d{2})\b|\b(\d{2})\s*\+|\b(?:over|under)\s+(\d{2})\b/giu

const MAX_TERMS = 16
// A negated phrase blocks a category only when it clearly names one ("not politics"), not any word.
const BLOCK_MIN_PROBABILITY = 0.3
// A topic at least this share of the prompt's first (tier-1, or deeper under one topic) is one of its main ones.
const MAIN_TOPIC_SHARE = 0.5
// Own function words that show a prompt is written in another language (prompt-language.ts).
const WRITTEN_IN = 2
// With one own function word and a word only its list knows, the other language's reading is kept at
// this share of the English one's sureness: a list reads a prompt less surely than the model its loan words.
const OWN_WORD_TOLERANCE = 0.8
// An exclusion names the deepest category it names at least this share as surely as its tier-1 topic.
const SPECIFIC_SHARE = 0.5
// A word shared by many sibling names ("sports" in Extreme Sports, Olympic Sports…) names none of them.
const MAX_TIED_SIBLINGS = 2
const CATEGORY_FLOOR = 0.1
// How a prompt's deeper categories are read: any evidence counts, from a score of 0.08.
const DEEPER_OPTIONS = { minEvidence: 0, minFeatures: 0, threshold: 0.08 } as const

/** Words the index associates with a prompt word count for less than the prompt's own words. */
const EXPANSION_WEIGHT = 0.5
/** Neighbours a prompt word takes from the word vectors, and how close they must be (cosine). */
const NEIGHBOURS = 4
const NEIGHBOUR_COSINE = 0.6
/** Unknown words looked up (each lookup scans all the vectors: 10–30 ms). */
const NEIGHBOUR_WORDS = 4
/** A neighbour's term weight, times its cosine: less than the prompt's own words. */
const NEIGHBOUR_WEIGHT = 0.5
/** Share of the prompt's topics read from its neighbours when its own words give the model evidence. */
const NEIGHBOUR_TOPIC_SHARE = 0.3
/** Term weight of a word neither the model nor the vocabulary knows: likely a name, so specific. */
export const UNKNOWN_WORD_WEIGHT = 1.5

/**
 * What the prompt asks for; pure, so the same prompt always reads the same way. `expansions`:
 * stemmed terms the index associates with the prompt's unknown words (curation/builder/associations.ts).
 */
export function interpretPrompt(prompt: string, expansions: readonly string[] = []): PromptIntent {
  const language = promptLanguage(prompt)
  if (language === 'en') return readPrompt(prompt, expansions, 'en', ['en'])
  // Names and loan words make n-gram statistics guess wrong ("La Traviata opera", "Copa America"):
  // the prompt is read both ways, and the other language kept when it names a topic at least as surely
  // (ties included: neither may name one), or whenever two of its own function words show the prompt is
  // written in it. One of them and a word of its own ("recettes de cuisine") ask less: nearly as surely,
  // since the English model reads a loan word ("cuisine") more surely than a list reads the prompt.
  // Both readings take the exclusions of both languages out, so that they compare the same words
  // ("Sport ohne Fußball", "pasta recipes, not politics").
  const negations: PromptLanguage[] = ['en', language]
  const inEnglish = readPrompt(prompt, expansions, 'en', negations)
  const inOther = readPrompt(prompt, expansions, language, negations)
  if (!inOther.topical) return inEnglish
  const functionWords = ownFunctionWords(prompt, language)
  if (functionWords >= WRITTEN_IN) return inOther
  const tolerance = functionWords > 0 && hasOwnWord(prompt, language) ? OWN_WORD_TOLERANCE : 1
  return tier1Sureness(inOther) >= tolerance * tier1Sureness(inEnglish) ? inOther : inEnglish
}

/** The best tier-1 probability of a reading (0 with none). */
function tier1Sureness(intent: PromptIntent): number {
  return Math.max(0, ...intent.categories.filter((c) => (getNode(c.id)?.tier ?? 1) === 1).map((c) => c.score))
}

/**
 * interpretPrompt in one language; `negations`: the languages whose words of exclusion are read.
 */
function readPrompt(prompt: string, expansions: readonly string[], language: PromptLanguage, negations: readonly PromptLanguage[]): PromptIntent {
  const ignored: IgnoredWord[] = []
  const audience: string[] = []
  // Dotted codes first: an exclusion ends at a full stop ("travel, not U.S. politics").
  let text = prompt.normalize('NFKC').replace(DOTTED_CODE, (_, code: string) => `U${code.replace(/[.\s]/g, '')}`.toUpperCase())

  // Age ranges first: their digits would otherwise be dropped silently.
  text = text.replace(AGE_RANGE, (m) => {
    audience.push(m.trim().toLowerCase())
    return ' '
  })

  const excluded = readExclusions(text, language, negations)
  text = excluded.rest

  // After the negations: "excluding low income households" is a block, not the audience.
  text = text.replace(DEMOGRAPHIC_PAIR, (m) => {
    audience.push(words(m).join(' '))
    return ' '
  })

  // Geography: country names and codes, offered as geo; a place the content is about (placeOfContent)
  // is also searched, in an English prompt.
  const geo = new Set<string>()
  const places: string[] = []
  const read = writtenWords(text)
  const tokens = read.map((w) => w.word)
  const original = read.map((w) => w.written)
  const keep: string[] = []
  // What separates each kept word from the one before: a place read out of the prompt joins like "and".
  const keepGap: WordGap[] = []
  let carry: WordGap = 'none'
  for (let i = 0; i < tokens.length; i++) {
    carry = wider(carry, read[i]?.gap ?? 'none')
    const w = tokens[i] as string
    // Where the audience lives is no content: "living" in "moms living in Germany", not in "healthy
    // living in Japan".
    if (livesIn(tokens, i)) {
      if (!audience.includes(w)) audience.push(w)
      continue
    }
    const two = i + 1 < tokens.length ? `${w} ${tokens[i + 1] as string}` : ''
    const prev = tokens[i - 1] ?? ''
    const isCode = w.length <= 3 && original[i] === original[i]?.toUpperCase() && /\p{L}/u.test(original[i] ?? '')
    const twoCode = two ? countryOf(two) : undefined
    if (twoCode) {
      geo.add(twoCode)
      // Two-word names are not searched: their words alone name other things ("united", "new").
      ignored.push({ word: two, why: 'geography' })
      carry = wider(carry, read[i + 1]?.gap ?? 'none')
      carry = wider(carry, 'join')
      i++
      continue
    }
    const code = countryOf(w)
    // A country named alone between commas after the prompt's start: "wine lovers, no beer, France, Italy"
    // (not "Israel, the Palestinians and …": a first segment is what the prompt is about).
    const alone = i > 0 && read[i]?.gap === 'break' && (i + 1 >= tokens.length || read[i + 1]?.gap === 'break') && /^\p{Lu}/u.test(original[i] ?? '')
    // In a two-word prompt a name is a place when written as one: "Turkey travel", not "turkey recipes".
    const named = tokens.length <= 2 && /^\p{Lu}/u.test(original[i] ?? '')
    if (code && (w.length > 3 ? GEO_PREPOSITION.test(prev) || named || alone : isCode)) {
      geo.add(code)
      if (language === 'en' && !PLACES_NOT_SEARCHED.has(w) && placeOfContent(tokens, i)) places.push(w)
      else ignored.push({ word: w, why: 'geography' })
      carry = wider(carry, 'join')
      continue
    }
    keep.push(w)
    keepGap.push(carry)
    carry = 'none'
  }

  // A prompt in another language the lists know is read with them, without English word forms.
  const inEnglish = language === 'en'
  const english = wordReader('en')
  const reader = wordReader(language)
  const joins = new Set([...PROMPT_WORDS.en.joins, ...PROMPT_WORDS[language].joins])
  // "cyber security": two words the model knows only as one. The words are searched as written too.
  const joinedParts = new Map<string, string[]>()
  for (let i = 0; inEnglish && i + 1 < keep.length; i++) {
    const [a, b] = [keep[i] as string, keep[i + 1] as string]
    if (keepGap[i + 1] !== 'none' || !LETTERS.test(a) || !LETTERS.test(b) || [a, b].some((w) => FUNCTION_WORD_SET.has(w) || GENERIC_WORD_SET.has(w))) continue
    const joined = joinedForm(a, b, reader.strength)
    if (joined === null) continue
    keep.splice(i, 2, joined)
    keepGap.splice(i + 1, 1)
    // "e-commerce": a part too short to be a word of its own is not searched.
    joinedParts.set(
      joined,
      [a, b].filter((w) => w.length >= MIN_PART),
    )
  }

  const termWeights = new Map<string, number>()
  const surface = new Map<string, string>()
  const content: string[] = []
  // The content words in order, with the common words that make a phrase with the one next to them: a
  // common word is no evidence alone, but "real estate" and "world cup" name their topic better than
  // "estate" and "cup" (where "new job" names it less surely than "job").
  const sequence: PhraseWord[] = []
  // Stems of words read through a known form of theirs: not names, so not weighed or expanded as such.
  const formed = new Set<string>()
  const isAudience = audienceWords(keep)
  // What separates the content words: punctuation, or a conjunction ("dogs and cats", "arts & crafts").
  let before: WordGap = 'none'
  for (const [i, w] of keep.entries()) {
    before = wider(before, joins.has(w) ? 'join' : (keepGap[i] ?? 'none'))
    if (!/\p{L}/u.test(w)) {
      ignored.push({ word: w, why: 'not a word' })
      continue
    }
    if (isAudience[i]) {
      if (!audience.includes(w)) audience.push(w)
      continue
    }
    if (w.length < 2 || isFunctionWord(w, language) || GENERIC_WORD_SET.has(w)) {
      if (!ignored.some((x) => x.word === w)) ignored.push({ word: w, why: 'common word' })
      if (GENERIC_WORD_SET.has(w)) {
        sequence.push({ word: w, common: true, before })
        before = 'none'
      }
      continue
    }
    // "gardeners" is read as "gardening", and searched as both.
    const form = inEnglish ? knownForm(w, reader.strength, wordCosine) : null
    // "Fußballfans", "voetbalnieuws": a compound no list holds is read through its parts (an audience
    // or common part aside), and searched whole and by the parts read.
    const compound = COMPOUNDING.has(language) ? compoundParts(w, reader.known, (x) => !english.known(x)) : null
    // The second part only when the list knows it: where a linking -s- ends is a guess (urlaub|s|tipps, fußball|stadion).
    const readAs = compound
      ? compound.filter((x, k) => (k === 0 || reader.known(x)) && !AUDIENCE.has(x) && !isFunctionWord(x, language) && !GENERIC_WORD_SET.has(x))
      : [form ?? w]
    for (const [k, x] of readAs.entries()) {
      content.push(x)
      sequence.push({ word: x, common: false, before: k === 0 ? before : 'none' })
    }
    before = 'none'
    const parts = joinedParts.get(w) ?? (compound ? readAs : undefined)
    for (const x of [w, ...(form === null ? [] : [form]), ...(parts ?? [])]) {
      const s = stem(x)
      if (form !== null || parts !== undefined) formed.add(s)
      if (!termWeights.has(s) && termWeights.size < MAX_TERMS) {
        termWeights.set(s, CONTENT_KIND.has(x) ? KIND_WORD_WEIGHT : 1)
        surface.set(s, x)
      }
    }
  }
  // Symbols and emoji are not words at all: name them so the buyer sees they were read.
  for (const sym of prompt.match(/\p{Extended_Pictographic}/gu) ?? []) ignored.push({ word: sym, why: 'not a word' })

  const a = readContent(content.length ? sequence : [], reader.strength, language)
  // A word neither the model nor the vocabulary knows is likely a name (a team, a product): specific.
  const unknown: string[] = []
  for (const s of termWeights.keys()) {
    if (!formed.has(s) && !reader.known(surface.get(s) ?? s)) {
      termWeights.set(s, UNKNOWN_WORD_WEIGHT)
      unknown.push(surface.get(s) ?? s)
    }
  }
  // A place the content is about is content itself: "news from Turkey" asks for pages about Turkey
  // (placeOfContent leaves out the audience's place: "moms in the UK" still names no content).
  const placeStems = new Set<string>()
  for (const w of places) {
    const s = stem(w)
    if (!termWeights.has(s) && termWeights.size < MAX_TERMS) {
      termWeights.set(s, PLACE_WEIGHT)
      surface.set(s, w)
      placeStems.add(s)
    } else ignored.push({ word: w, why: 'geography' })
  }
  for (const e of expansions) {
    if (!termWeights.has(e)) {
      termWeights.set(e, EXPANSION_WEIGHT)
      surface.set(e, e)
    }
  }

  // Word-vector neighbours of the words the model does not know: a word no corpus labelled reaches
  // words that were. They add to the prompt's topics, and are searched with less weight. (Neighbours
  // of known words add more noise than topic: measured in the relevance benchmark, docs/curation.md.)
  // (The word vectors are English.)
  const near = inEnglish ? neighbours(unknown, content) : new Map<string, number>()
  for (const [w, cosine] of near) {
    const s = stem(w)
    if (!termWeights.has(s)) {
      termWeights.set(s, NEIGHBOUR_WEIGHT * cosine)
      surface.set(s, w)
    }
  }
  const roots = promptRoots(a)
  const tier1 = content.length ? withNeighbours(roots, a, near) : []
  const deeper = content.length ? specific(classifyAnalysis(a, DEEPER_OPTIONS, roots).categories) : []
  const { categories, blocked } = narrowedBy(excluded.named, [...tier1.filter((c) => c.score >= CATEGORY_FLOOR), ...deeper])
  const named = (c: ScoredCategory): InterpretedCategory => ({ taxonomy_id: c.id, name: getNode(c.id)?.name ?? String(c.id), weight: round(c.score) })
  // The prompt's own words, kind-of-content words at their small weight among them; the rest were added.
  const written = [...termWeights].map(([s, w]) => ({ word: surface.get(s) ?? s, own: w >= 1 || placeStems.has(s) || CONTENT_KIND.has(surface.get(s) ?? s) }))
  // Each word once, and a place searched is not ignored ("moms in Japan and travel in Japan").
  const ignoredOnce = ignored.filter(
    (x, k) => !(x.why === 'geography' && termWeights.has(stem(x.word))) && ignored.findIndex((y) => y.word === x.word && y.why === x.why) === k,
  )
  const interpretation: Interpretation = {
    language,
    categories: categories.map(named),
    terms: written.filter((t) => t.own).map((t) => t.word),
    expansions: written.filter((t) => !t.own).map((t) => t.word),
    audience,
    geo: [...geo],
    blocks: { categories: blocked.map(named), terms: excluded.terms },
    ignored: ignoredOnce,
  }
  return { interpretation, categories, termWeights, surface, topical: content.length > 0 || placeStems.size > 0, embedding: embedAnalysis(a) }
}

/** Whether the word at `i` says where an audience lives: "living" in "moms living in Germany". */
function livesIn(tokens: readonly string[], i: number): boolean {
  return LOCATED.has(tokens[i] as string) && AUDIENCE.has(tokens[i - 1] ?? '') && placeAfter(tokens, i + 1)
}

/** Whether a preposition at `i` ("in", "from"…) leads to a country: "in Germany", "in the UK". */
function placeAfter(tokens: readonly string[], i: number): boolean {
  if (!GEO_PREPOSITION.test(tokens[i] ?? '')) return false
  let k = i + 1
  while (k < tokens.length && FUNCTION_WORD_SET.has(tokens[k] as string) && countryOf(tokens[k] as string) === undefined) k++
  return countryOf(tokens[k] ?? '') !== undefined || countryOf(`${tokens[k] ?? ''} ${tokens[k + 1] ?? ''}`) !== undefined
}

/**
 * Whether the place at `i` qualifies the content rather than the audience. After a preposition ("in",
 * "from"…) it belongs to the word before that: content in "travel in Japan", "refugees in Germany",
 * "people interested in Japan"; the audience in "moms in the UK", "readers living in Germany". Before a
 * noun it belongs to the noun: "UK politics", "readers following UK politics", but "UK moms". Function
 * words and other places are passed over.
 */
function placeOfContent(tokens: readonly string[], i: number): boolean {
  const passed = (w: string): boolean => FUNCTION_WORD_SET.has(w) || countryOf(w) !== undefined
  let j = i - 1
  while (j >= 0 && passed(tokens[j] as string) && !GEO_PREPOSITION.test(tokens[j] as string)) j--
  if (j >= 0 && GEO_PREPOSITION.test(tokens[j] as string)) {
    let k = j - 1
    while (k >= 0 && (passed(tokens[k] as string) || GEO_PREPOSITION.test(tokens[k] as string))) k--
    const owner = tokens[k]
    if (owner === undefined || livesIn(tokens, k)) return false
    return INTEREST.has(owner) || !AUDIENCE.has(owner)
  }
  const noun = tokens.slice(i + 1).find((w) => !passed(w) && !GEO_PREPOSITION.test(w))
  return noun !== undefined && !AUDIENCE.has(noun)
}

/**
 * Which words describe the audience: those of AUDIENCE, and those of AUDIENCE_BESIDE next to an
 * audience word: one of AUDIENCE even across function words ("people who love cooking"), or right
 * beside one found so in turn ("young single moms", but not "research for older women").
 */
function audienceWords(ws: readonly string[]): boolean[] {
  const marked = ws.map((w) => AUDIENCE.has(w))
  const beside = (i: number, step: number): boolean => {
    for (let j = i + step; j >= 0 && j < ws.length; j += step) {
      if (FUNCTION_WORD_SET.has(ws[j]!) && !marked[j]) continue
      return AUDIENCE.has(ws[j]!) || (marked[j]! && j === i + step)
    }
    return false
  }
  for (let changed = true; changed; ) {
    changed = false
    for (const [i, w] of ws.entries()) {
      if (marked[i] || !AUDIENCE_BESIDE.has(w) || !(beside(i, -1) || beside(i, 1))) continue
      marked[i] = true
      changed = true
    }
  }
  return marked
}

/** What a prompt or brief excludes, and the text left to read once its negated phrases are taken out. */
export interface Exclusions {
  rest: string
  /** each negated phrase, to match as a phrase */
  terms: string[]
  /** the categories the negated phrases clearly name (narrowedBy decides which of them block) */
  named: ScoredCategory[]
}

interface ExclusionPatterns {
  /** a word of exclusion and the phrase after it, up to the sentence's end (commas included) */
  negation: RegExp
  end: RegExp
  split: RegExp
  /** words of exclusion that exclude only at the start of a clause (words or list words before them) */
  clauseOnly: ReadonlySet<string>
  /** the words a clause may begin with: "… but never violence", "… and never gore" */
  clauseStarts: ReadonlySet<string>
  /** a text beginning with a word of exclusion: "no religion" ends a list before it and begins its own */
  startsNegation: RegExp
}

/** The exclusion patterns of some languages' words (prompt-language.ts, PROMPT_WORDS), built once. */
const exclusionPatterns = new Map<string, ExclusionPatterns>()
function exclusionPatternsOf(languages: readonly PromptLanguage[]): ExclusionPatterns {
  const key = languages.join(',')
  let p = exclusionPatterns.get(key)
  if (!p) {
    const all = (k: keyof PromptWords): string[] => [...new Set(languages.flatMap((l) => PROMPT_WORDS[l][k]))]
    const any = anyWordPattern
    p = {
      // "not just football" and "not only" add rather than exclude.
      negation: new RegExp(`(${any(all('negations'))})\\s+(?!${any(all('notOnly'))})([^.;:!?()]+)`, 'iu'),
      end: new RegExp(any(all('ends')), 'iu'),
      split: new RegExp(`\\s*${any(all('joins'))}\\s*|\\s*[/&]\\s*`, 'iu'),
      clauseOnly: new Set(all('clauseOnly')),
      clauseStarts: new Set([...all('ends'), ...all('joins')]),
      startsNegation: new RegExp(`^\\s*${any(all('negations'))}`, 'iu'),
    }
    exclusionPatterns.set(key, p)
  }
  return p
}

/**
 * A segment that is where the audience is: a place after in/from/across… ("in the UK", "across
 * Europe", "in California"), or a country alone, by name or code ("Germany", "US").
 */
const PLACE_SEGMENT =
  /^\s*(?:(?:[Ii]n|[Ff]rom|[Aa]cross|[Tt]hroughout|[Ww]ithin)\s+(?:[Tt]he\s+)?\p{Lu}\p{L}*(?:\s+\p{Lu}\p{L}*){0,2}|(?:[Tt]he\s+)?(\p{Lu}[\p{L}.]*(?:\s+\p{Lu}\p{L}*){0,2}))\s*$/u

/** Words an item of a list of exclusions may have past its first ("gambling, online sports betting and alcohol"). */
const LIST_ITEM_WORDS = 3

/**
 * What a segment after a comma is to a list of exclusions: an item, nothing (a trailing comma, or an
 * age range read out before), another exclusion ("no politics, religion, no gambling"), or the end
 * of the list: who or where ("…, moms", "…, in the UK", "…, Germany"), or more than a short item.
 */
function listSegment(segment: string, p: ExclusionPatterns): 'item' | 'empty' | 'negation' | 'end' {
  const ws = words(segment)
  if (!ws.length) return 'empty'
  if (p.startsNegation.test(segment)) return 'negation'
  const content = ws.filter((w) => !FUNCTION_WORD_SET.has(w))
  if (content.length && audienceWords(content).every(Boolean)) return 'end'
  const place = PLACE_SEGMENT.exec(segment)
  if (place && (place[1] === undefined || countryOf(words(place[1]).join(' ')))) return 'end'
  return segment.split(p.split).some((item) => words(item).length > LIST_ITEM_WORDS) ? 'end' : 'item'
}

/**
 * The list a negated phrase excludes, and the text after it. The list ends at but/while/yet, and at
 * the first comma unless what follows is the rest of a list of short items: closed by and/or/&//
 * ("excluding gambling, betting and alcohol"; "not politics, crime or war"), followed by another
 * exclusion ("no politics, religion, no gambling"), or of three or more ("excluding politics,
 * religion, crime"). Two items before who or where, or another exclusion, are a list unless the
 * second is on the prompt's own topic and the first clearly off it (`wish`): "cars, no politics,
 * electric vehicles, US" asks for electric vehicles; "car reviews, no politics, religion, the UK"
 * and "food, no alcohol, wine, moms" exclude both. Two items to the end are an exclusion and a wish:
 * "travel, not politics, food"; "no politics, sports news for fans" excludes politics only. A list
 * read so may hold what was wanted: "sports news, no gambling, football and tennis" blocks the three
 * (docs/curation.md).
 */
function exclusionList(phrase: string, p: ExclusionPatterns, wish: (first: string, second: string) => boolean): { list: string; after: string } {
  const end = p.end.exec(phrase)
  const head = end ? phrase.slice(0, end.index) : phrase
  const tail = end ? ` ${phrase.slice(end.index + end[0].length)}` : ''
  const segments = head.split(',')
  let take = 1
  let items = 1
  let j = 1
  let stop: ReturnType<typeof listSegment> | null = null
  for (; j < segments.length; j++) {
    const kind = listSegment(segments[j]!, p)
    if (kind === 'empty') continue
    if (kind !== 'item') {
      stop = kind
      break
    }
    items++
    if (segments[j]!.split(p.split).length > 1) {
      take = j + 1
      break
    }
  }
  // Not closed by and/or: three or more items run up to where the list stops; two, when something
  // stops them, unless they are an exclusion and a wish (with one, `j` only passes trailing commas).
  const listed = items >= 3 || (stop !== null && (items === 1 || !wish(segments[0]!, segments[j - 1]!)))
  if (take === 1 && listed) take = j
  const left = segments.slice(take)
  return { list: segments.slice(0, take).join(','), after: (left.length ? `,${left.join(',')}` : '') + tail }
}

/**
 * Whether an item names `topic`, the tier-1 topic of the text before the exclusion ("sports news":
 * "football highlights" is on it), another one ("politics" is off it), or none it is sure of ("alcohol").
 */
function topicRelation(topic: ScoredCategory | undefined, item: string, language: PromptLanguage): 'on' | 'off' | 'unsure' {
  const named = namedCategory(words(item).join(' '), language)
  if (topic === undefined || named === null) return 'unsure'
  return tier1Of(named.id)?.id === topic.id ? 'on' : 'off'
}

/** How much of the text before a "never" is read to tell whether a clause begins there. */
const MAX_CLAUSE_WORD = 40

/** Whether text ending here ends a clause: nothing, punctuation, a dash, a line break, or a word a clause begins with. */
function atClauseStart(before: string, p: ExclusionPatterns): boolean {
  // Only the end is read: a long run of letters must not make every test scan it again.
  let stop = before.length
  while (stop > 0 && /[ \t]/.test(before[stop - 1]!)) stop--
  if (stop === 0) return true
  const end = before.slice(Math.max(0, stop - MAX_CLAUSE_WORD), stop)
  if (/[,;:.!?()\n\u2013\u2014/]$/u.test(end)) return true
  // A hyphen as a dash: spaced on either side ("travel - never", "travel -- never", "travel- never"),
  // not joining a word ("now-or-never deals").
  return /-$/u.test(end) ? stop < before.length || /(?:^|\s)-+$/u.test(end) : lastWordStartsClause(end, p)
}

function lastWordStartsClause(end: string, p: ExclusionPatterns): boolean {
  const last = /(?<!\p{L})(\p{L}+)$/u.exec(end)?.[1]
  return last !== undefined && p.clauseStarts.has(last.toLowerCase())
}

/**
 * The negated phrases of a text ("not politics", "excluding gambling, betting and alcohol"; "ohne
 * Politik" with German's words), each a list (exclusionList) split at and/or/nor/&//: "not politics or
 * religion" excludes both. What follows but/while/yet is asked for. "never" excludes only where a
 * clause begins ("kids shows, never violence"; not "parents who never miss a game"). `language`: the
 * one the phrases are read in (its function words and list); `negations`: the languages whose words
 * of exclusion are read.
 */
export function readExclusions(text: string, language: PromptLanguage = 'en', negations: readonly PromptLanguage[] = [language]): Exclusions {
  const terms: string[] = []
  const named: ScoredCategory[] = []
  const p = exclusionPatternsOf(negations)
  let rest = ''
  let left = text
  for (let m = p.negation.exec(left); m; m = p.negation.exec(left)) {
    const before = left.slice(0, m.index)
    const word = m[1]!
    if (p.clauseOnly.has(word.toLowerCase()) && !atClauseStart(rest + before, p)) {
      rest += before + word
      left = left.slice(m.index + word.length)
      continue
    }
    const head = rest + before
    const wish = (first: string, second: string): boolean => {
      const topic = promptRoots(analyze({ body: head, language }, false))[0]
      return topicRelation(topic, second, language) === 'on' && topicRelation(topic, first, language) === 'off'
    }
    const { list, after } = exclusionList(m[2]!, p, wish)
    // "e-sports" names eSports, not Sports; joined first, so that a list word "e" (es, it, pt) cannot cut it.
    const written = new Map<string, string>()
    // A whole the model does not know ("e-bikes", "x-men") is blocked both ways but names no category:
    // its second part alone would name the wrong one (Automotive, Men's Jewelry and Watches).
    const unknownWhole = new Set<string>()
    const joinedList = list.replace(LETTER_PREFIX, (_whole, a: string, b: string) => {
      const [x, y] = [a.toLowerCase(), b.toLowerCase()]
      if (joinedForm(x, y, wordReader('en').strength) === null) unknownWhole.add(`${x}${y}`)
      written.set(`${x}${y}`, `${x} ${y}`)
      return `${x}${y}`
    })
    for (const part of joinedList.split(',').flatMap((segment) => segment.split(p.split))) {
      const ws = blockPhrase(words(part), language)
      if (!ws.length) continue
      terms.push(ws.join(' '))
      // Pages write "e-sports" as well as "esports": both are blocked.
      if (ws.some((w) => written.has(w))) terms.push(ws.map((w) => written.get(w) ?? w).join(' '))
      const content = ws.filter((w) => !isFunctionWord(w, language))
      // An audience names no content: "sports fans, not teens" had blocked Crime, where "teens" leads.
      if (audienceWords(content).every(Boolean) || content.some((w) => unknownWhole.has(w))) continue
      const category = namedCategory(content.join(' '), language)
      if (category) named.push(category)
    }
    rest += `${before} `
    left = after + left.slice(m.index + m[0].length)
  }
  return { rest: rest + left, terms, named }
}

/** A one-letter prefix and its word, written with a hyphen: "e-sports", "e‐books". */
const LETTER_PREFIX = /(?<![\p{L}\p{N}])(\p{L})[-\u2010\u2011](\p{L}{2,})/gu

/** A function word of English, or of the prompt's language. */
function isFunctionWord(w: string, language: PromptLanguage): boolean {
  return FUNCTION_WORD_SET.has(w) || (language !== 'en' && FUNCTION_WORDS_BY_LANGUAGE[language].has(w))
}

/**
 * The words a negated phrase blocks, matched as a phrase (block_keywords): as written, without the
 * function words at its ends, and without a leading kind of content ("news about war" blocks "war";
 * "stories on the war in Ukraine" blocks "war in ukraine", which pages write, where the content words
 * alone, "war ukraine", are a phrase no page holds).
 */
function blockPhrase(ws: readonly string[], language: PromptLanguage): string[] {
  const isFunction = (w: string): boolean => isFunctionWord(w, language)
  let start = 0
  let end = ws.length
  while (start < end && isFunction(ws[start]!)) start++
  while (end > start && isFunction(ws[end - 1]!)) end--
  const phrase = ws.slice(start, end)
  const gap = phrase.findIndex(isFunction)
  if (gap <= 0 || !phrase.slice(0, gap).every((w) => CONTENT_KIND.has(w) || CONTENT_KIND_GENERIC.has(w))) return phrase
  let rest = gap
  while (rest < phrase.length && isFunction(phrase[rest]!)) rest++
  return phrase.slice(rest)
}

/**
 * The category a negated phrase clearly names, as specific as it names one: "luxury cars" is Luxury
 * Cars, not Automotive, so that "car buyers but no luxury cars" can still find cars. Null when the
 * phrase names none surely enough ("gambling", "violence": its words still block as terms).
 */
function namedCategory(phrase: string, language: PromptLanguage): ScoredCategory | null {
  const a = analyze({ body: phrase, language }, false)
  if (a.topicFeatures + a.matchedTerms === 0) return null
  const roots = promptRoots(a)
  // A category tied with any sibling is a shared word, not a choice ("football": American Football and Soccer).
  const sure = [...roots.slice(0, 1), ...specific(classifyAnalysis(a, DEEPER_OPTIONS, roots).categories, 1)].filter((c) => c.score >= BLOCK_MIN_PROBABILITY)
  // The deepest category named at least half as surely as the best: "luxury cars" is Luxury Cars (0.96
  // against Automotive's 0.97), "cats" Cats (0.42 against Pets' 0.70); "football" is Sports, not College
  // Football (0.36 against 0.90).
  const best = Math.max(0, ...sure.map((c) => c.score))
  const tier = (c: ScoredCategory): number => getNode(c.id)?.tier ?? 1
  return sure.filter((c) => c.score >= SPECIFIC_SHARE * best).sort((x, y) => tier(y) - tier(x) || y.score - x.score)[0] ?? null
}

/**
 * What the prompt asks for once its exclusions are read, and the categories they block. An exclusion
 * narrows a prompt and never blocks all of it: not its main topic (a tier-1 topic at least half as
 * likely as its first), nor a deeper category holding all of its main deeper categories under that
 * topic ("cooking without meat", "films but no horror movies", "basketball fans but not NBA": their
 * words still block as terms). Otherwise what the blocked category holds is no longer asked for:
 * "football but not American football" blocks American Football and keeps Soccer, as likely a reading.
 */
export function narrowedBy(readings: readonly ScoredCategory[], wanted: ScoredCategory[]): { categories: ScoredCategory[]; blocked: ScoredCategory[] } {
  const isTier1 = (c: ScoredCategory): boolean => (getNode(c.id)?.tier ?? 1) === 1
  const mains = (cs: readonly ScoredCategory[]): ScoredCategory[] => {
    const best = Math.max(0, ...cs.map((c) => c.score))
    return cs.filter((c) => c.score >= MAIN_TOPIC_SHARE * best)
  }
  const blocked = new Map<number, number>()
  let categories = wanted
  for (const b of readings) {
    const under = (c: ScoredCategory): boolean => ancestry(c.id).some((n) => n.id === b.id)
    if (mains(categories.filter(isTier1)).some(under)) continue
    // The prompt's main deeper categories under the same topic, but for those holding the blocked one
    // ("smartphones not iPhone": Consumer Electronics holds Smartphones, the prompt's own).
    const path = new Set(ancestry(b.id).map((n) => n.id))
    const topic = tier1Of(b.id)?.id
    const deeper = mains(categories.filter((c) => !isTier1(c) && tier1Of(c.id)?.id === topic)).filter((c) => c.id === b.id || !path.has(c.id))
    if (!isTier1(b) && deeper.length && deeper.every(under)) continue
    categories = categories.filter((c) => !under(c))
    blocked.set(b.id, Math.max(blocked.get(b.id) ?? 0, b.score))
  }
  return { categories, blocked: [...blocked].map(([id, score]) => ({ id, score })) }
}

/**
 * Deeper categories, without groups of more than `maxTied` siblings tied at the same score (a shared name
 * word, not a choice).
 */
function specific(categories: readonly ScoredCategory[], maxTied = MAX_TIED_SIBLINGS): ScoredCategory[] {
  const deeper = categories.filter((c) => (getNode(c.id)?.tier ?? 1) > 1)
  const ties = new Map<string, number>()
  const key = (c: ScoredCategory): string => `${getNode(c.id)?.parent_id ?? ''}:${c.score}`
  for (const c of deeper) ties.set(key(c), (ties.get(key(c)) ?? 0) + 1)
  return deeper.filter((c) => (ties.get(key(c)) ?? 0) <= maxTied)
}

const round = (x: number): number => Math.round(x * 1000) / 1000

const LETTERS = /^\p{L}+$/u
// The shortest part of a joined word that is searched as a word of its own.
const MIN_PART = 3
// How much more surely a phrase with a common word must name its topic than its content word alone.
const PHRASE_GAIN = 0.05

/** The wider of two gaps: a break outweighs a join, a join nothing. */
function wider(a: WordGap, b: WordGap): WordGap {
  return a === 'break' || b === 'break' ? 'break' : a === 'join' || b === 'join' ? 'join' : 'none'
}

/** A word of the prompt's content sequence, with what separates it from the content word before. */
interface PhraseWord {
  word: string
  common: boolean
  before: WordGap
}

/**
 * The tier-1 reading a prompt's analysis descends from: the model's with the vocabulary's evidence, or
 * the vocabulary's alone when the model knows none of its words ("beekeeping", "Sikhism": taxonomy names
 * no corpus holds), since added to the model's even scores for every topic one term's evidence stays
 * under every floor.
 */
function promptRoots(a: Analysis): ScoredCategory[] {
  return a.topicFeatures === 0 && a.matchedTerms > 0 ? vocabularyTier1(a) : tier1Probabilities(a)
}

/** How surely a reading names a topic: its best tier-1 probability plus its best deeper category's score. */
function sureness(a: Analysis): number {
  const categories = classifyAnalysis(a, DEEPER_OPTIONS, promptRoots(a)).categories
  const isDeeper = (c: ScoredCategory): boolean => (getNode(c.id)?.tier ?? 1) > 1
  const best = (deeper: boolean): number => Math.max(0, ...categories.filter((c) => isDeeper(c) === deeper).map((c) => c.score))
  return best(false) + best(true)
}

/**
 * The content words as the model reads them. A list's items are read apart, so no word pair is read
 * across a comma, and "dogs and cats" is two words of Pets rather than the pair "dog cat" (which the
 * corpora taught as evidence against Pets). A conjunction can also be part of a name ("arts and crafts",
 * "mergers & acquisitions"): each clause (what commas separate) holding one is read both ways, and the
 * surer reading of it is kept, so "arts and crafts, dogs and cats" keeps the one and parts the other.
 */
function readContent(sequence: readonly PhraseWord[], strength: TopicStrength, language: PromptLanguage): Analysis {
  const items: string[] = []
  let clause: PhraseWord[] = []
  const flush = (): void => {
    const apart = withPhrases(clause, strength, true)
    if (clause.some((_, i) => joinAt(clause, i))) {
      const joined = withPhrases(clause, strength, false)
      items.push(...(sureness(analyze({ body: joined, language })) > sureness(analyze({ body: apart, language })) ? joined : apart))
    } else items.push(...apart)
    clause = []
  }
  for (const x of sequence) {
    if (x.before === 'break' && clause.length) flush()
    clause.push(x)
  }
  flush()
  return analyze({ body: items, language })
}

/** Whether a conjunction stands before the clause's i-th word (not its first: nothing to join it to). */
function joinAt(clause: readonly PhraseWord[], i: number): boolean {
  return i > 0 && clause[i]?.before === 'join'
}

/**
 * The content words of one clause as items read apart (at each conjunction when `apartAtJoins`), with
 * each common word kept where it and the content word next to it (function words aside) name a topic
 * more surely than that word alone.
 */
function withPhrases(clause: readonly PhraseWord[], strength: TopicStrength, apartAtJoins: boolean): string[] {
  const phrase = (a: string, b: string, single: string): boolean => strength(`${a} ${b}`) > strength(single) + PHRASE_GAIN
  const parts = (i: number): boolean => apartAtJoins && joinAt(clause, i)
  const items: string[][] = [[]]
  for (const [i, x] of clause.entries()) {
    if (parts(i) && items[items.length - 1]?.length) items.push([])
    const before = parts(i) ? undefined : clause[i - 1]
    const after = parts(i + 1) ? undefined : clause[i + 1]
    const kept =
      !x.common || (after && !after.common && phrase(x.word, after.word, after.word)) || (before && !before.common && phrase(before.word, x.word, before.word))
    if (kept) items[items.length - 1]?.push(x.word)
  }
  return items.map((item) => item.join(' '))
}

/** The closest words to the given words, with their best cosine; the prompt's own words excluded. */
function neighbours(of: readonly string[], content: readonly string[]): Map<string, number> {
  const own = new Set(content)
  const out = new Map<string, number>()
  const accept = (w: string): boolean => w.length > 2 && !own.has(w) && !FUNCTION_WORD_SET.has(w) && !GENERIC_WORD_SET.has(w) && !AUDIENCE.has(w)
  for (const w of [...new Set(of)].slice(0, NEIGHBOUR_WORDS)) {
    for (const n of nearestWords(w, NEIGHBOURS, NEIGHBOUR_COSINE, accept)) out.set(n.word, Math.max(out.get(n.word) ?? 0, n.cosine))
  }
  return out
}

/**
 * The prompt's tier-1 topics with its neighbours' mixed in: a share of NEIGHBOUR_TOPIC_SHARE when its
 * own words give the model evidence, all of it when they give none ("espresso").
 */
function withNeighbours(own: ScoredCategory[], a: Analysis, near: Map<string, number>): ScoredCategory[] {
  if (!near.size) return own
  const b = analyze({ body: [...near.keys()].join(' ') })
  const theirs = tier1Probabilities(b)
  if (!theirs.length) return own
  const share = own.length && a.topicFeatures + a.matchedTerms > 0 ? NEIGHBOUR_TOPIC_SHARE : 1
  const mixed = new Map<number, number>()
  for (const c of own) mixed.set(c.id, (1 - share) * c.score)
  for (const c of theirs) mixed.set(c.id, (mixed.get(c.id) ?? 0) + share * c.score)
  return [...mixed].map(([id, score]) => ({ id, score })).sort((x, y) => y.score - x.score)
}
