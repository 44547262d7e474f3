// What the candidate pass strips as unlikely furniture before scoring, what it must leave, and how it
// finds an article that the template splits into several sections.
import { describe, expect, it } from 'vitest'
import type { ElementNode } from '../../../src/scraping/extract/dom.ts'
import { extractMainText } from '../../../src/scraping/extract/main-text.ts'
import { parseHtml } from '../../../src/scraping/extract/parse-html.ts'

const prose = 'The quadratic formula gives both roots of a second-degree polynomial, and it is taught in every school. '.repeat(6)

describe('unlikely candidates', () => {
  it('keeps MathJax formulas although their context-menu class names a menu (as Readability does)', () => {
    const html = `<html><body><div class="post"><p>${prose}</p><p>When</p>
      <mjx-container class="MathJax CtxtMenu_Attached_0" jax="CHTML"><mjx-math aria-hidden="true"><mjx-mi>a</mjx-mi></mjx-math>
      <mjx-assistive-mml unselectable="on"><math><mi>a</mi><mo>≠</mo><mn>0</mn></math></mjx-assistive-mml></mjx-container>
      <p>${prose}</p><div class="menu">Home About Contact</div></div></body></html>`
    const result = extractMainText(parseHtml(html), 'Formulas', true)
    expect(result.text).toMatch(/a\s*≠\s*0/)
    expect(result.text).not.toContain('Home About')
  })
})

/** A paragraph of `n` sentences that all start with `word`, so each section can be found in the output. */
const para = (word: string, n: number): string => `<p>${`${word} sentences carry the argument further, step by step, to its end. `.repeat(n)}</p>`

describe('articles split into sections', () => {
  it('climbs past siblings without text, so the sections beside the container join it', () => {
    // Each section wraps its text in a row that has an empty spacer row before it, as grid templates do.
    const section = (word: string): string =>
      `<div class="topic"><div class="row"><img src="/spacer.gif"></div><div class="row"><div class="col">${para(word, 3)}${para(word, 3)}</div></div></div>`
    const html = `<html><body>${section('First')}<div class="table-box"><table><tr><td>a</td><td>1</td></tr></table></div>${section('Second')}${section('Third')}
      <div class="site-links"><a href="/a">About us</a> <a href="/b">Contact</a></div></body></html>`
    const result = extractMainText(parseHtml(html), 'Sections', true)
    for (const word of ['First', 'Second', 'Third']) expect(result.text).toContain(`${word} sentences`)
    expect(result.text).not.toContain('About us')
  })

  it('reads a same-class sibling through its wrappers: its text counts where it sits, not at the row', () => {
    // Page builders nest each text block five wrappers deep in a row; the paragraphs' scores never reach the rows.
    const row = (word: string, n: number): string =>
      `<div class="vc_row"><div class="col"><div class="inner"><div class="wrapper"><div class="text_column">${para(word, n)}${para(word, n)}</div></div></div></div></div>`
    const html = `<html><body><div class="entry-content">${row('Opening', 4)}${row('Middle', 3)}${row('Closing', 2)}</div>
      <div class="box"><p>Visit our shop for more bags and hats this summer.</p></div></body></html>`
    const result = extractMainText(parseHtml(html), 'Rows', true)
    for (const word of ['Opening', 'Middle', 'Closing']) expect(result.text).toContain(`${word} sentences`)
    expect(result.text).not.toContain('Visit our shop')
  })
})

describe('a document pasted into a post', () => {
  it('keeps the post whole: a second <html> or <body> inside it makes no element, as in a browser', () => {
    const html = `<html><body><div class="site"><article><div class="entry-content"><html><body>${para('Opening', 4)}${para('Middle', 4)}
      <div class="faq-box"><p>Short question?</p>${para('Answer', 2)}</div></body></html></div></article>
      <aside class="sidebar"><a href="/a">More recipes</a></aside></div></body></html>`
    const page = parseHtml(html)
    // The paragraphs sit in the post's container, so their scores reach it and the article around it.
    const find = (el: ElementNode): ElementNode | undefined =>
      el.attrs.class === 'entry-content'
        ? el
        : el.children
            .filter((c) => !c.isText)
            .map((c) => find(c as ElementNode))
            .find((x) => x !== undefined)
    const entry = find(page.body)
    expect(entry?.children.filter((c) => !c.isText).map((c) => (c as ElementNode).tag)).toEqual(['p', 'p', 'div'])
    const result = extractMainText(page, 'Pasted', true)
    expect(result.text).toContain('Opening sentences')
    expect(result.text).toContain('Middle sentences')
    expect(result.text).toContain('Answer sentences')
  })

  it("makes no element of a pasted document's <head>, which would hold the post's paragraphs when left open", () => {
    const page = parseHtml(
      `<html><head><title>Site</title></head><body><div class="post"><html><head><meta name="x" content="y">${para('Opening', 4)}${para('Closing', 4)}</div></body></html>`,
    )
    expect(page.title).toBe('Site')
    const post = page.body.children.find((c) => !c.isText) as ElementNode
    expect(post.children.filter((c) => !c.isText).map((c) => (c as ElementNode).tag)).toEqual(['meta', 'p', 'p'])
  })

  it('keeps what follows an early </body> in the body, as a browser does', () => {
    const html = `<html><body><div class="post">${para('Opening', 4)}</body></html>${para('Closing', 4)}</div>`
    const result = extractMainText(parseHtml(html), 'Early end', true)
    expect(result.text).toContain('Opening sentences')
    expect(result.text).toContain('Closing sentences')
  })
})
