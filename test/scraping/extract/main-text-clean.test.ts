// The cleaner on the chosen article: captions go, and a class name alone never takes the article body.
import { describe, expect, it } from 'vitest'
import { extractMainText } from '../../../src/scraping/extract/main-text.ts'
import { parseHtml } from '../../../src/scraping/extract/parse-html.ts'

const prose = (n: number): string =>
  `<p>${'The council met on Tuesday to discuss the new bridge, which residents have asked for since the flood, and agreed on a budget. '.repeat(n)}</p>`

function run(body: string): string {
  return extractMainText(parseHtml(`<html><body>${body}</body></html>`), 'Bridge approved', true).text
}

describe('captions', () => {
  it('drops the caption and credit of a figure even when the template writes them as bare divs', () => {
    const text = run(`<article>${prose(3)}
      <figure class="Figure"><img src="/bridge.jpg"><div class="Figure-content">
        <div class="Figure-caption">The old bridge before the flood took its middle span.</div>
        <div class="Figure-credit">(Jane Roe / Associated Press)</div></div></figure>
      ${prose(3)}</article>`)
    expect(text).toContain('The council met on Tuesday')
    expect(text).not.toContain('middle span')
    expect(text).not.toContain('Associated Press')
  })

  it('keeps a div that only mentions a credit outside a figure', () => {
    const text = run(`<article>${prose(4)}<div class="credit-union">The credit union will lend part of the money.</div>${prose(1)}</article>`)
    expect(text).toContain('The credit union will lend')
  })
})

describe('conditional cleaning', () => {
  it('keeps a block holding half the article although its class reads negative ("field--label-hidden")', () => {
    const text = run(`<main><div class="layout-content">
      <div class="intro-block">${prose(5)}</div>
      <div class="field field--label-hidden">${prose(4).replaceAll('The council', 'The mayor')}${prose(4).replaceAll('The council', 'The mayor')}</div>
    </div></main>`)
    expect(text).toContain('The council met')
    expect(text).toContain('The mayor met')
  })

  it('still drops a small block whose class reads negative', () => {
    const text = run(
      `<main><div class="layout-content">${prose(6)}<div class="share-widget"><p>Tell your friends about this bridge story today, please.</p></div>${prose(2)}</div></main>`,
    )
    expect(text).toContain('The council met')
    expect(text).not.toContain('Tell your friends')
  })
})
