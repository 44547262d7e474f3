// One-off normalisation of the tree before scoring: <br><br> runs become paragraphs, empty wrappers go,
// and <div>s used as paragraphs become <p>s. None of this depends on the attempt flags, so it is done once
// instead of once per attempt (Readability re-parses the page for each attempt).

import { BLOCK_TAGS, EMPTY_REMOVABLE, PHRASING } from './content-patterns.ts'
import type { DomNode } from './dom.ts'
import { ElementNode, hasDescendant } from './dom.ts'
import { emptySpan, joinSpan, textSpan, trimmedLength } from './text-stats.ts'

const WS_ONLY = /^\s*$/

export function isWhitespace(node: DomNode): boolean {
  return node.isText ? WS_ONLY.test(node.text) : node.tag === 'br'
}

export function isPhrasing(node: DomNode): boolean {
  if (node.isText) return true
  if (PHRASING.has(node.tag)) return true
  if (node.tag === 'a' || node.tag === 'del' || node.tag === 'ins') return node.children.every(isPhrasing)
  return false
}

function nextNonBlank(kids: DomNode[], from: number): number {
  let i = from
  while (i < kids.length) {
    const n = kids[i] as DomNode
    if (!n.isText || !WS_ONLY.test(n.text)) break
    i++
  }
  return i
}

function isBr(node: DomNode | undefined): boolean {
  return node !== undefined && !node.isText && node.tag === 'br'
}

/** Replaces each chain of two or more <br>s with a <p> holding the phrasing content that follows it. */
function replaceBrChains(el: ElementNode): void {
  const kids = el.children
  let hasBr = false
  for (const k of kids) if (isBr(k)) hasBr = true
  if (!hasBr) return
  const out: DomNode[] = []
  let madeP = false
  let i = 0
  while (i < kids.length) {
    const node = kids[i] as DomNode
    if (!isBr(node) || !isBr(kids[nextNonBlank(kids, i + 1)])) {
      out.push(node)
      i++
      continue
    }
    // Drop the rest of the chain; whitespace between the <br>s is kept and lands in the new paragraph.
    let j = i + 1
    for (;;) {
      const k = nextNonBlank(kids, j)
      if (!isBr(kids[k])) break
      for (let w = j; w < k; w++) out.push(kids[w] as DomNode)
      j = k + 1
    }
    const p = new ElementNode('p', {})
    p.parent = el
    while (j < kids.length) {
      const next = kids[j] as DomNode
      if (isBr(next) && isBr(kids[nextNonBlank(kids, j + 1)])) break
      if (!isPhrasing(next)) break
      next.parent = p
      p.children.push(next)
      j++
    }
    while (p.children.length > 0 && isWhitespace(p.children[p.children.length - 1] as DomNode)) p.children.pop()
    out.push(p)
    madeP = true
    i = j
  }
  el.children = out
  if (madeP && el.tag === 'p') el.tag = 'div'
}

function isEmptyWrapper(el: ElementNode): boolean {
  for (const child of el.children) {
    if (child.isText) {
      if (!WS_ONLY.test(child.text)) return false
    } else if (child.tag !== 'br' && child.tag !== 'hr') {
      return false
    }
  }
  return true
}

/** Readability-style text length, link text length (in-page links count 30%) and commas of live nodes. */
export function measure(el: ElementNode, run: number): void {
  const span = emptySpan()
  let link = 0
  let commas = 0
  for (const child of el.children) {
    if (child.isText) {
      const t = textSpan(child)
      joinSpan(span, t)
      commas += t.commas
    } else if (run === 0 || child.gone !== run) {
      measure(child, run)
      joinSpan(span, child.span)
      commas += child.commas
      if (child.tag === 'a') {
        const href = child.attrs.href
        link += href !== undefined && href.length > 1 && href.charCodeAt(0) === 35 ? child.textLen * 0.3 : child.textLen
      } else {
        link += child.linkLen
      }
    }
  }
  el.span = span
  el.textLen = trimmedLength(span)
  el.linkLen = link
  el.commas = commas
}

export function linkDensity(el: ElementNode): number {
  return el.textLen === 0 ? 0 : el.linkLen / el.textLen
}

/** Wraps runs of phrasing content of a div into paragraphs; returns whether any paragraph was made. */
function wrapPhrasing(div: ElementNode): boolean {
  const out: DomNode[] = []
  let p: ElementNode | null = null
  let made = false
  for (const child of div.children) {
    if (isPhrasing(child)) {
      if (p !== null) {
        child.parent = p
        p.children.push(child)
      } else if (!isWhitespace(child)) {
        p = new ElementNode('p', {})
        p.parent = div
        out.push(p)
        child.parent = p
        p.children.push(child)
        made = true
      } else {
        out.push(child)
      }
    } else {
      if (p !== null) {
        while (p.children.length > 0 && isWhitespace(p.children[p.children.length - 1] as DomNode)) p.children.pop()
        p = null
      }
      out.push(child)
    }
  }
  div.children = out
  return made
}

function singleChildTag(el: ElementNode, tag: string): ElementNode | null {
  let found: ElementNode | null = null
  for (const child of el.children) {
    if (child.isText) {
      if (!WS_ONLY.test(child.text)) return null
    } else {
      if (found !== null || child.tag !== tag) return null
      found = child
    }
  }
  return found
}

/**
 * Normalises the subtree under `body` in place, exactly once: first every <br> chain (as Readability does
 * before anything else), then empty wrappers and paragraph-like divs in document order. Measures are taken
 * up front; these edits do not change any div's text or link length, so link-density checks cost nothing.
 */
export function prepareTree(body: ElementNode): void {
  replaceAllBrChains(body)
  measure(body, 0)
  prepareChildren(body)
}

function replaceAllBrChains(el: ElementNode): void {
  replaceBrChains(el)
  for (const child of el.children) if (!child.isText) replaceAllBrChains(child)
}

function prepareChildren(parent: ElementNode): void {
  let i = 0
  while (i < parent.children.length) {
    const child = parent.children[i] as DomNode
    if (child.isText) {
      i++
      continue
    }
    if (EMPTY_REMOVABLE.has(child.tag) && isEmptyWrapper(child)) {
      parent.children.splice(i, 1)
      child.parent = null
      continue
    }
    let node = child
    if (node.tag === 'div') {
      const hadBlock = hasDescendant(node, BLOCK_TAGS)
      const made = wrapPhrasing(node)
      const onlyP = singleChildTag(node, 'p')
      if (onlyP !== null && linkDensity(node) < 0.25) {
        onlyP.alias = node
        onlyP.parent = parent
        parent.children[i] = onlyP
        node = onlyP
      } else if (!hadBlock && !made) {
        node.tag = 'p'
      }
    }
    prepareChildren(node)
    i++
  }
}
