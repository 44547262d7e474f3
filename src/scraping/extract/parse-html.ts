// Builds the tiny DOM straight from htmlparser2's tokenizer and, in the same single pass, records the
// page facts the other extractors need (meta tags, JSON-LD, links, ad markers). We drive the tokenizer
// ourselves instead of using htmlparser2's Parser because the Parser keeps its open-element stack with
// Array.unshift/indexOf, which turns pathological nesting into quadratic time.

import type { TokenizerCallbacks } from 'htmlparser2'
import { Tokenizer } from 'htmlparser2'
import type { ScriptDate } from './date-script.ts'
import { scriptPublishedDate } from './date-script.ts'
import { ElementNode, TextNode } from './dom.ts'
import type { RawSignals } from './raw-signals.ts'
import { emptyRawSignals, noteInlineScript, noteOpenTag } from './raw-signals.ts'

/** Deeper elements are flattened into their ancestor at this depth, so every later pass may recurse. */
export const MAX_TREE_DEPTH = 300

export interface ParsedPage {
  /** Elements in the tree (flattened and skipped ones excluded). */
  elementCount: number
  root: ElementNode
  body: ElementNode
  htmlLang: string | null
  baseHref: string | null
  /** Text of the first <title> outside SVG. */
  title: string | null
  metas: Array<Record<string, string>>
  linkTags: Array<Record<string, string>>
  jsonLd: string[]
  /** The first publication-keyed date found in an inline (non-JSON-LD) script: a CMS's serialised record. */
  scriptDate: ScriptDate | null
  /** Raw href of every <a>/<area>, visible or not, in document order. */
  hrefs: string[]
  anchors: ElementNode[]
  /** <time> elements and elements carrying itemprop date markup, for the date extractor. */
  dateNodes: Array<{ attrs: Record<string, string>; el: ElementNode | null; tag: string }>
  headings: ElementNode[]
  signals: RawSignals
}

const IMPLIES_CLOSE: Record<string, readonly string[]> = (() => {
  const p = ['p']
  const form = ['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']
  const table: Record<string, readonly string[]> = {
    tr: ['tr', 'th', 'td'],
    th: ['th'],
    td: ['thead', 'th', 'td'],
    body: ['head', 'link', 'script'],
    li: ['li'],
    option: ['option'],
    optgroup: ['optgroup', 'option'],
    dd: ['dd', 'dt'],
    dt: ['dd', 'dt'],
    rt: ['rt', 'rp'],
    rp: ['rt', 'rp'],
    tbody: ['thead', 'tbody'],
    tfoot: ['thead', 'tbody'],
  }
  for (const t of ['select', 'input', 'output', 'button', 'datalist', 'textarea']) table[t] = form
  const closesP =
    'p h1 h2 h3 h4 h5 h6 address article aside blockquote details div dl fieldset figcaption figure footer form header hr main nav ol pre section table ul'
  for (const t of closesP.split(' ')) table[t] = p
  return table
})()

const VOID = new Set([
  'area',
  'base',
  'basefont',
  'br',
  'col',
  'command',
  'embed',
  'frame',
  'hr',
  'img',
  'input',
  'isindex',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
])

/** Subtrees that never hold readable text; their text is captured only where a fact needs it. */
const SKIP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'textarea', 'select', 'title'])
/** Kept as (childless) elements because the cleaner looks at them, but their fallback content is dropped. */
const OPAQUE = new Set(['iframe', 'object'])

const HIDDEN_STYLE = /display\s*:\s*none|visibility\s*:\s*hidden/i

function isHidden(attrs: Record<string, string>): boolean {
  if (attrs.hidden !== undefined) return true
  const aria = attrs['aria-hidden']
  if (aria === 'true' && !(attrs.class ?? '').includes('fallback-image')) return true
  const style = attrs.style
  if (style !== undefined && (style.includes('none') || style.includes('hidden')) && HIDDEN_STYLE.test(style)) return true
  return attrs['aria-modal'] === 'true' && attrs.role === 'dialog'
}

function codePointToString(cp: number): string {
  return cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : '\uFFFD'
}

