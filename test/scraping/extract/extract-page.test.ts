// extractPage on real benchmark pages (fixtures/extraction): title, main text, metadata.
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { extractPage } from '../../../src/scraping/extract/extract-page.ts'

const DATA = new URL('../../../fixtures/extraction/', import.meta.url)

function readabilityPage(name: string): string {
  return gunzipSync(readFileSync(new URL(`readability-test-pages/${name}/source.html.gz`, DATA))).toString('utf8')
}

function scrapinghubPage(id: string): { html: string; url: string; body: string } {
  const truth = JSON.parse(readFileSync(new URL('scrapinghub/ground-truth.json', DATA), 'utf8')) as Record<string, { url: string; articleBody: string }>
  const gold = truth[id]
  if (gold === undefined) throw new Error(`no ground truth for ${id}`)
  return { html: gunzipSync(readFileSync(new URL(`scrapinghub/html/${id}.html.gz`, DATA))).toString('utf8'), url: gold.url, body: gold.articleBody }
}

describe('extractPage on a personal blog post (readability test page 001)', () => {
  const page = extractPage(readabilityPage('001'), 'http://fakehost/test/page.html')

  it('keeps the page title', () => {
    expect(page.content?.title).toBe('Get your Frontend JavaScript Code Covered | Code')
  })

  it('extracts the article body, first to last paragraph', () => {
    const text = page.content?.full_text ?? ''
    expect(text.startsWith("So finally you're testing your frontend JavaScript code? Great!")).toBe(true)
    expect(text).toContain('The idea behind code coverage is to record which parts of your code')
    expect(text).toContain('So is code coverage silver bullet? No. Is it useful? Definitely. Happy testing!')
  })

  it('drops the site chrome around the article', () => {
    const text = page.content?.full_text ?? ''
    expect(text).not.toContain('Your browser is')
    expect(text).not.toContain('I code stuff. I take photos. I write rants.')
  })

  it('reports words, language, author and absolute links', () => {
    expect(page.content?.word_count).toBeGreaterThan(550)
    expect(page.content?.word_count).toBeLessThan(750)
    expect(page.content?.language).toBe('en')
    expect(page.language_reliable).toBe(true)
    expect(page.metadata.author).toBe('Nicolas Perriault')
    expect(page.metadata.meta_description).toBe("Nicolas Perriault's homepage.")
    expect(page.links).toContain('http://en.wikipedia.org/wiki/Code_coverage')
    expect(page.links).toContain('http://fakehost/code/2013/testing-frontend-javascript-code-using-mocha-chai-and-sinon/')
    for (const link of page.links) expect(link).toMatch(/^https?:\/\/[^#]*$/)
    expect(new Set(page.links).size).toBe(page.links.length)
  })
})

describe('extractPage on a news article (bbc-1)', () => {
  const page = extractPage(readabilityPage('bbc-1'), 'http://fakehost/test/page.html')

  it('reads Open Graph, canonical and robots metadata', () => {
    expect(page.content?.title).toBe("Obama admits US gun laws are his 'biggest frustration'")
    expect(page.metadata.canonical_url).toBe('http://www.bbc.com/news/world-us-canada-33646704')
    expect(page.metadata.og_title).toBe("Obama admits US gun laws are his 'biggest frustration' - BBC News")
    expect(page.metadata.og_type).toBe('article')
    expect(page.metadata.og_image).toMatch(/^http:\/\/ichef\.bbci\.co\.uk\/news\/1024\/.*\.jpg$/)
    expect(page.metadata.robots).toBe('NOODP,NOYDIR')
  })

  it('keeps the published date with its own offset', () => {
    expect(page.published_date).toBe('2015-07-24T05:36:09+01:00')
  })

  it('finds the ad slots a news page carries', () => {
    expect(page.signals.ad_slot_count).toBeGreaterThan(0)
    expect(page.signals.ad_script_count).toBeGreaterThan(0)
  })
})

describe('extractPage against scrapinghub ground truth', () => {
  it('extracts the WSJ article body and nothing of the page furniture', () => {
    const { html, url, body } = scrapinghubPage('042bb7b5fedab6eac7db576522b89b93904c237d344bcbe14a6a5ab7f7335856')
    const page = extractPage(html, url)
    const text = page.content?.full_text ?? ''
    const firstSentence = body.split('\n')[0] as string
    expect(firstSentence).toBe('Gaming used to be so simple. We’d buy a game, sit down in front of a console or PC, grind our way to the end, then repeat.')
    expect(text).toContain(firstSentence)
    expect(text).toContain('And there is no “end,” because developers keep updating their biggest hits')
    expect(text).not.toMatch(/Subscribe Now|Sign In|Copyright ©/)
    // Words of the gold body that our text covers.
    const ours = new Set(text.toLowerCase().match(/\p{L}+/gu))
    const gold = body.toLowerCase().match(/\p{L}+/gu) ?? []
    const covered = gold.filter((w) => ours.has(w)).length / gold.length
    expect(covered).toBeGreaterThan(0.95)
  })
})

describe('rendered text', () => {
  it('drops soft hyphens and zero-width spaces, which split words for search', () => {
    const sentence = 'Der Wein aus Ita\u00ADlien über\u200Bzeugt mit zarter Frucht und feiner Säure, sagen die Kenner. '
    const page = extractPage(`<html><body><article><p>${sentence.repeat(10)}</p></article></body></html>`, 'https://example.com/wein')
    expect(page.content?.full_text).toContain('Der Wein aus Italien überzeugt mit zarter Frucht')
  })
})
