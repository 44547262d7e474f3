// Malformed input: never throws, always returns the full shape, and finishes in bounded time.
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { ExtractedPage } from '../../../src/scraping/extract/extract-page.ts'
import { extractPage } from '../../../src/scraping/extract/extract-page.ts'

// A bound that only a hang or a quadratic blow-up crosses, even on a loaded 2-core machine; speed itself is bench extraction's.
const HANG_MS = 20_000

function timed(html: string): { page: ExtractedPage; ms: number } {
  const start = performance.now()
  const page = extractPage(html, 'https://example.com/a/b')
  return { page, ms: performance.now() - start }
}

function expectShape(page: ExtractedPage): void {
  expect(Array.isArray(page.links)).toBe(true)
  expect(typeof page.signals.ad_slot_count).toBe('number')
  expect(typeof page.language_reliable).toBe('boolean')
  expect(Object.keys(page.metadata).sort()).toEqual([
    'author',
    'canonical_url',
    'date_evidence',
    'meta_description',
    'og_description',
    'og_image',
    'og_title',
    'og_type',
    'robots',
  ])
}

const paragraph = `<p>${'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt. '.repeat(12)}</p>\n`

describe('malformed input', () => {
  it('returns an empty result for an empty string', () => {
    const { page } = timed('')
    expectShape(page)
    expect(page.content).toBeNull()
    expect(page.links).toEqual([])
  })

  it('survives binary garbage', () => {
    for (const encoding of ['latin1', 'utf8'] as const) {
      const { page, ms } = timed(randomBytes(300_000).toString(encoding))
      expectShape(page)
      expect(ms).toBeLessThan(3000)
    }
  })

  it('handles a 5 MB article in bounded time', () => {
    const html = `<html><head><title>Big page</title></head><body><article>${paragraph.repeat(Math.ceil(5_000_000 / paragraph.length))}</article></body></html>`
    expect(html.length).toBeGreaterThan(5_000_000)
    const { page, ms } = timed(html)
    expectShape(page)
    expect(page.content?.word_count).toBeGreaterThan(500_000)
    expect(ms).toBeLessThan(HANG_MS)
  })

  it('handles a 5 MB link farm in bounded time', () => {
    const { page, ms } = timed(`<body>${'<a href="/p?i=1">link</a> '.repeat(200_000)}`)
    expectShape(page)
    expect(page.links).toEqual(['https://example.com/p?i=1'])
    expect(ms).toBeLessThan(HANG_MS)
  })

  it('handles very deep nesting, closed and unclosed', () => {
    const closed = `<html><body>${'<div>'.repeat(100_000)}<p>deep text that is the article</p>${'</div>'.repeat(100_000)}</body></html>`
    const unclosed = `<body><p>${'<b><i>x '.repeat(200_000)}`
    for (const html of [closed, unclosed]) {
      const { page, ms } = timed(html)
      expectShape(page)
      expect(ms).toBeLessThan(HANG_MS)
    }
    expect(timed(closed).page.content?.full_text).toContain('deep text that is the article')
  })

  it('handles 200,000 empty siblings before a labelled <time> and a caption, and a 300 KB class', () => {
    const wide = `<body><h1>T</h1><p>${'<i></i>'.repeat(200_000)}Updated <time datetime="2019-11-13">Nov 13</time></p><p class="caption">${'<b></b>'.repeat(200_000)}x © AFP / X</p><p>${'word '.repeat(300)}</p>`
    const { page, ms } = timed(wide)
    expectShape(page)
    expect(page.last_updated_date).toBe('2019-11-13')
    expect(page.content?.full_text).toContain('word word')
    expect(ms).toBeLessThan(HANG_MS)
    const widget = timed(`<body><h1>T</h1><span class="${'site-header'.repeat(30_000)}">Nov 20, 2019</span><p>${'word '.repeat(300)}</p>`)
    expectShape(widget.page)
    expect(widget.ms).toBeLessThan(HANG_MS)
  })

  it('copes with unterminated markup and broken JSON-LD', () => {
    const { page } = timed(
      '<html><head><title>T</title><script type="application/ld+json">{"@type": "NewsArticle", "datePublished": "2020-02-02",}</script><script>var s = "<div>',
    )
    expectShape(page)
    expect(page.published_date).toBe('2020-02-02')
  })

  it('ignores hidden content', () => {
    const { page } = timed(
      `<body><div style="display:none">${paragraph}</div><div hidden>secret</div><div aria-hidden="true">aria</div><article>${paragraph}<p>Visible ending sentence.</p></article></body>`,
    )
    expect(page.content?.full_text).toContain('Visible ending sentence.')
    expect(page.content?.full_text).not.toContain('secret')
    expect(page.content?.full_text).not.toContain('aria')
  })
})