class TreeBuilder implements TokenizerCallbacks {
  readonly page: ParsedPage
  private readonly names: string[] = []
  /** Element that receives children for each stack entry (the ancestor itself once past MAX_TREE_DEPTH). */
  private readonly els: ElementNode[] = []
  private readonly openCount = new Map<string, number>()
  private realDepth = 0
  private skipDepth = 0
  private skipTag = ''
  private captured = ''
  private capturedAttrs: Record<string, string> = {}
  private foreignDepth = 0
  private tagName = ''
  private attrs: Record<string, string> = {}
  private attrName = ''
  private attrValue = ''
  private inHead = false

  constructor(private readonly html: string) {
    const root = new ElementNode('#root', {})
    this.page = {
      elementCount: 0,
      root,
      body: root,
      htmlLang: null,
      baseHref: null,
      title: null,
      metas: [],
      linkTags: [],
      jsonLd: [],
      scriptDate: null,
      hrefs: [],
      anchors: [],
      dateNodes: [],
      headings: [],
      signals: emptyRawSignals(),
    }
  }

  private get current(): ElementNode {
    return this.els.length > 0 ? (this.els[this.els.length - 1] as ElementNode) : this.page.root
  }

  onopentagname(start: number, end: number): void {
    this.tagName = this.html.slice(start, end).toLowerCase()
    this.attrs = {}
  }

  onattribname(start: number, end: number): void {
    this.attrName = this.html.slice(start, end).toLowerCase()
    this.attrValue = ''
  }

  onattribdata(start: number, end: number): void {
    this.attrValue += this.html.slice(start, end)
  }

  onattribentity(cp: number): void {
    this.attrValue += codePointToString(cp)
  }

  onattribend(): void {
    if (!Object.prototype.hasOwnProperty.call(this.attrs, this.attrName)) this.attrs[this.attrName] = this.attrValue
    this.attrValue = ''
  }

  onopentagend(): void {
    this.open(this.tagName, this.attrs)
  }

  onselfclosingtag(): void {
    const name = this.tagName
    this.open(name, this.attrs)
    // Only foreign content (SVG, MathML) honours "/>"; in HTML it is ignored, as browsers do.
    if (this.foreignDepth > 0 && !VOID.has(name)) this.closeName(name)
  }

  onclosetag(start: number, end: number): void {
    const name = this.html.slice(start, end).toLowerCase()
    if (VOID.has(name)) {
      if (name === 'br') {
        this.open('br', {})
      }
      return
    }
    // As in a browser, </body> and </html> close nothing: what follows them (a footer a template prints
    // late, the rest of a post whose pasted document ended early) is still in the body.
    if (name === 'body' || name === 'html') return
    if ((this.openCount.get(name) ?? 0) > 0) this.closeName(name)
    else if (name === 'p') {
      this.open('p', {})
      this.closeName('p')
    }
  }

  ontext(start: number, end: number): void {
    this.addText(this.html.slice(start, end))
  }

  ontextentity(cp: number): void {
    this.addText(codePointToString(cp))
  }

  oncdata(): void {}
  oncomment(): void {}
  ondeclaration(): void {}
  onprocessinginstruction(): void {}
  onend(): void {
    while (this.names.length > 0) this.pop()
  }

  private addText(text: string): void {
    if (this.skipDepth > 0) {
      if (this.skipTag === 'script' || this.skipTag === 'title') this.captured += text
      return
    }
    const parent = this.current
    const last = parent.children[parent.children.length - 1]
    if (last !== undefined && last.isText) {
      last.text += text
    } else {
      const node = new TextNode(text)
      node.parent = parent
      parent.children.push(node)
    }
  }

  private open(name: string, attrs: Record<string, string>): void {
    const implied = IMPLIES_CLOSE[name]
    if (implied !== undefined) {
      while (this.names.length > 0 && implied.includes(this.names[this.names.length - 1] as string)) this.pop()
    }
    this.noteFacts(name, attrs)
    const isVoid = VOID.has(name)

    let el: ElementNode | null = null
    let startSkip = false
    let transparent = false
    if (this.skipDepth > 0) {
      if (!isVoid) this.skipDepth++
    } else if (SKIP.has(name) || (isHidden(attrs) && name !== 'html' && name !== 'body')) {
      startSkip = true
    } else if (this.pastedDocumentTag(name)) {
      // A document pasted into a post (<div class="entry-content"><html><head>…<body><p>…) is part of the
      // post: as in a browser, its <html>, <head> and <body> make no element and their content stays
      // where it is.
      transparent = true
    } else {
      if (this.realDepth < MAX_TREE_DEPTH) {
        // <font> is a span in all but name (Readability renames it too; the cleaner counts spans).
        el = new ElementNode(name === 'font' ? 'span' : name, attrs)
        const parent = this.current
        el.parent = parent
        parent.children.push(el)
        this.noteElement(el)
      }
      startSkip = OPAQUE.has(name)
    }

    if (isVoid) return
    if (startSkip) {
      this.skipDepth = 1
      this.skipTag = name
      this.captured = ''
      this.capturedAttrs = attrs
    }
    this.names.push(name)
    this.els.push(el ?? this.current)
    if (el !== null) this.realDepth++
    this.openCount.set(name, (this.openCount.get(name) ?? 0) + 1)
    if (name === 'svg' || name === 'math') this.foreignDepth++
    if (name === 'head' && !transparent) this.inHead = true
  }

