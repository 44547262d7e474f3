// Multi-pattern user-agent matcher. A "word" is a run of [A-Za-z0-9_] (RegExp \w). Patterns (ASCII,
// matched case-insensitively):
//   GPTBot      word token: starts where a word starts; if its last char is a word char, the next UA char
//               must not be one (so "Googlebot" also matches "Googlebot-Image/1.0" but never "GooglebotX").
//               ai.robots.txt asks for whole-word matching (its FAQ, issue 208).
//   ^Java/      the same, anchored at the start of the UA.
//   ^node$      the whole UA equals this.
//   =Spider     a declared product only: an ordinary word ("Spider", "Code", "Expanse") that names an
//               agent only where a client names itself: at the start of the UA, as the item after
//               "compatible;", or as the first item of a comment other than a browser's platform comment
//               ("Mozilla/5.0 (Linux; Android 9; Expanse)" is a phone). Never inside a URL, an e-mail
//               address or a browser's product list ("… (KHTML, like Gecko) Code/1.85 Chrome/…" is VS Code).
// Two stages. A prefilter RegExp (each token as "\bprefix") can only say "maybe": V8 compiles it to
// native code, so the common case, a browser UA naming no token, costs one native scan. UAs it lets
// through take the exact pass: at each word start, one walk down a trie of the tokens (many share long
// prefixes: "google…"), and the precedence rules pick the winner: lower tier, then the token that
// starts the UA, then the longer token, then the earlier position.

import { escapeRegExp } from '../../platform/regexp.ts'
import { DEVICE } from './structure.ts'

export interface Pattern {
  token: string
  id: number
  tier: number
}

/** The patterns of agent records, each with its record's index as id. */
export function patternsOf(agents: readonly { tokens: string[]; tier?: number }[]): Pattern[] {
  return agents.flatMap((a, id) => a.tokens.map((token) => ({ token, id, tier: a.tier ?? 0 })))
}

interface Term {
  id: number
  tier: number
  anchored: boolean
  endCheck: boolean
  declared: boolean
}

const WORD = new Uint8Array(128) // the same set as RegExp \w, so the prefilter's \b agrees with the scan
for (let c = 48; c < 58; c++) WORD[c] = 1
for (let c = 65; c < 91; c++) WORD[c] = WORD[c + 32] = 1
WORD[95] = 1

const LEAD = 1 << 16 // rank bonus of a token at the start of the UA (longer than any UA we scan)
const isWord = (c: number): boolean => c < 128 && WORD[c] === 1
const lower = (c: number): number => (c >= 65 && c <= 90 ? c | 32 : c)

function lowerCodes(s: string): Uint8Array {
  const codes = new Uint8Array(s.length)
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x20 || c > 0x7e) throw new Error(`non-ASCII or control char in pattern ${JSON.stringify(s)}`)
    codes[i] = lower(c)
  }
  return codes
}

/** Trie of lowercased tokens: first-child / next-sibling lists, root children indexed by char. */
class Trie {
  readonly root = new Int32Array(128).fill(-1)
  first: number[] = []
  next: number[] = []
  char: number[] = []
  terms: (Term[] | undefined)[] = []

  add(codes: Uint8Array, term: Term): void {
    let node = this.root[codes[0]!]!
    if (node < 0) node = this.root[codes[0]!] = this.node(codes[0]!, -1)
    for (let k = 1; k < codes.length; k++) {
      let child = this.first[node]!
      while (child >= 0 && this.char[child] !== codes[k]) child = this.next[child]!
      if (child < 0) {
        child = this.node(codes[k]!, this.first[node]!)
        this.first[node] = child
      }
      node = child
    }
    ;(this.terms[node] ??= []).push(term)
  }

  private node(c: number, next: number): number {
    this.first.push(-1)
    this.next.push(next)
    this.char.push(c)
    this.terms.push(undefined)
    return this.first.length - 1
  }
}

export type Matcher = (ua: string, maxScan?: number) => number

/**
 * Compiles patterns; the returned function gives the winning pattern's id, or -1. `prefilter: false`
 * (tests only) runs the exact pass on every input, to check the prefilter never drops a match.
 */
