// Made-for-advertising signals: an ad-stuffed slideshow page must light them up, a clean article not.
import { describe, expect, it } from 'vitest'
import { extractPage } from '../../../src/scraping/extract/extract-page.ts'

const sentence = 'The committee met on Tuesday to discuss the new budget, which includes funding for schools, roads and parks. '

function cleanArticle(): string {
  const paragraphs = Array.from({ length: 8 }, (_, i) => `<p>${sentence.repeat(3)} Paragraph ${i + 1}.</p>`).join('\n')
  return `<!doctype html><html lang="en"><head><title>Budget approved | Town News</title>
    <meta name="description" content="The town budget was approved."></head>
    <body><header><nav><a href="/">Home</a> <a href="/news">News</a></nav></header>
    <article><h1>Budget approved</h1>${paragraphs}
    <p>Read the <a href="https://council.example.org/minutes.pdf">minutes</a>.</p></article>
    <footer><a href="/about">About</a></footer></body></html>`
}

function adStuffedSlideshow(): string {
  const slot = (i: number): string =>
    `<div id="div-gpt-ad-${i}" class="ad-slot"></div><ins class="adsbygoogle" data-ad-client="ca-pub-1" data-ad-slot="${i}"></ins>` +
    `<iframe src="https://tpc.googlesyndication.com/safeframe/${i}.html"></iframe>`
  return `<!doctype html><html><head><title>20 Celebrities You Won't Believe - Slide 3</title>
    <meta http-equiv="refresh" content="30">
    <script async src="https://securepubads.g.doubleclick.net/tag/js/gpt.js"></script>
    <script async src="https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js"></script>
    <script>googletag.cmd.push(function(){ googletag.defineSlot('/1/a',[300,250],'div-gpt-ad-1'); googletag.defineSlot('/1/b',[728,90],'div-gpt-ad-2'); });
      setTimeout(function(){ location.reload() }, 60000)</script></head>
    <body>${slot(1)}${slot(2)}
    <div class="slideshow"><h1>20 Celebrities You Won't Believe</h1><div class="counter">Slide 3 of 20</div>
    <img src="/img/3.jpg"><p>Number three will shock you. ${sentence}</p>
    ${slot(3)}
    <a href="/gallery/celebs?page=2">Previous</a> <a href="/gallery/celebs?page=4" rel="next">Next slide</a></div>
    ${slot(4)}${slot(5)}
    <a href="https://www.taboola.com/x">Sponsored</a> <a href="https://other.example.net/y">You may like</a></body></html>`
}

describe('page signals', () => {
  it('flag an ad-stuffed, auto-refreshing slideshow', () => {
    const s = extractPage(adStuffedSlideshow(), 'https://celebs.example.com/gallery/celebs?page=3').signals
    expect(s.ad_slot_count).toBeGreaterThanOrEqual(5)
    expect(s.ad_slots_per_1000_words).toBeGreaterThanOrEqual(50)
    expect(s.ad_iframe_count).toBe(5)
    expect(s.ad_script_count).toBe(2)
    expect(s.has_meta_refresh).toBe(true)
    expect(s.meta_refresh_seconds).toBe(30)
    expect(s.has_js_refresh).toBe(true)
    expect(s.has_next_link).toBe(true)
    expect(s.slideshow_pattern).toBe(true)
    expect(s.url_is_paginated).toBe(true)
    expect(s.pagination_link_count).toBe(2)
    expect(s.outbound_link_count).toBe(2)
  })

  it('stay quiet on a clean article', () => {
    const page = extractPage(cleanArticle(), 'https://news.example.com/2024/05/01/budget')
    const s = page.signals
    expect(s.ad_slot_count).toBe(0)
    expect(s.ad_slots_per_1000_words).toBe(0)
    expect(s.ad_script_count).toBe(0)
    expect(s.has_meta_refresh).toBe(false)
    expect(s.has_js_refresh).toBe(false)
    expect(s.has_next_link).toBe(false)
    expect(s.slideshow_pattern).toBe(false)
    expect(s.url_is_paginated).toBe(false)
    expect(s.outbound_link_count).toBe(1)
    expect(s.internal_link_count).toBe(3)
    expect(s.paragraph_count).toBe(9)
    expect(s.main_paragraph_count).toBeGreaterThanOrEqual(8)
    expect(s.main_text_ratio).toBeGreaterThan(0.8)
    expect(page.content?.word_count).toBeGreaterThan(400)
  })
})
