// Links for further crawl hops: absolute, http(s) only, fragment-free, deduplicated, <base> honoured.
import { describe, expect, it } from 'vitest'
import { extractPage } from '../../../src/scraping/extract/extract-page.ts'

const body = `
  <a href="/a">A</a> <a href="/a#section">A again</a> <a href="b/c?x=1#top">relative</a>
  <a href="https://other.example.org/x">other</a> <a href="//cdn.example.net/y">scheme-relative</a>
  <a href="#top">fragment only</a> <a href="mailto:me@example.com">mail</a> <a href="javascript:void(0)">js</a>
  <a href="ftp://files.example.com/z">ftp</a> <a href="http://[bad">broken</a> <a>no href</a>
  <map><area href="/from-area"></map>
  <p>Enough words to be a paragraph of text, so that the page has some content to speak of.</p>`

describe('links', () => {
  it('resolves against the page URL', () => {
    const { links } = extractPage(`<html><body>${body}</body></html>`, 'https://site.example.com/dir/page.html')
    expect(links).toEqual([
      'https://site.example.com/a',
      'https://site.example.com/dir/b/c?x=1',
      'https://other.example.org/x',
      'https://cdn.example.net/y',
      'https://site.example.com/from-area',
    ])
  })

  it('resolves against <base href>, itself relative to the page', () => {
    const { links } = extractPage(`<html><head><base href="/root/"></head><body>${body}</body></html>`, 'https://site.example.com/dir/page.html')
    expect(links).toContain('https://site.example.com/root/b/c?x=1')
    expect(links).toContain('https://site.example.com/a')
  })

  it('keeps absolute links when the page URL is unusable', () => {
    const { links } = extractPage(`<html><body>${body}</body></html>`, 'not a url')
    expect(links).toEqual(['https://other.example.org/x'])
  })

  it('resolves canonical and og:image to absolute URLs', () => {
    const { metadata } = extractPage(
      '<html><head><link rel="canonical" href="/story#x"><meta property="og:image" content="/img/1.jpg"><meta name="robots" content="noindex"></head><body><p>x</p></body></html>',
      'https://site.example.com/story?utm=1',
    )
    expect(metadata.canonical_url).toBe('https://site.example.com/story')
    expect(metadata.og_image).toBe('https://site.example.com/img/1.jpg')
    expect(metadata.robots).toBe('noindex')
  })
})
