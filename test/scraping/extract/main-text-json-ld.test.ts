// The JSON-LD article body stands in for the main text of a page rendered in the browser.
import { describe, expect, it } from 'vitest'
import { extractPage } from '../../../src/scraping/extract/extract-page.ts'
import { jsonLdArticleBody, withJsonLdBody } from '../../../src/scraping/extract/main-text-json-ld.ts'

const sentence = (i: number): string => `Sentence ${i} of the story tells the reader something new about the harbour, the ships and the town.`
const story = (n: number, sep = '\n'): string => Array.from({ length: n }, (_, i) => sentence(i)).join(sep)
const page = (articleBody: string, shown: string): string =>
  `<html><head><title>Harbour story</title><script type="application/ld+json">${JSON.stringify({
    '@context': 'https://schema.org',
    '@type': 'NewsArticle',
    headline: 'Harbour story',
    articleBody,
  })}</script></head><body><div id="app"><h1>Harbour story</h1>${shown}</div></body></html>`

describe('withJsonLdBody', () => {
  it('takes the JSON-LD body when the page shows only a shell', () => {
    const r = extractPage(page(story(30), ''), 'https://news.example/harbour')
    expect(r.content?.full_text).toContain(sentence(0))
    expect(r.content?.full_text).toContain(sentence(29))
    // One paragraph per line of the field.
    expect(r.content?.full_text.split('\n\n')).toHaveLength(30)
  })

  it('keeps the page text when the page shows the article', () => {
    const shown = Array.from({ length: 12 }, (_, i) => `<p>${sentence(100 + i)} It goes on for a while, with commas, clauses, and detail.</p>`).join('')
    const r = extractPage(page(story(30), shown), 'https://news.example/harbour')
    expect(r.content?.full_text).toContain(sentence(100))
    expect(r.content?.full_text).not.toContain(sentence(0))
  })

  it('keeps the page text when the JSON-LD body is a teaser, not an article', () => {
    const shell = '<p>Alice Wu writes about local politics and has done so since 2008, with lattes and journals.</p>'
    expect(withJsonLdBody('Alice Wu writes about local politics.', [{ articleBody: story(3) }]).text).toBe('Alice Wu writes about local politics.')
    const r = extractPage(page(story(3), shell), 'https://news.example/harbour')
    expect(r.content?.full_text).toContain('Alice Wu')
  })

  it('resolves markup and entities in the field, and ignores what is not a string', () => {
    const html = `<p>Tom &amp; Jerry&#8217;s harbour</p><p>${story(20, ' ')}</p><script>alert(1)</script>`
    expect(jsonLdArticleBody([{ articleBody: 42 }, { articleBody: html }, { articleBody: ['x'] }])).toBe(`Tom & Jerry’s harbour\n\n${story(20, ' ')}`)
    expect(jsonLdArticleBody([{ articleBody: '   ' }, { headline: 'x' }])).toBeNull()
  })
})
