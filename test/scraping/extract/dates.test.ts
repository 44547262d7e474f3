// Date parsing and the published / last-updated date sources, on synthetic markup and real pages.
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { parseDate } from '../../../src/scraping/extract/date-parse.ts'
import { extractPage } from '../../../src/scraping/extract/extract-page.ts'

const DATA = new URL('../../../fixtures/extraction/readability-test-pages/', import.meta.url)

function fixture(name: string): { html: string; publishedTime: string | null } {
  const html = gunzipSync(readFileSync(new URL(`${name}/source.html.gz`, DATA))).toString('utf8')
  const meta = JSON.parse(readFileSync(new URL(`${name}/expected-metadata.json`, DATA), 'utf8')) as { publishedTime: string | null }
  return { html, publishedTime: meta.publishedTime }
}

function page(head: string, body = '<p>Some article text.</p>', url = 'https://example.com/news/story'): ReturnType<typeof extractPage> {
  return extractPage(`<html><head>${head}</head><body>${body}</body></html>`, url)
}

describe('parseDate', () => {
  it('keeps ISO dates with their offset and local day', () => {
    expect(parseDate('2015-07-24T05:36:09+01:00')).toBe('2015-07-24T05:36:09+01:00')
    expect(parseDate('2019-11-19T23:30:00-0500')).toBe('2019-11-19T23:30:00-05:00')
    expect(parseDate('2017-11-03 03:01:00.000000')).toBe('2017-11-03T03:01:00.000')
    expect(parseDate('2024-06-25')).toBe('2024-06-25')
    expect(parseDate('2019-01-03T07:00:02.000Z')).toBe('2019-01-03T07:00:02.000Z')
  })

  it('reads written-out and numeric dates', () => {
    expect(parseDate('March 3, 2015')).toBe('2015-03-03')
    expect(parseDate('Published Monday, November 18, 2019 8:22AM EST')).toBe('2019-11-18T08:22:00')
    expect(parseDate('3rd of March 2015')).toBe('2015-03-03')
    expect(parseDate('Tue, 03 Mar 2015 12:00:00 GMT')).toBe('2015-03-03T12:00:00Z')
    expect(parseDate('2015/03/04')).toBe('2015-03-04')
    expect(parseDate('25.12.2018')).toBe('2018-12-25')
    expect(parseDate('1426075200')).toBe('2015-03-11T12:00:00Z')
  })

  it('rejects implausible or ambiguous values', () => {
    expect(parseDate('')).toBeNull()
    expect(parseDate('not a date')).toBeNull()
    expect(parseDate('1989-12-31')).toBeNull()
    expect(parseDate('2015-02-30')).toBeNull()
    expect(parseDate('2999-01-01')).toBeNull()
    expect(parseDate('03/04/2015')).toBeNull()
  })
})

describe('published and last-updated dates', () => {
  it('prefers JSON-LD datePublished, then meta tags', () => {
    const p = page(
      `<meta property="article:published_time" content="2020-01-02T10:00:00Z">
       <script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","datePublished":"2020-01-01T09:00:00+02:00","dateModified":"2020-01-05T08:00:00+02:00"}</script>`,
    )
    expect(p.published_date).toBe('2020-01-01T09:00:00+02:00')
    expect(p.last_updated_date).toBe('2020-01-05T08:00:00+02:00')
  })

  it('reads CMS meta tags and <time> markup', () => {
    expect(page('<meta name="parsely-pub-date" content="2018-05-06T07:08:09Z">').published_date).toBe('2018-05-06T07:08:09Z')
    expect(page('<meta property="og:updated_time" content="2018-05-07">').last_updated_date).toBe('2018-05-07')
    expect(page('', '<article><time class="entry-date published" datetime="2016-04-05T06:07:08+00:00">April 5</time><p>Text.</p></article>').published_date).toBe(
      '2016-04-05T06:07:08+00:00',
    )
    expect(page('', '<span itemprop="datePublished" content="2014-02-03">Feb 3</span><p>Text.</p>').published_date).toBe('2014-02-03')
  })

  it('falls back to a date in the URL path', () => {
    expect(page('', '<p>Text.</p>', 'https://example.com/2019/08/02/some-story/').published_date).toBe('2019-08-02')
    expect(page('', '<p>Text.</p>', 'https://example.com/some-story').published_date).toBeNull()
  })

  it.each(['wikia', 'guardian-1', 'aktualne', 'engadget', 'parsely-metadata'])('matches the expected publication day of %s', (name) => {
    const { html, publishedTime } = fixture(name)
    const result = extractPage(html, 'http://fakehost/test/page.html')
    expect(publishedTime).not.toBeNull()
    expect(result.published_date?.slice(0, 10)).toBe(publishedTime?.slice(0, 10))
  })
})
