// What the candidate pass strips as unlikely furniture before scoring, and what it must leave.
import { describe, expect, it } from 'vitest'
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
