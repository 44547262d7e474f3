// Text length as Readability measures it (textContent, whitespace runs collapsed to one character, ends
// trimmed), computed bottom-up. A span summary carries whether it starts/ends with whitespace so that a
// run split across two nodes ("foo " + " bar") still counts once.
import type { TextNode } from './dom.ts'

export interface Span {
  len: number
  startWs: boolean
  endWs: boolean
  /** No characters at all. */
  empty: boolean
  /** Only whitespace. */
  allWs: boolean
  /** Commas (of any script) in the text; only kept for text nodes, where it is cached. */
  commas: number
}

/** Shared initial value; spans stored on nodes are replaced, never mutated. */
export const EMPTY_SPAN: Readonly<Span> = Object.freeze(emptySpan())

export function emptySpan(): Span {
  return { len: 0, startWs: false, endWs: false, empty: true, allWs: true, commas: 0 }
}

function isWs(c: number): boolean {
  return (
    c === 32 ||
    (c >= 9 && c <= 13) ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  )
}

/** Span of one text node, cached on the node (text nodes never change once parsed). */
export function textSpan(node: TextNode): Span {
  if (node.span !== null) return node.span
  const text = node.text
  let len = 0
  let inWs = false
  let allWs = true
  let commas = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x2c || c === 0xff0c || c === 0x060c || c === 0xfe50 || c === 0xfe10 || c === 0xfe11 || c === 0x2e41 || c === 0x2e34 || c === 0x2e32) commas++
    if (isWs(c)) {
      if (!inWs) len++
      inWs = true
    } else {
      len++
      inWs = false
      allWs = false
    }
  }
  const span: Span =
    text.length === 0 ? emptySpan() : { len, startWs: isWs(text.charCodeAt(0)), endWs: isWs(text.charCodeAt(text.length - 1)), empty: false, allWs, commas }
  node.span = span
  return span
}

/** Appends `b` to `a` in place. */
export function joinSpan(a: Span, b: Span): void {
  if (b.empty) return
  if (a.empty) {
    a.len = b.len
    a.startWs = b.startWs
    a.endWs = b.endWs
    a.empty = false
    a.allWs = b.allWs
    return
  }
  a.len += b.len - (a.endWs && b.startWs ? 1 : 0)
  a.endWs = b.endWs
  a.allWs = a.allWs && b.allWs
}

export function trimmedLength(s: Span): number {
  if (s.empty || s.allWs) return 0
  return s.len - (s.startWs ? 1 : 0) - (s.endWs ? 1 : 0)
}
