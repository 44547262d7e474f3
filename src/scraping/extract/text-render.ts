// Turns the cleaned article subtree into readable plain text: one paragraph per block, list items and
// table rows on their own lines, whitespace inside a paragraph collapsed.
import type { ElementNode } from './dom.ts'

const PARAGRAPH = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'center',
  'details',
  'dialog',
  'div',
  'dl',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'ul',
  'caption',
  'menu',
])
const LINE = new Set(['li', 'tr', 'dt', 'dd', 'br', 'option', 'tbody', 'thead', 'tfoot'])
const CELL = new Set(['td', 'th'])
/** Soft hyphens, zero-width spaces and BOMs: invisible, but they split words for search and matching (ZWJ/ZWNJ carry meaning in some scripts and stay). */
const INVISIBLE = /[\u00AD\u200B\u2060\uFEFF]/g

class Writer {
  private out: string[] = []
  /** 0: inside text, 1: a line break is pending, 2: a paragraph break is pending. */
  private pendingBreak = 0
  private pendingSpace = false
  private started = false

  text(raw: string, pre: boolean): void {
    if (pre) {
      if (raw.length === 0) return
      this.emitBreak()
      this.out.push(raw)
      this.started = true
      return
    }
    const collapsed = raw.replace(INVISIBLE, '').replace(/\s+/g, ' ')
    if (collapsed === ' ' || collapsed === '') {
      if (collapsed === ' ') this.pendingSpace = true
      return
    }
    const leading = collapsed.charCodeAt(0) === 32
    const trailing = collapsed.charCodeAt(collapsed.length - 1) === 32
    const body = collapsed.slice(leading ? 1 : 0, trailing ? -1 : undefined)
    if (this.pendingBreak > 0) this.emitBreak()
    else if ((this.pendingSpace || leading) && this.started) this.out.push(' ')
    this.out.push(body)
    this.started = true
    this.pendingSpace = trailing
  }

  brk(level: 1 | 2): void {
    if (level > this.pendingBreak) this.pendingBreak = level
    this.pendingSpace = false
  }

  cell(): void {
    this.pendingSpace = true
  }

  private emitBreak(): void {
    if (this.started && this.pendingBreak > 0) this.out.push(this.pendingBreak === 2 ? '\n\n' : '\n')
    else if (this.started && this.pendingSpace) this.out.push(' ')
    this.pendingBreak = 0
    this.pendingSpace = false
  }

  toString(): string {
    return this.out.join('')
  }
}

function renderInto(el: ElementNode, run: number, w: Writer, pre: boolean): void {
  const tag = el.tag
  const isPre = pre || tag === 'pre'
  if (PARAGRAPH.has(tag)) w.brk(2)
  else if (LINE.has(tag)) w.brk(1)
  else if (CELL.has(tag)) w.cell()
  for (const child of el.children) {
    if (child.isText) w.text(child.text, isPre)
    else if (child.gone !== run) renderInto(child, run, w, isPre)
  }
  if (PARAGRAPH.has(tag)) w.brk(2)
  else if (LINE.has(tag) && tag !== 'br') w.brk(1)
  else if (CELL.has(tag)) w.cell()
}

export function renderText(roots: ElementNode[], run: number): string {
  const w = new Writer()
  for (const root of roots) {
    if (root.gone === run) continue
    renderInto(root, run, w, false)
    w.brk(2)
  }
  return w.toString().trim()
}
