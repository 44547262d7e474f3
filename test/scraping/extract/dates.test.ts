// Date parsing and the published / last-updated date sources, on synthetic markup and real pages.
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { dayFirstLocale, parseDate } from '../../../src/scraping/extract/date-parse.ts'
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

describe('slashed dates that could be read either way', () => {
  it('are refused unless the page writes them day first', () => {
    expect(parseDate('02/11/2023')).toBeNull()
    expect(parseDate('02/11/2023', true)).toBe('2023-11-02')
    // Unambiguous pairs read the same either way.
    expect(parseDate('11/24/2023')).toBe('2023-11-24')
    expect(parseDate('24/11/2023', true)).toBe('2023-11-24')
  })

  it('are day first in every declared language but US and unstated English', () => {
    expect(dayFirstLocale(['fr'])).toBe(true)
    expect(dayFirstLocale(['de-AT'])).toBe(true)
    expect(dayFirstLocale(['en-GB'])).toBe(true)
    expect(dayFirstLocale(['en_AU'])).toBe(true)
    expect(dayFirstLocale(['en-US'])).toBe(false)
    expect(dayFirstLocale(['en'])).toBe(false)
    expect(dayFirstLocale(['es-US'])).toBe(false)
    expect(dayFirstLocale([null, '', 'it_IT'])).toBe(true)
    expect(dayFirstLocale([null, undefined])).toBe(false)
    expect(dayFirstLocale(['x-klingon'])).toBe(false)
  })

  it("are read by the page's declared language", () => {
    const body = '<h1>Apologie du terrorisme</h1><p class="author">Par Henri Frasque</p><p>Publié le 02/11/2023 à 15h57</p><p>Le texte.</p>'
    const at = (htmlAttrs: string, head = '') =>
      extractPage(`<html${htmlAttrs}><head>${head}</head><body>${body}</body></html>`, 'https://example.fr/societe/article')
    expect(at(' lang="fr"').published_date?.slice(0, 10)).toBe('2023-11-02')
    expect(at('', '<meta property="og:locale" content="fr_FR">').published_date?.slice(0, 10)).toBe('2023-11-02')
    expect(at(' lang="en-US"').published_date).toBeNull()
    expect(at('').published_date).toBeNull()
    // An XHTML page may declare its language only as xml:lang; lang says first.
    expect(at(' xml:lang="fr"').published_date?.slice(0, 10)).toBe('2023-11-02')
    expect(at(' lang="en-US" xml:lang="fr"').published_date).toBeNull()
  })
})

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
    // A numeric pair that can only be month first is read so, whatever its separator (WIRED: "11.14.2019").
    expect(parseDate('11.14.2019 09:00 AM')).toBe('2019-11-14T09:00:00')
    expect(parseDate('11-14-2019')).toBe('2019-11-14')
    expect(parseDate('12.05.2019')).toBe('2019-05-12')
    // A month name between slashes.
    expect(parseDate('29 / Dezember / 2022')).toBe('2022-12-29')
  })

  it('reads Indonesian and Malay month names', () => {
    expect(parseDate('Posted on Maret 30, 2015 by Admin')).toBe('2015-03-30')
    expect(parseDate('17 Agustus 2020')).toBe('2020-08-17')
    expect(parseDate('5 Disember 2019')).toBe('2019-12-05')
    expect(parseDate('Mac 5 2019')).toBeNull()
  })

  it('reads month names of more languages, year-first forms and Eastern Arabic digits', () => {
    expect(parseDate('الأربعاء، 07 أكتوبر 2020 - 12:09 م')?.slice(0, 10)).toBe('2020-10-07')
    expect(parseDate('٠٧ تشرين الأول ٢٠٢٠')).toBe('2020-10-07')
    expect(parseDate('2020年10月7日')).toBe('2020-10-07')
    expect(parseDate('2020년 10월 7일')).toBe('2020-10-07')
    expect(parseDate('2020. október 7.')).toBe('2020-10-07')
    expect(parseDate('7. lokakuuta 2020')).toBe('2020-10-07')
    expect(parseDate('7 Οκτωβρίου 2020')).toBe('2020-10-07')
    expect(parseDate('7 ekim 2020')).toBe('2020-10-07')
    expect(parseDate('7 octombrie 2020')).toBe('2020-10-07')
    // A year with a dot and a number after it is not a Hungarian date without a month name.
    expect(parseDate('Version 2019. 12 items')).toBeNull()
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
    expect(
      page('', '<article><time class="entry-date published" datetime="2016-04-05T06:07:08+00:00">April 5</time><p>Text.</p></article>').published_date,
    ).toBe('2016-04-05T06:07:08+00:00')
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

describe('date evidence', () => {
  const fetchedAt = new Date('2024-06-01T12:00:00Z')
  const at = (head: string, body = '<p>Some article text.</p>', url = 'https://example.com/news/story'): ReturnType<typeof extractPage> =>
    extractPage(`<html><head>${head}</head><body>${body}</body></html>`, url, { fetchedAt })

  it('reads written-out dates in the major European languages', () => {
    expect(parseDate('6. August 2009')).toBe('2009-08-06')
    expect(parseDate('12 de mayo de 2019')).toBe('2019-05-12')
    expect(parseDate('1er mai 2019')).toBe('2019-05-01')
    expect(parseDate('3 marca 2020')).toBe('2020-03-03')
    expect(parseDate('Stand: 07.11.2023, 07:30 Uhr')).toBe('2023-11-07T07:30:00')
    expect(parseDate('Mon Jan 13 13:37:49 UTC 2020')).toBe('2020-01-13T13:37:49')
  })

  it('finds datePublished in a JSON-LD @graph and in nested objects, and says so', () => {
    const graph = at(
      `<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"Organization","name":"X"},{"@type":"WebPage","mainEntity":{"@type":"NewsArticle","datePublished":"2021-03-04T08:00:00+01:00"}}]}</script>`,
    )
    expect(graph.published_date).toBe('2021-03-04T08:00:00+01:00')
    expect(graph.metadata.date_evidence?.published).toEqual({ source: 'json-ld', field: 'datePublished', value: '2021-03-04T08:00:00+01:00' })
  })

  it('ignores the dates of images and comments in JSON-LD', () => {
    const p = at(
      `<script type="application/ld+json">{"@type":"ImageObject","uploadDate":"2010-01-01"}</script><meta property="article:published_time" content="2022-02-02T10:00:00+01:00">`,
    )
    expect(p.published_date).toBe('2022-02-02T10:00:00+01:00')
  })

  it('reads a labelled date in the visible text when the markup has none', () => {
    const p = at('', '<h1>Title of the story</h1><div class="info">Veröffentlicht am 12. März 2024 von Anna</div><p>Article text that goes on.</p>')
    expect(p.published_date).toBe('2024-03-12')
    expect(p.metadata.date_evidence?.published).toMatchObject({ source: 'text', field: 'labelled' })
    const labelled = at('', '<h1>Title</h1><p>Lorem ipsum dolor sit amet.</p><p>Publié le 3 avril 2023 à 10h15</p>')
    expect(labelled.published_date?.slice(0, 10)).toBe('2023-04-03')
  })

  it('rejects a date after the fetch time and records why', () => {
    const p = at('<meta property="article:published_time" content="2031-01-01T00:00:00Z">')
    expect(p.published_date).toBeNull()
    expect(p.metadata.date_evidence?.rejected).toEqual([
      { kind: 'published', source: 'meta', field: 'article:published_time', value: '2031-01-01T00:00:00Z', reason: 'after_fetch_time' },
    ])
  })

  it('rejects a date before the web and falls back to the next piece of evidence', () => {
    const p = at('<meta name="date" content="1990-05-05">', '<p>Text.</p>', 'https://example.com/2019/08/02/story/')
    expect(p.published_date).toBe('2019-08-02')
    expect(p.metadata.date_evidence?.rejected[0]?.reason).toBe('before_web')
  })

  it("takes the publisher's day when a UTC timestamp falls on the next day", () => {
    const p = at('<meta property="article:published_time" content="2023-11-09T05:30:59+00:00">', '<p>Text.</p>', 'https://example.com/2023/11/08/story/')
    expect(p.published_date).toBe('2023-11-08')
    expect(p.metadata.date_evidence?.notes[0]).toContain('publisher')
  })

  it('never takes an update for the original date, and drops an update stamped before it', () => {
    const p = at(
      '<meta property="article:published_time" content="2020-02-17T06:00:00+01:00"><meta property="article:modified_time" content="2020-02-13T19:00:00+01:00">',
    )
    expect(p.published_date).toBe('2020-02-17T06:00:00+01:00')
    expect(p.last_updated_date).toBeNull()
    const onlyUpdate = at('', '<h1>Title</h1><p>Stand: 19.10.2019 11:05 Uhr</p><p>Text.</p>')
    expect(onlyUpdate.last_updated_date).toBe('2019-10-19T11:05:00')
    expect(onlyUpdate.published_date).toBe('2019-10-19T11:05:00')
  })

  it("reads the canonical URL's day when the page's own URL has none (a syndicated copy)", () => {
    const head = '<link rel="canonical" href="https://www.theguardian.com/education/2020/oct/02/halls-too-full">'
    const p = at(head, '<h1>Title</h1><p>Text.</p>', 'https://www.msn.com/en-gb/news/uknews/halls-too-full/ar-BB19DUqK')
    expect(p.published_date).toBe('2020-10-02')
    expect(p.metadata.date_evidence?.published).toMatchObject({ source: 'url', field: 'canonical path' })
    // The page's own URL says first.
    const own = at('<link rel="canonical" href="https://example.com/2019/01/05/story">', '<p>Text.</p>', 'https://example.com/2019/01/04/story')
    expect(own.published_date).toBe('2019-01-04')
    // Days away from a stated date, it is the original's day, as the page's own URL's would be, and the note says whose.
    const stated = at(
      '<link rel="canonical" href="https://example.com/2020/10/02/story"><script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2023-05-10T09:00:00Z"}</script>',
      '<h1>Title</h1><p>Text.</p>',
      'https://amp.example.com/news/story',
    )
    expect(stated.published_date).toBe('2020-10-02')
    expect(stated.metadata.date_evidence?.notes.join(' ')).toContain("the canonical URL's taken")
  })

  it('reads a one-digit day in the URL only when it ends its path segment', () => {
    expect(at('', '<p>Text.</p>', 'https://example.com/2017/7/12/story').published_date).toBe('2017-07-12')
    expect(at('', '<p>Text.</p>', 'https://example.com/2023/10/3-questions-for-anna/').published_date).toBeNull()
  })

  it('takes a date element named for an update ("-upd", "changed") as the update', () => {
    const p = at(
      '',
      '<h1>Title</h1><time class="article-date" datetime="2020-04-28T22:57:00">28.04.2020</time><time class="article-date-upd" datetime="2020-04-29T11:14:00">29.04.2020</time><p>Text.</p>',
    )
    expect(p.published_date).toBe('2020-04-28T22:57:00')
    expect(p.last_updated_date).toBe('2020-04-29T11:14:00')
    const changed = at('', '<h1>Title</h1><span class="changed-date">06.03.2023</span><p>Text.</p>')
    expect(changed.last_updated_date).toBe('2023-03-06')
  })

  it("ignores the dates in a comment thread, whatever the comment's date element is called", () => {
    const p = at(
      '',
      `<h1>Title</h1><p class="meta">Par Anna | 30 septembre 2018</p><p>Text of the article.</p>
       <div class="comment-meta"><abbr class="date" title="2018-09-11T10:57:27Z">Le 11 septembre 2018</abbr></div>`,
    )
    expect(p.published_date).toBe('2018-09-30')
  })

  it('ranks the first <time> anywhere on the page below the date written at the headline', () => {
    const teaser = `<p>${'Another story on the site, with a teaser of its own. '.repeat(10)}</p>`
    const p = at('', `<aside><time datetime="2019-07-30">30.07.2019</time>${teaser}</aside><h1>Title</h1><p>27.06.2019</p><p>Text.</p>`)
    expect(p.published_date).toBe('2019-06-27')
    expect(p.metadata.date_evidence?.published).toMatchObject({ source: 'text', field: 'near headline' })
  })

  it('finds the dateline under a headline that comes after a very long menu', () => {
    const menu = `<ul>${'<li><a href="/x">Menu entry for one more section of the site</a></li>'.repeat(3000)}</ul>`
    const p = at('', `${menu}<h1>Title</h1><div class="att-publish-date">Von Anna 4.&thinsp;2.&thinsp;2022.</div><p>Text.</p>`)
    expect(p.published_date).toBe('2022-02-04')
  })

  it('reads a two-digit year only in an element marked as a date', () => {
    expect(at('', '<h1>Title</h1><div class="date">Party, 30.10.23</div><p>Text.</p>').published_date).toBe('2023-10-30')
    expect(at('', '<h1>Title</h1><p>Version 1.2.10 is out.</p>').published_date).toBeNull()
  })

  it('reads a two-digit year standing alone beside the headline, but not a list of dated teasers there', () => {
    const p = at('', '<div class="flag">In the media</div><span style="color:red">02.12.19</span><h1>Title</h1><p>Text.</p>')
    expect(p.published_date).toBe('2019-12-02')
    expect(p.metadata.date_evidence?.published).toMatchObject({ source: 'text', field: 'near headline' })
    expect(at('', '<h1>Title</h1><div>Von Anna</div><div>30.10.23, 14:05 Uhr</div><p>Text.</p>').published_date).toBe('2023-10-30')
    const teasers = '<a href="/a"><h4>One story</h4><div>11/13/19 11:00AM</div></a><a href="/b"><h4>Another</h4><div>11/12/19 9:00AM</div></a>'
    expect(at('', `${teasers}<h1>Title</h1><p>Text.</p>`).published_date).toBeNull()
    expect(at('', '<h1>Title</h1><div>11/19/19 06:56 AM EST</div><p>Text.</p>').published_date).toBe('2019-11-19')
    // At the edge of its reach the date is read whole, not from where the reach begins.
    expect(at('', `<div>12.02.19</div><div>${'x'.repeat(390)}</div><h1>Title</h1><p>Text.</p>`).published_date).toBe('2019-02-12')
  })

  it('reads no version number alone under a heading as a date', () => {
    expect(at('', '<h1>Release notes</h1><h2>2.4.18</h2><p>Fixes.</p>').published_date).toBeNull()
    expect(at('', '<h1>MyLib</h1><div>Version</div><div>1.2.10</div><p>Text.</p>').published_date).toBeNull()
  })

  it('reads a slashed two-digit year as a four-digit one is read: the order that is possible, else the locale', () => {
    const byline = (date: string, lang = 'en'): string | null =>
      extractPage(
        `<html lang="${lang}"><head></head><body><h1>Title</h1><span class="submitted-date">${date}</span><p>Text.</p></body></html>`,
        'https://example.com/news/story',
        { fetchedAt },
      ).published_date
    expect(byline('11/19/19 06:56 AM EST')).toBe('2019-11-19')
    expect(byline('19/11/19')).toBe('2019-11-19')
    expect(byline('03/04/21')).toBe('2021-03-04')
    expect(byline('03/04/21', 'en-GB')).toBe('2021-04-03')
    expect(byline('12/31/98')).toBe('1998-12-31')
    expect(at('', '<h1>Title</h1><p>Rated 3/4/10 by readers.</p>').published_date).toBeNull()
  })

  it('keeps the date of a byline box when another of its classes names its comment count', () => {
    const box = extractPage(
      '<html lang="en"><head></head><body><h1>Title</h1><div class="entry-meta nyo-social-comments"><a class="url fn n" href="/a">Alexandra</a> • 11/08/23 5:19pm</div><p>Text.</p></body></html>',
      'https://example.com/news/story',
      { fetchedAt },
    )
    expect(box.published_date).toBe('2023-11-08')
  })

  it('takes a labelled update over an unlabelled date found somewhere in the text', () => {
    const p = at(
      '',
      `<h1>Title</h1><p>${'Words of the article. '.repeat(100)}</p><p>Since 04.08.2014 the law has applied.</p><p>Letzte Aktualisierung: 30.12.2016</p>`,
    )
    expect(p.published_date).toBe('2016-12-30')
    expect(p.metadata.date_evidence?.notes.join(' ')).toContain('the update stands in')
  })

  it('takes the day two independent kinds of evidence agree on over a day only the metadata gives', () => {
    const jsonLd = (published: string, modified: string): string =>
      `<script type="application/ld+json">{"@type":"NewsArticle","datePublished":"${published}","dateModified":"${modified}"}</script>`
    // JSON-LD says 6 November; the meta tag and the page's own "Stand" line say 7 November.
    const p = at(
      `${jsonLd('2023-11-06T18:19:00+01:00', '2023-11-07T10:14:00+01:00')}<meta name="dc.date" content="2023-11-07T07:30:00+01:00">`,
      '<h1>Title</h1><p>Stand: 07.11.2023, 07:30 Uhr</p><p>Text.</p>',
    )
    expect(p.published_date?.slice(0, 10)).toBe('2023-11-07')
    expect(p.metadata.date_evidence?.notes.join(' ')).toContain('has one witness')
    // Backed by the URL as well, the JSON-LD day holds against the shown update.
    const backed = at(jsonLd('2023-01-10', '2023-03-06'), '<h1>Title</h1><p>Aktualisiert am 06.03.2023</p><p>Text.</p>', 'https://example.com/2023/01/10/story')
    expect(backed.published_date).toBe('2023-01-10')
    expect(backed.last_updated_date).toBe('2023-03-06')
    // Without it, the update the page shows and the metadata repeats is the page's date.
    const shown = at(jsonLd('2023-01-10', '2023-03-06'), '<h1>Title</h1><p class="changed-date">06.03.2023</p><p>Text.</p>')
    expect(shown.published_date).toBe('2023-03-06')
  })

  it('counts a <meta itemprop> in the body as metadata, not as a date the page shows', () => {
    const p = at(
      '<meta property="article:published_time" content="2015-09-17T16:57:43+01:00"><meta property="article:modified_time" content="2016-05-08T10:11:51+01:00">',
      '<h1>Title</h1><meta itemprop="datePublished" content="2016-05-08T10:11:51+01:00"><p>Text.</p>',
    )
    expect(p.published_date?.slice(0, 10)).toBe('2015-09-17')
  })

  it('does not let an update stamped before the publication outvote it', () => {
    const p = at(
      '<meta property="article:published_time" content="2020-02-08T11:00:00"><meta name="dateModified" content="2020-02-07T18:13:00">',
      '<h1>Title</h1><p><time itemprop="dateModified" datetime="2020-02-07T18:13:00">7 February 2020</time></p><p>Text.</p>',
    )
    expect(p.published_date?.slice(0, 10)).toBe('2020-02-08')
  })

  it("ignores a site header's current-date widget and dates in the navigation", () => {
    const today = at(
      '<meta property="article:published_time" content="2019-10-18T14:31:33+02:00"><meta property="article:modified_time" content="2019-10-19T05:32:24+02:00">',
      '<div class="rty-current-date">19. Oktober 2019</div><h1>Title</h1><p>Text.</p>',
    )
    expect(today.published_date?.slice(0, 10)).toBe('2019-10-18')
    const nav = at(
      '',
      `<div class="navtop"><span class="mod_datetime"><time datetime="2023-11-01T13:56:20+01:00">1. November 2023</time></span></div>
       <h1>Title</h1><p><span class="text_datum">31. Oktober 2023.</span> Text.</p>`,
    )
    expect(nav.published_date).toBe('2023-10-31')
    // A page-level class that merely mentions navigation does not hide the article's date.
    const main = at(
      '',
      '<main class="with-navigation"><article><h1>Title</h1><p class="date"><time datetime="2023-10-18">18 Oct 2023</time></p></article></main>',
    )
    expect(main.published_date).toBe('2023-10-18')
  })

  it("reads a publication date from a script's serialised state only when nothing else dates the page", () => {
    const state = `<script type="application/json">{"publishedDate":"2016-11-04T20:37:27Z","updatedDate":"2016-11-04T20:39:47Z"}</script>`
    const p = at('', `<h1>A review</h1>${state}<p>Text without a date.</p>`)
    expect(p.published_date).toBe('2016-11-04T20:37:27Z')
    expect(p.metadata.date_evidence?.published).toMatchObject({ source: 'meta', field: 'script:publishedDate' })
    const shopify = at('', `<h1>Coffee</h1><script>var meta = {"product":{"published_at":"2019-03-02T06:22:28+01:00"}}</script><p>Text.</p>`)
    expect(shopify.published_date?.slice(0, 10)).toBe('2019-03-02')
    // Any stated or visible date outranks it.
    const shown = at('', `<h1>Title</h1><p class="date">12. März 2024</p>${state}<p>Text.</p>`)
    expect(shown.published_date).toBe('2024-03-12')
  })

  it("takes the URL's day over a stated date days away from it (a migration rewrote the metadata)", () => {
    const ld = '<script type="application/ld+json">{"@type":"BlogPosting","datePublished":"2019-06-17T18:28:00+02:00"}</script>'
    const moved = at(ld, '<h1>Title</h1><p>Text.</p>', 'https://example.com/home/2017/7/12/story')
    expect(moved.published_date).toBe('2017-07-12')
    expect(moved.metadata.date_evidence?.notes.some((n) => n.includes("URL's"))).toBe(true)
    // A day apart is a time zone or a post that went out after midnight: the stated date stands.
    const near = at(ld, '<h1>Title</h1><p>Text.</p>', 'https://example.com/2019/06/16/story')
    expect(near.published_date?.slice(0, 10)).toBe('2019-06-17')
  })

  it('rejects dates before 1995 as before the web', () => {
    const p = at('<meta name="date" content="1993-05-05">', '<p>Text.</p>', 'https://example.com/2019/08/02/story/')
    expect(p.published_date).toBe('2019-08-02')
    expect(p.metadata.date_evidence?.rejected[0]?.reason).toBe('before_web')
  })

  it('gives no date when the only evidence is guesses that disagree (the abstain rule)', () => {
    const p = at('', '<div><time datetime="2020-09-29">29 Sep</time></div><p>Text.</p><p>As said on 2 October 2020 in the text.</p>')
    expect(p.published_date).toBeNull()
    expect(p.metadata.date_evidence?.notes.some((n) => n.includes('disagree'))).toBe(true)
    // One guess alone stands.
    const one = at('', '<p>Text.</p><p>As said on 2 October 2020 in the text.</p>')
    expect(one.published_date).toBe('2020-10-02')
  })

  it('reads the further meta conventions htmldate knows, and not a render time', () => {
    expect(at('<meta name="DCSext.articleFirstPublished" content="2020-05-06">').published_date).toBe('2020-05-06')
    expect(at('<meta property="og:regdate" content="2020-05-06 12:00:00">').published_date?.slice(0, 10)).toBe('2020-05-06')
    expect(at('<meta name="gentime" content="2020-05-06">').published_date).toBeNull()
  })

  it('reads a URL date whose month is a word', () => {
    expect(at('', '<p>Text.</p>', 'https://www.example.com/world/2019/may/12/story-title').published_date).toBe('2019-05-12')
    expect(at('', '<p>Text.</p>', 'https://www.example.com/2019/mayday/12/').published_date).toBeNull()
  })

  it('takes a date-classed element after an update label as the update', () => {
    const p = at('', '<h1>Title</h1><p>Text.</p><div id="page-info">page revision: 8, last edited: <span class="odate">17 Jun 2018</span></div>')
    expect(p.last_updated_date).toBe('2018-06-17')
    expect(p.metadata.date_evidence?.last_updated).toMatchObject({ source: 'markup', field: 'class=odate' })
    // Nothing states the publication, so the update stands in, and says so.
    expect(p.published_date).toBe('2018-06-17')
    expect(p.metadata.date_evidence?.notes[0]).toContain('stands in')
  })

  it('takes a <time> or a byline item whose own line labels it an update as the update', () => {
    const filler = `<p>${'Lorem ipsum dolor sit amet. '.repeat(80)}</p>`
    const published = '<p>Posted in Science</p><p>November 8, 2019</p>'
    // The label sits before the <time>, inside the byline item that holds both.
    const item = `<span class="c-byline__item"> Updated <time class="c-byline__item" datetime="2019-11-13T15:28:18">Nov 13, 2019, 10:28am EST</time></span>`
    const p = at('', `<h1>Title</h1><p class="c-byline">By Umair Irfan ${item}</p>${published}${filler}`)
    expect(p.last_updated_date?.slice(0, 10)).toBe('2019-11-13')
    expect(p.published_date?.slice(0, 10)).toBe('2019-11-08')
    // A label does not carry past another <time> or out of its block.
    const two = `<p class="byline"><span>Updated <time datetime="2019-11-13T15:28:18"></time></span> <time class="entry-date" datetime="2019-11-08T09:00:00">Nov 8, 2019</time></p>`
    expect(at('', `<h1>Title</h1>${two}${filler}`).published_date?.slice(0, 10)).toBe('2019-11-08')
    const blocks = `<p>Updated</p><p><time class="entry-date" datetime="2019-11-08T09:00:00">Nov 8, 2019</time></p>`
    expect(at('', `<h1>Title</h1>${blocks}${filler}`).published_date?.slice(0, 10)).toBe('2019-11-08')
    // An unlabelled <time> in the byline stays the publication.
    const plain = at(
      '',
      `<h1>Title</h1><p class="c-byline">By Umair Irfan <time class="c-byline__item" datetime="2019-11-13T15:28:18">Nov 13, 2019</time></p>${filler}`,
    )
    expect(plain.published_date?.slice(0, 10)).toBe('2019-11-13')
    expect(plain.last_updated_date).toBeNull()
  })

  it("ignores a teaser's date (a related or latest-news item with its linked title), not the page's own byline", () => {
    const related = at(
      '',
      `<h1>Title</h1><p>Text of the article, long enough to read.</p>
       <ul class="wp_rp"><li><a href="/news/other">Schwerer Unfall auf der Kreisstraße bei Altdorf</a>
       <small class="wp_rp_publish_date">05.11.2023</small></li></ul>
       <p class="post-date">06.11.2023</p>`,
    )
    expect(related.published_date).toBe('2023-11-06')
    // Nor is a named <time> in another article's card, even one that sits inside its title link.
    const card = at(
      '',
      `<h1>Title</h1><p>Published on 21 January 2022.</p><div class="card"><a href="/de/other">Wald und Forstgeschichte im Schwarzwald
       <time class="entry-date published" datetime="2004-09-01">01.09.2004</time></a></div>`,
    )
    expect(card.published_date).toBe('2022-01-21')
    // The page's own byline, with its author link and its comments link, keeps its date.
    const byline = at(
      '',
      `<h1>Title</h1><div class="meta"><a href="/author/staff" rel="author">Staff and news service reports</a>
       <a href="/story#comments">Three comments on the story of the new mayor</a><span class="post-date">November 8, 2023</span></div><p>Text.</p>`,
    )
    expect(byline.published_date).toBe('2023-11-08')
  })

  it("ignores a caption's date and a weather widget's, unless the caption holds the headline", () => {
    const caption = at(
      '',
      `<h1>Title</h1><figure><img src="a.jpg"><figcaption>Strikers outside the studio, Friday, Nov. 3, 2023, in Los Angeles.</figcaption></figure>
       <p class="credit-line">Associated Press, November 3, 2023</p><p>PARIS, November 8, 2023 – Text.</p>`,
    )
    expect(caption.published_date).toBe('2023-11-08')
    const hero = at('', '<figure><img src="a.jpg"><figcaption><small>31.01.2022</small><h1>Title</h1></figcaption></figure><p>Text.</p>')
    expect(hero.published_date).toBe('2022-01-31')
    const weather = at('', '<div class="weather-date">November 9, 2023</div><h1>Title</h1><p class="byline">November 8, 2023</p><p>Text.</p>')
    expect(weather.published_date).toBe('2023-11-08')
  })

  it('takes no date the prose mentions as the dateline, but keeps it as the last resort', () => {
    const prose =
      '<p>As reported before, the head of the regional anti-corruption office was attacked on 11 February 2019, when he came to visit his mother in the village; the jury has now acquitted the man accused of the attack and the prosecution said it would appeal.</p>'
    const dated = at('', `<h1>Title</h1>${prose}<p class="article-footer">29 December 2020</p>`)
    expect(dated.published_date).toBe('2020-12-29')
    // A date that opens its paragraph is a dateline, however long the paragraph.
    const dateline = at('', `<h1>Title</h1><p>29 December 2020 – ${prose.slice(3)}`)
    expect(dateline.published_date).toBe('2020-12-29')
    expect(dateline.metadata.date_evidence?.published?.field).toBe('near headline')
    // A page whose only date is a mention has no date of its own.
    expect(at('', `<h1>Title</h1>${prose}`).published_date).toBeNull()
  })

  it('falls back on the date nearest the headline, not the first one after it', () => {
    const filler = (words: number): string => `<p>${'Lorem ipsum dolor sit amet. '.repeat(words)}</p>`
    // The page's own date stands above the headline, past the headline's window; a teaser's is further down.
    const p = at('', `<p class="x">06.11.2023</p>${filler(20)}<h1>Title</h1>${filler(80)}<p>Ab 1. März 2024 im Amt.</p>`)
    expect(p.published_date).toBe('2023-11-06')
    expect(p.metadata.date_evidence?.published).toMatchObject({ source: 'text', field: 'nearest in text' })
    // A mention in the prose is passed over for a date that stands alone, even a farther one.
    const mention = `<p>As reported before, the head of the regional anti-corruption office was attacked on 11 February 2019, when he came to visit his mother in the village; the jury has now acquitted the man accused of the attack.</p>`
    expect(at('', `<h1>Title</h1>${filler(60)}${mention}${filler(10)}<p>29.12.2020</p>`).published_date).toBe('2020-12-29')
  })

  it("takes no date from a comment thread, the navigation, the site's banner or an embedded post, but keeps a byline's date-and-comments box", () => {
    const filler = `<p>${'Lorem ipsum dolor sit amet. '.repeat(80)}</p>`
    // A comment's date, its area named on a wrapper several levels up from its date.
    const thread = `<div class="comments-area"><ol><li><div><span>Agi Joe</span><a href="#comment-9">15. Januar 2014 um 23:36</a></div><p>Schön!</p></li></ol></div>`
    expect(at('', `<h1>Über uns</h1>${filler}${thread}`).published_date).toBeNull()
    expect(at('', `<nav class="menu"><span>3. Mai 2021</span></nav><h1>Über uns</h1>${filler}`).published_date).toBeNull()
    // A comment signed without a comment-named area, and an embedded post's attribution.
    expect(at('', `<h1>Title</h1>${filler}<div><b>Jane</b>, on December 30, 2015 at 4:36 am said: I agree.</div>`).published_date).toBeNull()
    const embed = `<blockquote><p>A post shared by Spice Girls (@spicegirls) on Jun 16, 2019 at 7:30am PDT</p></blockquote>`
    expect(at('', `<h1>Title</h1>${filler}${embed}<p>June 20, 2019</p>`).published_date).toBe('2019-06-20')
    // A teaser card's date after its "read more" link is the linked article's.
    const teaser = `<div><p>Ein Speicher rechnet sich …</p><a href="/lexikon/x">Weiterlesen »</a> 22. Juni 2022</div>`
    expect(at('', `<h1>Batteriespeicher</h1>${filler}${teaser}`).published_date).toBeNull()
    // The site's banner before the headline shows the day of the visit; an article's own <header> holds its headline.
    const banner = `<header class="masthead"><div class="below">Wednesday, November 20, 2019</div></header>`
    expect(at('', `${banner}<main><h1>Title</h1><p>By Jane Doe, November 13, 2019</p>${filler}</main>`).published_date).toBe('2019-11-13')
    // So does a date named for the site header, outside any <header>.
    const below = `<div class="site-header__below"><span class="site-header__below-date">Nov. 20, 2019</span></div>`
    expect(at('', `${below}<main><h1>Title</h1><p>By Jane Doe, November 13, 2019</p>${filler}</main>`).published_date).toBe('2019-11-13')
    expect(at('', `<article><header><h1>Title</h1><p>November 13, 2019</p></header>${filler}</article>`).published_date).toBe('2019-11-13')
    // A byline box named for both its date and its comment count is the page's own.
    const byline = `<div class="article-date-and-comments"><span>June 7, 2023</span> <a href="#comments">12 comments</a></div>`
    expect(at('', `<h1>Title</h1>${byline}${filler}`).published_date).toBe('2023-06-07')
  })

  it("takes no date from a teaser card with its link after the date, an event's span of days, or a product's release", () => {
    const filler = `<p>${'Lorem ipsum dolor sit amet. '.repeat(80)}</p>`
    const card = (link: string) => `<div class="card"><h3>Rundreise</h3><span>5. Juli 2018</span>\n          <a href="/x">${link}</a></div>`
    expect(at('', `<h1>Expeditionen</h1>${filler}${card('read more')}`).published_date).toBeNull()
    expect(at('', `<h1>Expeditionen</h1>${filler}${card('Mehr')}<p>Impressum</p>`).published_date).toBeNull()
    // "mehr" running on is prose, even hard-wrapped, and the date stays the page's.
    expect(at('', `<h1>Titel</h1>${filler}<p>5. Juli 2018</p><p>mehr als zwanzig Teilnehmer kamen.</p>`).published_date).toBe('2018-07-05')
    expect(at('', `<h1>Titel</h1>${filler}<p>Am 5. Juli 2018 mehr\nals zwanzig Teilnehmer.</p>`).published_date).toBe('2018-07-05')
    // An exhibition's days near the headline, short and full spans; a dateline with a time before it stays.
    expect(at('', `<h1>Denkmäler in neuem Licht</h1><p>Ausstellung Palais Epstein, 9-23 Feb 2017 | Mo-Fr 9–16</p>${filler}`).published_date).toBeNull()
    expect(at('', `<h1>Festival</h1><p>12.02.2017 – 19.02.2017</p>${filler}`).published_date).toBeNull()
    expect(at('', `<h1>Titel</h1><p>Berlin, 14:30 – 23.02.2017</p>${filler}`).published_date).toBe('2017-02-23')
    expect(at('', `<h1>Titel</h1><p>Berlin, 14.30 – 23.02.2017</p>${filler}`).published_date).toBe('2017-02-23')
    // An episode's or an issue's number before a dash is no day starting a span.
    expect(at('', `<h1>Podcast</h1><p>Folge 12 – 3. März 2020</p>${filler}`).published_date).toBe('2020-03-03')
    expect(at('', `<h1>Zeitung</h1><p>Nr. 12 - 05.03.2020</p>${filler}`).published_date).toBe('2020-03-05')
    // A game's release date beside its title is the game's; a press release's date is its own.
    expect(at('', `<h1>Bee Simulator</h1><ul><li>Online Coop: -</li><li>Release: 14.11.2019</li></ul>${filler}`).published_date).toBeNull()
    expect(at('', `<h1>Neue Filiale</h1><p>Press release: 14.11.2019</p>${filler}`).published_date).toBe('2019-11-14')
    expect(at('', `<h1>Neue Filiale</h1><p>News release: 14.11.2019</p>${filler}`).published_date).toBe('2019-11-14')
    expect(at('', `<h1>Neue Filiale</h1><p>Press-Release: 14.11.2019</p>${filler}`).published_date).toBe('2019-11-14')
  })

  it('takes the day a <time> shows over its datetime when the value has no offset and they differ by a day', () => {
    const byline = (datetime: string, shown: string) =>
      at('', `<h1>Title</h1><p class="byline">By Chaim Gartenberg <time class="c-byline__item" datetime="${datetime}">${shown}</time></p><p>Text.</p>`)
    // The value is on UTC; the page shows the publisher's evening of the 19th.
    expect(byline('2019-11-20T00:53:52', 'Nov 19, 2019, 7:53pm EST').published_date).toBe('2019-11-19T19:53:00')
    // With an offset the value says whose clock it is on; a day apart more than one is another date.
    expect(byline('2019-11-20T00:53:52+01:00', 'Nov 19, 2019, 7:53pm EST').published_date?.slice(0, 10)).toBe('2019-11-20')
    expect(byline('2019-11-20T00:53:52', 'Nov 12, 2019').published_date?.slice(0, 10)).toBe('2019-11-20')
  })

  it("keeps a verb-final publication statement at a post's foot, which is no mention", () => {
    const foot =
      '<p>Dieser Beitrag von Max Mustermann wurde am Samstag, 3. Dezember 2011 um 10:00 Uhr veröffentlicht und unter Cybercrime, Cyberterrorismus, Hacking, LÜKEX, SCADA abgelegt. Du kannst die Kommentare zu diesen Eintrag durch den RSS-Feed verfolgen.</p>'
    const p = at('', `<h1>Title</h1><p>Text.</p>${foot}`)
    expect(p.published_date?.slice(0, 10)).toBe('2011-12-03')
    // The same sentence without the statement's verb is a mention.
    expect(at('', `<h1>Title</h1><p>Text.</p>${foot.replace('veröffentlicht', 'besprochen')}`).published_date).toBeNull()
  })
})
