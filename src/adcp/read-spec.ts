/**
 * Reads a signal_spec the way a contextual agent must: what the audience reads about (the topic the
 * catalog is ranked against) apart from who they are and where (age, gender, life stage, country),
 * which contextual signals do not target. "outdoor enthusiasts, age 25-54, US" ranks on "outdoor
 * enthusiasts"; the traits are reported in the answer's message, and countries become the request's
 * countries when it names none. Negated phrases ("not politics") are taken out, and exclude signals as
 * a segment prompt's exclusions block pages. A spec with no topic left ("audience", "Show all available
 * signals") is broad: the best available signals are offered.
 */
import { countryCode, countryNames, isCountry } from '../activation/registry.ts'
import { type Exclusions, readExclusions } from '../content/topics/interpret-prompt.ts'
import { PROMPT_WORDS } from '../content/topics/prompt-language.ts'
import { anyWordPattern, escapeRegExp } from '../platform/regexp.ts'

export interface ReadSpec {
  /** What to rank on; null when nothing topical is left. */
  topic: string | null
  /** Demographic phrases read as such, as written. */
  traits: string[]
  /** Countries named (ISO 3166-1 alpha-2). */
  countries: string[]
  /** What the spec excludes ("not politics"), read as a segment prompt's exclusions are. */
  excluded: Exclusions
}

const demographic = [
  /\b(?:ages?d?|age\s+range)\s*\d{1,2}\s*(?:\+|(?:-|–|to)\s*\d{1,2}\+?)/gi,
  /\b\d{2}\s*(?:-|–|to)\s*\d{2}\b(?!\s*%)/g,
  /\b\d{2}\s*\+/g,
  /\b(?:adults?|grown-?ups|men|women|males?|females?|millennials|gen(?:eration)?\s*[xyz]|zoomers|(?:baby\s+)?boomers|seniors|retirees|teens?|teenagers|young\s+adults|households?)\b/gi,
  /\b(?:high|higher|middle|low|upper)[-\s](?:income|net[-\s]worth)\b/gi,
  /\baffluent\b/gi,
  /\bhhi\b[^,;]*/gi,
]

/** Words that ask for signals in general rather than naming a topic. */
const generic = new Set(
  'a an the all any every available show list give me us find get my our of for with and or in on to by at who are that have high value premium pricing price details data signal signals segment segments audience audiences targeting target interested interest interests in-market likely purchase propensity intent people persons individuals users shoppers buyers customers consumers viewers readers fans enthusiasts'.split(
    ' ',
  ),
)

/** Who or where right after one of these words is excluded, not read ("sports fans, not teens", "not in the US"). */
const NEGATED = new RegExp(`${anyWordPattern(PROMPT_WORDS.en.negations)}\\s+(?:(?:in|from|the)\\s+)*$`, 'iu')

const alpha2 = /\b(?:[A-Z]{2}|USA|UK)\b/g
const names = countryNames().sort((a, b) => b.length - a.length)
const nameRe = new RegExp(`\\b(?:${names.map(escapeRegExp).join('|')})\\b`, 'gi')

export function readSpec(spec: string): ReadSpec {
  const traits: string[] = []
  const countries = new Set<string>()
  let rest = spec.normalize('NFKC')
  // Who and where first, so an exclusion does not run on into them ("excluding politics, women 25-54,
  // in Germany"); a negated one ("not teens", "not in the US") is left to be excluded.
  const unlessNegated =
    (read: (m: string) => string) =>
    (m: string, ...args: unknown[]) => {
      // replace() passes the match's offset, then the whole input, after any groups.
      const i = args.findIndex((a) => typeof a === 'number')
      const at = (args[i] as number | undefined) ?? 0
      const input = (args[i + 1] as string | undefined) ?? ''
      return NEGATED.test(input.slice(Math.max(0, at - 24), at)) ? m : read(m)
    }
  for (const re of demographic) {
    rest = rest.replace(
      re,
      unlessNegated((m) => {
        traits.push(m.trim())
        return ' '
      }),
    )
  }
  rest = rest.replace(
    nameRe,
    unlessNegated((m) => {
      const code = countryCode(m)
      if (code) countries.add(code)
      return ' '
    }),
  )
  // Upper-case codes only ("US", not the word "us"), and only real ones.
  rest = rest.replace(
    alpha2,
    unlessNegated((m) => {
      const code = m === 'USA' ? 'US' : m === 'UK' ? 'GB' : m
      if (!isCountry(code)) return m
      countries.add(code)
      return ' '
    }),
  )
  // "sports fans, not politics": the excluded topic is not ranked on.
  const excluded = readExclusions(rest)
  rest = excluded.rest
  const topic = rest
    .replace(/\s*[,;]\s*(?=[,;]|$)/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  const topical = topic
    .toLowerCase()
    .split(/[^a-z0-9-]+/)
    .filter((w) => w.length > 1 && !generic.has(w))
  return { topic: topical.length ? topic : null, traits, countries: [...countries], excluded }
}
