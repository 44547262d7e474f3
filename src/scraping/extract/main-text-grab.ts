// One attempt at locating the article: drop page furniture, score paragraphs into their ancestors, pick
// the best container and the siblings that belong with it. Marks are stamped with `run`, so the tree is
// shared by all attempts without copying.

import { BYLINE, KEEP_TAG_SIBLINGS, NEGATIVE, OK_MAYBE, POSITIVE, TAGS_TO_SCORE, tagBaseScore, UNLIKELY, UNLIKELY_ROLES } from './content-patterns.ts'
import { ElementNode, textOf } from './dom.ts'
import { linkDensity, measure } from './main-text-prepare.ts'
import { textSimilarity } from './text-similarity.ts'

export const FLAG_STRIP_UNLIKELY = 1
export const FLAG_WEIGHT_CLASSES = 2
export const FLAG_CLEAN_CONDITIONALLY = 4

export interface GrabContext {
  body: ElementNode
  title: string
  /** A byline from metadata disables byline hunting in the page. */
  hasMetadataByline: boolean
  /** Byline found in the page; once found it stays found across attempts (as in Readability). */
  byline: string | null
}

export interface Article {
  roots: ElementNode[]
  /** Roots that are treated as <div> by the cleaner although their tag differs. */
  asDiv: Set<ElementNode>
}

export function classWeight(el: ElementNode, flags: number): number {
  if ((flags & FLAG_WEIGHT_CLASSES) === 0) return 0
  let weight = 0
  const cls = el.attrs.class
  if (cls) {
    if (NEGATIVE.test(cls)) weight -= 25
    if (POSITIVE.test(cls)) weight += 25
  }
  const id = el.attrs.id
  if (id) {
    if (NEGATIVE.test(id)) weight -= 25
    if (POSITIVE.test(id)) weight += 25
  }
  return weight
}

export function hasAncestorTag(el: ElementNode, tag: string, maxDepth = 3): boolean {
  let node = el.parent
  let depth = 0
  while (node !== null && node.tag !== '#root') {
    if (maxDepth > 0 && depth > maxDepth) return false
    if (node.tag === tag) return true
    node = node.parent
    depth++
  }
  return false
}

function isValidByline(el: ElementNode, attrsOf: ElementNode, matchString: string): boolean {
  const rel = attrsOf.attrs.rel
  const itemprop = attrsOf.attrs.itemprop
  if (!(rel === 'author' || (itemprop !== undefined && itemprop.includes('author')) || BYLINE.test(matchString))) return false
  const len = textOf(el).trim().length
  return len > 0 && len < 100
}

function bylineText(el: ElementNode): string {
  let named: ElementNode | null = null
  const stack: ElementNode[] = [el]
  while (stack.length > 0 && named === null) {
    const node = stack.pop() as ElementNode
    for (let i = node.children.length - 1; i >= 0; i--) {
      const child = node.children[i]
      if (child === undefined || child.isText) continue
      if ((child.attrs.itemprop ?? '').includes('name')) {
        named = child
        break
      }
      stack.push(child)
    }
  }
  return textOf(named ?? el).trim()
}

interface MarkState {
  run: number
  flags: number
  removeTitleHeader: boolean
  toScore: ElementNode[]
}

/** Pre-order pass: marks bylines, the title heading and unlikely furniture as gone; lists nodes to score. */
function mark(parent: ElementNode, ctx: GrabContext, st: MarkState): void {
  for (const child of parent.children) {
    if (child.isText) continue
    const subject = child.alias ?? child
    const matchString = (subject.attrs.class ?? '') + ' ' + (subject.attrs.id ?? '')
    if (ctx.byline === null && !ctx.hasMetadataByline && isValidByline(child, subject, matchString)) {
      ctx.byline = bylineText(child)
      child.gone = st.run
      continue
    }
    if (st.removeTitleHeader && child.alias === null && (child.tag === 'h1' || child.tag === 'h2')) {
      if (textSimilarity(ctx.title, textOf(child).trim()) > 0.75) {
        st.removeTitleHeader = false
        child.gone = st.run
        continue
      }
    }
    if ((st.flags & FLAG_STRIP_UNLIKELY) !== 0) {
      if (
        matchString.length > 1 &&
        UNLIKELY.test(matchString) &&
        !OK_MAYBE.test(matchString) &&
        child.tag !== 'body' &&
        child.tag !== 'a' &&
        !hasAncestorTag(child, 'table') &&
        !hasAncestorTag(child, 'code')
      ) {
        child.gone = st.run
        continue
      }
      const role = subject.attrs.role
      if (role !== undefined && UNLIKELY_ROLES.has(role)) {
        child.gone = st.run
        continue
      }
    }
    if (TAGS_TO_SCORE.has(child.tag)) st.toScore.push(child)
    mark(child, ctx, st)
  }
}

function liveElementChildren(el: ElementNode, run: number): ElementNode[] {
  const out: ElementNode[] = []
  for (const child of el.children) if (!child.isText && child.gone !== run) out.push(child)
  return out
}

/**
 * The only live element child of `el` that carries text, or null when none or several do. Text nodes are
 * not counted, as Readability counts element children only.
 */
function soleTextChild(el: ElementNode, run: number): ElementNode | null {
  let found: ElementNode | null = null
  for (const child of el.children) {
    if (child.isText || child.gone === run || child.textLen === 0) continue
    if (found !== null) return null
    found = child
  }
  return found
}

/**
 * A sibling's content score, read through wrappers: a block whose text all sits in one child holds that
 * child's content, so the best score along the chain of sole text children speaks for it (null: unscored).
 */