export function compileMatcher(patterns: readonly Pattern[], opts: { prefilter?: boolean } = {}): Matcher {
  const trie = new Trie()
  const exact = new Map<string, { id: number; tier: number; len: number }>()
  let maxExact = 0
  const prefixes = new Set<string>() // prefilter material

  for (const pattern of patterns) {
    const { id, tier } = pattern
    const declared = pattern.token.startsWith('=')
    const token = declared ? pattern.token.slice(1) : pattern.token
    const anchored = token.startsWith('^')
    const bad = () => new Error(`bad pattern ${JSON.stringify(pattern.token)}`)
    prefixes.add(token.replace(/^\^|\$$/g, '').toLowerCase())
    if (anchored && token.endsWith('$')) {
      const body = token.slice(1, -1).toLowerCase()
      lowerCodes(body)
      if (declared || body.length < 2 || !isWord(body.charCodeAt(0))) throw bad()
      exact.set(body, { id, tier, len: body.length })
      maxExact = Math.max(maxExact, body.length)
      continue
    }
    const body = anchored ? token.slice(1) : token
    if (body.length < 2 || !isWord(body.charCodeAt(0))) throw bad()
    trie.add(lowerCodes(body), { id, tier, anchored, declared, endCheck: isWord(body.charCodeAt(body.length - 1)) })
  }
  // Typed copies for the hot loop.
  const { root, terms } = trie
  const first = Int32Array.from(trie.first)
  const next = Int32Array.from(trie.next)
  const char = Uint8Array.from(trie.char)
  const alternation = (xs: Set<string>): string => [...xs].map(escapeRegExp).join('|')
  const never = /$^/
  const usePrefilter = opts.prefilter !== false
  const prefixRe = prefixes.size ? new RegExp(`\\b(?:${alternation(prefixes)})`, 'i') : never

  return function match(ua: string, maxScan = Infinity): number {
    if (usePrefilter && !prefixRe.test(ua)) return -1
    const n = ua.length < maxScan ? ua.length : maxScan
    let bestId = -1
    let bestTier = 1 << 30
    let bestLen = 0
    if (ua.length <= maxExact) {
      const hit = exact.get(ua.toLowerCase())
      if (hit) {
        bestId = hit.id
        bestTier = hit.tier
        bestLen = hit.len + LEAD
      }
    }
    let i = 0
    while (i < n) {
      let c = ua.charCodeAt(i)
      if (c >= 128 || WORD[c] === 0) {
        i++
        continue
      }
      // A word starts here: walk the trie as far as the UA follows it, weighing every token that ends.
      const start = i
      let node = root[lower(c)]!
      let k = start
      while (node >= 0) {
        const list = terms[node]
        if (list !== undefined) {
          const end = k + 1
          const len = end - start
          // Rank: lower tier, then the UA's leading product (the client's own name: "Feedly/1.0 (…; like
          // FeedFetcher-Google)"), then the longer token.
          const rankLen = start === 0 ? len + LEAD : len
          for (const t of list) {
            if (t.tier > bestTier || (t.tier === bestTier && rankLen <= bestLen)) continue
            if ((t.anchored && start !== 0) || (t.endCheck && end < n && isWord(ua.charCodeAt(end)))) continue
            if (t.declared && !(declaredEnd(ua, end) && declaredStart(ua, start))) continue
            bestId = t.id
            bestTier = t.tier
            bestLen = rankLen
          }
        }
        if (++k >= n) break
        const ck = ua.charCodeAt(k)
        if (ck >= 128) break
        const want = lower(ck)
        let child = first[node]!
        while (child >= 0 && char[child] !== want) child = next[child]!
        node = child
      }
      // Skip to the end of the word: tokens start at word starts only.
      do {
        i++
      } while (i < n && (c = ua.charCodeAt(i)) < 128 && WORD[c] === 1)
    }
    return bestId
  }
}

// After a declared product: the end, a version, or the end of a comment item.
function declaredEnd(ua: string, end: number): boolean {
  if (end >= ua.length) return true
  const c = ua.charCodeAt(end)
  return c === 47 /* / */ || c === 59 /* ; */ || c === 41 /* ) */ || c === 44 /* , */ || c === 32
}

// Where a client names itself (see `=` above): UA start, after "compatible;", or first in a comment
// that is neither the platform comment of a "Mozilla/" UA nor any other comment naming a platform.
function declaredStart(ua: string, start: number): boolean {
  if (start === 0) return true
  let i = start - 1
  while (i > 0 && ua.charCodeAt(i) === 32) i--
  const c = ua.charCodeAt(i)
  if (c === 40 /* ( */) {
    if (ua.indexOf('(') === i && /^mozilla\//i.test(ua)) return false
    // An app's device comment names its device first: "Snapchat/10.77 (Expanse; Android 10; gzip)".
    const close = ua.indexOf(')', i)
    return !DEVICE.test(ua.slice(i, close < 0 ? ua.length : close).toLowerCase())
  }
  if (c !== 59 /* ; */) return false
  let j = i - 1
  while (j > 0 && ua.charCodeAt(j) === 32) j--
  return j >= 9 && ua.slice(j - 9, j + 1).toLowerCase() === 'compatible'
}