  /** A second <html> or <body>, or a <head> once the body has begun. */
  private pastedDocumentTag(name: string): boolean {
    if (name === 'head') return this.page.body !== this.page.root
    return (name === 'html' || name === 'body') && (this.openCount.get(name) ?? 0) > 0
  }

  private closeName(name: string): void {
    while (this.names.length > 0) {
      const top = this.pop()
      if (top === name) return
    }
  }

  private pop(): string {
    const name = this.names.pop() as string
    const el = this.els.pop() as ElementNode
    const below = this.els.length > 0 ? this.els[this.els.length - 1] : this.page.root
    if (el !== below) this.realDepth--
    this.openCount.set(name, (this.openCount.get(name) ?? 1) - 1)
    if (name === 'svg' || name === 'math') this.foreignDepth--
    if (name === 'head') this.inHead = false
    if (this.skipDepth > 0) {
      this.skipDepth--
      if (this.skipDepth === 0) this.endSkipped(name)
    }
    return name
  }

  private endSkipped(name: string): void {
    const text = this.captured
    this.captured = ''
    if (name === 'script') {
      const type = (this.capturedAttrs.type ?? '').toLowerCase()
      if (type === 'application/ld+json') this.page.jsonLd.push(text)
      else if (text.length > 0) {
        noteInlineScript(this.page.signals, text)
        if (this.page.scriptDate === null) this.page.scriptDate = scriptPublishedDate(text)
      }
    } else if (name === 'title' && this.page.title === null && this.foreignDepth === 0) {
      this.page.title = text
    }
  }

  /** Facts gathered for every tag, including those inside skipped or hidden subtrees. */
  private noteFacts(name: string, attrs: Record<string, string>): void {
    noteOpenTag(this.page.signals, name, attrs, this.inHead)
    switch (name) {
      case 'html':
        // XHTML pages may give only xml:lang.
        if (this.page.htmlLang === null) this.page.htmlLang = attrs.lang || attrs['xml:lang'] || null
        break
      case 'meta':
        this.page.metas.push(attrs)
        break
      case 'link':
        this.page.linkTags.push(attrs)
        break
      case 'base':
        if (this.page.baseHref === null && attrs.href) this.page.baseHref = attrs.href
        break
      case 'a':
      case 'area':
        if (attrs.href !== undefined) this.page.hrefs.push(attrs.href)
        break
    }
    if (name === 'time' || (attrs.itemprop !== undefined && /date/i.test(attrs.itemprop))) {
      if (this.page.dateNodes.length < 200) this.page.dateNodes.push({ attrs, el: null, tag: name })
    }
  }

  /** Facts that need the element itself (its text comes later). */
  private noteElement(el: ElementNode): void {
    this.page.elementCount++
    const tag = el.tag
    if (tag === 'body' && this.page.body === this.page.root) this.page.body = el
    else if (tag === 'a') this.page.anchors.push(el)
    else if (tag === 'h1' || tag === 'h2') this.page.headings.push(el)
    const last = this.page.dateNodes[this.page.dateNodes.length - 1]
    if (last !== undefined && last.attrs === el.attrs) last.el = el
  }
}

/** Parses HTML into the tiny DOM. Never throws on malformed input. */
export function parseHtml(html: string): ParsedPage {
  const builder = new TreeBuilder(html)
  const tokenizer = new Tokenizer({ decodeEntities: true }, builder)
  tokenizer.write(html)
  tokenizer.end()
  return builder.page
}