function chainScore(el: ElementNode, run: number): number | null {
  let best: number | null = null
  for (let n: ElementNode | null = el; n !== null; n = soleTextChild(n, run)) {
    if (n.scoreRun === run && (best === null || n.score > best)) best = n.score
  }
  return best
}

function initialize(el: ElementNode, run: number, flags: number): void {
  el.scoreRun = run
  el.score = tagBaseScore(el.tag) + classWeight(el, flags)
}

function scoreParagraphs(toScore: ElementNode[], run: number, flags: number): ElementNode[] {
  const candidates: ElementNode[] = []
  for (const el of toScore) {
    const parent = el.parent
    if (parent === null || parent.tag === '#root') continue
    if (el.textLen < 25) continue
    const score = 2 + el.commas + Math.min(Math.floor(el.textLen / 100), 3)
    let anc: ElementNode | null = parent
    for (let level = 0; level < 5 && anc !== null; level++) {
      const up: ElementNode | null = anc.parent
      // The <html> element (whose parent is the document) is never a candidate.
      if (anc.tag === '#root' || up === null || up.tag === '#root') break
      if (anc.scoreRun !== run) {
        initialize(anc, run, flags)
        candidates.push(anc)
      }
      anc.score += score / (level === 0 ? 1 : level === 1 ? 2 : level * 3)
      anc = up
    }
  }
  return candidates
}

function ancestorSet(el: ElementNode): Set<ElementNode> {
  const set = new Set<ElementNode>()
  for (let n = el.parent; n !== null; n = n.parent) set.add(n)
  return set
}

function isTop(el: ElementNode | null): boolean {
  return el === null || el.tag === 'body' || el.tag === '#root'
}

/** Finds the article container and its related siblings for one attempt; null if nothing was scored. */
export function grabArticle(ctx: GrabContext, run: number, flags: number): Article {
  const st: MarkState = { run, flags, removeTitleHeader: true, toScore: [] }
  mark(ctx.body, ctx, st)
  measure(ctx.body, run)
  const candidates = scoreParagraphs(st.toScore, run, flags)

  const top: ElementNode[] = []
  for (const c of candidates) {
    c.score *= 1 - linkDensity(c)
    for (let t = 0; t < 5; t++) {
      const existing = top[t]
      if (existing === undefined || c.score > existing.score) {
        top.splice(t, 0, c)
        if (top.length > 5) top.pop()
        break
      }
    }
  }

  let best = top[0]
  if (best === undefined || best.tag === 'body') {
    // Nothing stood out: the whole body is the article, wrapped in a fresh div the cleaner may judge.
    const wrapper = new ElementNode('div', {})
    wrapper.children = ctx.body.children.slice()
    wrapper.parent = ctx.body
    wrapper.scoreRun = run
    return { roots: [wrapper], asDiv: new Set() }
  }

  // Several strong candidates sharing an ancestor means the article spans them.
  const alternatives: Array<Set<ElementNode>> = []
  for (let i = 1; i < top.length; i++) {
    const alt = top[i] as ElementNode
    if (alt.score / best.score >= 0.75) alternatives.push(ancestorSet(alt))
  }
  if (alternatives.length >= 3) {
    for (let p = best.parent; !isTop(p); p = (p as ElementNode).parent) {
      const node = p as ElementNode
      let lists = 0
      for (const a of alternatives) if (a.has(node)) lists++
      if (lists >= 3) {
        best = node
        break
      }
    }
  }
  if (best.scoreRun !== run) initialize(best, run, flags)

  // A parent scoring higher than its child means content is spread over more than one child.
  let parent = best.parent
  let lastScore = best.score
  const threshold = lastScore / 3
  while (!isTop(parent)) {
    const node = parent as ElementNode
    if (node.scoreRun !== run) {
      parent = node.parent
      continue
    }
    if (node.score < threshold) break
    if (node.score > lastScore) {
      best = node
      break
    }
    lastScore = node.score
    parent = node.parent
  }

  // An only child says nothing; its parent's siblings are where related content lives. Siblings without
  // text (image slots, spacers, emptied ad boxes) do not make it less alone.
  parent = best.parent
  while (!isTop(parent) && soleTextChild(parent as ElementNode, run) === best) {
    best = parent as ElementNode
    parent = best.parent
  }
  if (best.scoreRun !== run) initialize(best, run, flags)

  const roots: ElementNode[] = []
  const asDiv = new Set<ElementNode>()
  const container = best.parent
  if (container === null) return { roots: [best], asDiv }
  const siblingThreshold = Math.max(10, best.score * 0.2)
  const bestClass = best.attrs.class ?? ''
  for (const sibling of liveElementChildren(container, run)) {
    let append = sibling === best
    if (!append) {
      const sameClass = bestClass !== '' && (sibling.attrs.class ?? '') === bestClass
      const bonus = sameClass ? best.score * 0.2 : 0
      const score = sameClass ? chainScore(sibling, run) : sibling.scoreRun === run ? sibling.score : null
      if (score !== null && score + bonus >= siblingThreshold) {
        append = true
      } else if (sibling.tag === 'p') {
        const text = textOf(sibling, run)
          .trim()
          .replace(/\s{2,}/g, ' ')
        const density = linkDensity(sibling)
        if (text.length > 80 && density < 0.25) append = true
        else if (text.length > 0 && text.length < 80 && density === 0 && /\.( |$)/.test(text)) append = true
      }
    }
    if (append) {
      roots.push(sibling)
      if (!KEEP_TAG_SIBLINGS.has(sibling.tag)) asDiv.add(sibling)
    }
  }
  return { roots, asDiv }
}
