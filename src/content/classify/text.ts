// Tokenising and a deliberately light English stemmer. Page text and curated vocabulary go through
// the same functions, so the stemmer only has to be consistent, not linguistically exact.
import { FUNCTION_WORD_SET, GENERIC_WORD_SET } from './stopwords.ts'

const NO_PLURAL = new Set([
  'news',
  'series',
  'species',
  'gas',
  'bus',
  'plus',
  'chaos',
  'lens',
  'atlas',
  'texas',
  'kansas',
  'paris',
  'always',
  'perhaps',
  'thus',
  'whereas',
])
/** Words at least this long lose an -ing ending ("boxing" → "box"; "aging", "using" stay whole). */
const MIN_ING_WORD = 6
/** One vowel group between consonants, the last not w, x or y: "car", "dat", "smok", "scor". */
const SHORT_CVC = /^[^aeiou]*[aeiou][^aeiouwxy]$/
const stemCache = new Map<string, string>()
const STEM_CACHE_MAX = 200_000

function stemUncached(w: string): string {
  if (w.length <= 3 || NO_PLURAL.has(w)) return w
  let s = w
  // "movies" and "movie" both end up as "movy", like "companies"/"company".
  if (s.endsWith('ies') && s.length > 4) s = `${s.slice(0, -3)}y`
  else if (s.endsWith('ie') && s.length >= 5) s = `${s.slice(0, -2)}y`
  else if (s.endsWith('ied') && s.length > 4) s = `${s.slice(0, -3)}y`
  else if (/(?:ss|x|ch|sh|z)es$/.test(s)) s = s.slice(0, -2)
  else if (s.endsWith('s') && !/(?:ss|us|is|os|ys)$/.test(s)) s = s.slice(0, -1)
  // -ing / -ed only; no final-e removal, which would merge care/car, wine/win, hope/hop.
  let stripped = false
  if (s.endsWith('ing') && s.length >= MIN_ING_WORD) [s, stripped] = [s.slice(0, -3), true]
  else if (s.endsWith('ed') && !s.endsWith('eed') && s.length >= 5) [s, stripped] = [s.slice(0, -2), true]
  // Undouble only longer stems: "shopping" → "shop", but "wedding" must not become "wed" (Wednesday).
  if (stripped && s.length >= 5 && /([bdfgkmnprtz])\1$/.test(s)) return s.slice(0, -1)
  // A short consonant-vowel-consonant stem lost an "e" to the ending ("caring" → "car", "coding" →
  // "cod"): both endings read as -ing ("cared", "caring" → "caring"), rather than as another word.
  if (stripped && SHORT_CVC.test(s)) return `${s}ing`
  return s
}

/**
 * The prefix a stem is searched by in page text (which is not stemmed): a short stem read as -ing is
 * searched without it, so "hiking" finds hike, hiker and hiked as well.
 */
export function searchPrefix(stemmed: string): string {
  const root = stemmed.length >= MIN_ING_WORD && stemmed.endsWith('ing') ? stemmed.slice(0, -3) : ''
  return SHORT_CVC.test(root) ? root : stemmed
}

export function stem(word: string): string {
  let s = stemCache.get(word)
  if (s === undefined) {
    s = stemUncached(word)
    if (stemCache.size < STEM_CACHE_MAX) stemCache.set(word, s)
  }
  return s
}

// Letters (any script) and digits; apostrophes are dropped so "Trump's" → "trump", "s".
const WORD = /[\p{L}\p{N}]+/gu
const DIACRITICS = /\p{M}+/gu
// Links inside article text ("https://t.co/…") are not words about the topic.
const LINK = /\bhttps?:\/\/\S+|\bwww\.\S+/gi

/** Lower-cased word tokens, diacritics and links removed. */
export function words(text: string): string[] {
  return fold(text).replace(LINK, ' ').toLowerCase().match(WORD) ?? []
}

/** The text without diacritics (combining marks), as words() reads it. */
export function fold(text: string): string {
  return /[^\x20-\x7e\s]/.test(text) ? text.normalize('NFKD').replace(DIACRITICS, '') : text
}

/** What stands between a word and the one before it: nothing that matters, a joining mark, or a break. */
export type WordGap = 'none' | 'join' | 'break'

export interface WrittenWord {
  /** lower-cased, as words() gives it */
  word: string
  /** with its case as written ("US" against "us") */
  written: string
  gap: WordGap
}

// Punctuation that ends a phrase: a comma, a semicolon, a colon, brackets, ! ?, or a full stop (below).
const BREAK_MARK = /[,;:|()[\]{}!?]/
// Marks that join two words the way "and" / "or" do.
const JOIN_MARK = /[&/+]/

/**
 * The words of a short text (a prompt) as words() reads them, each with its case as written and what
 * separates it from the word before. A full stop breaks only after a word longer than one letter:
 * "U.S. politics" is one phrase.
 */
export function writtenWords(text: string): WrittenWord[] {
  const folded = fold(text).replace(LINK, ' ')
  const out: WrittenWord[] = []
  let end = 0
  for (const m of folded.matchAll(WORD)) {
    const between = folded.slice(end, m.index)
    const stop = /\.(?:\s|$)/.test(between) && (out[out.length - 1]?.word.length ?? 0) > 1
    const gap: WordGap = BREAK_MARK.test(between) || stop ? 'break' : JOIN_MARK.test(between) ? 'join' : 'none'
    out.push({ word: m[0].toLowerCase(), written: m[0], gap })
    end = m.index + m[0].length
  }
  return out
}

/** Stemmed tokens without function words, pure numbers or single letters; generic words stay (see isGeneric). */
export function contentTokens(text: string): string[] {
  const out: string[] = []
  for (const w of words(text)) {
    if (w.length < 2 || FUNCTION_WORD_SET.has(w) || /^\d+$/.test(w)) continue
    out.push(stem(w))
  }
  return out
}

let genericStems: ReadonlySet<string> | undefined
/** True for a stemmed token that may be part of a phrase but is no evidence alone ("world", "news", "run"). */
export function isGeneric(token: string): boolean {
  genericStems ??= new Set([...GENERIC_WORD_SET].map(stem))
  return genericStems.has(token)
}

/** Words of a URL worth reading: sub-domain labels and path segments (not the registrable domain, not ids). */
export function urlTokens(url: string | undefined): string[] {
  if (!url) return []
  let u: URL
  try {
    u = new URL(url)
  } catch {
    return []
  }
  const labels = u.hostname
    .split('.')
    .slice(0, -2)
    .filter((l) => l !== 'www' && l !== 'm')
  const path = decodeSafe(u.pathname).replace(/\.[a-z0-9]{2,5}$/i, '')
  return contentTokens(`${labels.join(' ')} ${path.replace(/[-_/.+]/g, ' ')}`).filter((t) => t.length <= 20 && !/\d/.test(t) && !isGeneric(t))
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}
