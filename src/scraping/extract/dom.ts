import type { Span } from './text-stats.ts'
import { EMPTY_SPAN } from './text-stats.ts'

// A deliberately tiny DOM: plain element/text nodes with child arrays and parent links. It is all the
// extractor needs, and building it is several times cheaper than a full DOM (linkedom, jsdom).

export class TextNode {
  readonly isText = true
  parent: ElementNode | null = null
  /** Cached length summary (see text-stats.ts). */
  span: Span | null = null
  constructor(public text: string) {}
}

export class ElementNode {
  readonly isText = false
  parent: ElementNode | null = null
  children: DomNode[] = []

  // Scratch state for the main-text pass. Marks are stamped with the attempt number so that a failed
  // attempt never leaks into the next one without having to copy or re-parse the tree.
  gone = 0
  scoreRun = 0
  score = 0
  /** Normalised text length, link text length and comma count of the live subtree (last computed). */
  textLen = 0
  linkLen = 0
  commas = 0
  span: Span = EMPTY_SPAN
  /** When a wrapper div was replaced by its only paragraph, the div whose class/id still speaks for it. */
  alias: ElementNode | null = null
  dataTable = false

  constructor(
    public tag: string,
    public attrs: Record<string, string>,
  ) {}
}

export type DomNode = ElementNode | TextNode

/** Whether an element under `root` has one of `tags`, optionally skipping nodes removed in attempt `run`. */
export function hasDescendant(root: ElementNode, tags: ReadonlySet<string>, run = 0): boolean {
  const stack: ElementNode[] = [root]
  while (stack.length > 0) {
    const node = stack.pop() as ElementNode
    for (const child of node.children) {
      if (child.isText || (run !== 0 && child.gone === run)) continue
      if (tags.has(child.tag)) return true
      stack.push(child)
    }
  }
  return false
}

/** Text of a subtree, optionally skipping nodes removed in attempt `run`. Iterative: trees can be deep. */
export function textOf(root: ElementNode, run = 0): string {
  let out = ''
  const stack: DomNode[] = [root]
  while (stack.length > 0) {
    const node = stack.pop() as DomNode
    if (node.isText) {
      out += node.text
      continue
    }
    if (run !== 0 && node.gone === run && node !== root) continue
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as DomNode)
  }
  return out
}

/** Text of a subtree, or null once it passes `limit` characters: a size test that stops early on big subtrees. */
export function textWithin(root: ElementNode, limit: number): string | null {
  let out = ''
  const stack: DomNode[] = [...root.children].reverse()
  while (stack.length > 0) {
    const node = stack.pop() as DomNode
    if (node.isText) {
      out += node.text
      if (out.length > limit) return null
      continue
    }
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as DomNode)
  }
  return out
}

/** The element and its ancestors up to the root: "is this block the one that holds X?" in one lookup. */
export function lineOf(el: ElementNode | null): Set<ElementNode> {
  const line = new Set<ElementNode>()
  for (let n = el; n !== null; n = n.parent) line.add(n)
  return line
}

/** An element's class and id as one string ("" when it has neither), which the class-word rules read. */
export function markerOf(el: { attrs: Record<string, string> }): string {
  const { class: cls, id } = el.attrs
  return cls === undefined && id === undefined ? '' : `${cls ?? ''} ${id ?? ''}`
}

/**
 * The flags `test` gives an element's class and id, OR-ed, remembered per attribute value: the same
 * class strings repeat across a page's elements and a site's pages, the tests are long alternations,
 * and a value the parser made keeps its hash, so a look-up is far cheaper than a test. Bounded.
 */
export function classFlags(test: (value: string) => number, max = 10_000): (el: ElementNode) => number {
  const known = new Map<string, number>()
  const of = (value: string | undefined): number => {
    if (value === undefined || value === '') return 0
    let flags = known.get(value)
    if (flags === undefined) {
      flags = test(value)
      if (known.size >= max) known.clear()
      known.set(value, flags)
    }
    return flags
  }
  return (el) => of(el.attrs.class) | of(el.attrs.id)
}
