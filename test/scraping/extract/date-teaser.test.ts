// inTeaser: a date beside another article's linked title is that article's; the page's own byline is not a teaser.
import { describe, expect, it } from 'vitest'
import { inTeaser } from '../../../src/scraping/extract/date-teaser.ts'
import type { ElementNode } from '../../../src/scraping/extract/dom.ts'
import { lineOf, textWithin } from '../../../src/scraping/extract/dom.ts'
import { parseHtml } from '../../../src/scraping/extract/parse-html.ts'

function dateAndHeadline(body: string): { date: ElementNode; headline: Set<ElementNode> } {
  const page = parseHtml(`<html><body>${body}</body></html>`)
  const date = page.dateNodes.find((n) => n.tag === 'time')?.el
  if (!date) throw new Error('no <time> in the markup')
  return { date, headline: lineOf(page.headings.find((h) => h.tag === 'h1') ?? null) }
}

describe('inTeaser', () => {
  it('finds a date beside a linked title in a small block', () => {
    const { date, headline } = dateAndHeadline(
      '<h1>Title</h1><ul><li><a href="/other">Another article with a long enough title</a><time datetime="2020-01-01">1 Jan</time></li></ul>',
    )
    expect(inTeaser(date, headline)).toBe(true)
  })

  it("leaves the page's own byline: author and comment links, a permalinked headline, a permalink on the date", () => {
    const byline = dateAndHeadline(
      '<h1>Title</h1><p><a href="/author/jane" rel="author">Jane Doe of the regional news desk</a> <a href="/story#comments">Three comments on the article title</a> <time datetime="2020-01-01">1 Jan</time></p>',
    )
    expect(inTeaser(byline.date, byline.headline)).toBe(false)
    const header = dateAndHeadline(
      '<header><h1><a href="/story">The headline of this very article, linked</a></h1><time datetime="2020-01-01">1 Jan</time></header>',
    )
    expect(inTeaser(header.date, header.headline)).toBe(false)
    const permalink = dateAndHeadline('<h1>Title</h1><p><a href="/story"><time datetime="2020-01-01">1 January 2020, 10:00</time></a></p>')
    expect(inTeaser(permalink.date, permalink.headline)).toBe(false)
  })

  it('stops at a block too long to be a teaser', () => {
    const { date, headline } = dateAndHeadline(
      `<h1>Title</h1><div><p>${'Article text. '.repeat(60)}</p><a href="/other">Another article with a long enough title</a><time datetime="2020-01-01">1 Jan</time></div>`,
    )
    expect(inTeaser(date, headline)).toBe(false)
  })
})

describe('textWithin', () => {
  it('gives the text of a small subtree and null past the limit', () => {
    const page = parseHtml('<html><body><p>abc <b>def</b></p></body></html>')
    expect(textWithin(page.body, 10)).toBe('abc def')
    expect(textWithin(page.body, 5)).toBeNull()
  })
})
