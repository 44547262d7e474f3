// Language detection on real pages in several languages, and the markup fallback.
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { extractPage } from '../../../src/scraping/extract/extract-page.ts'
import { declaredLanguage, detectLanguage } from '../../../src/scraping/extract/language.ts'

const DATA = new URL('../../../fixtures/extraction/', import.meta.url)

function html(path: string): string {
  return gunzipSync(readFileSync(new URL(path, DATA))).toString('utf8')
}

describe('language of real pages', () => {
  it.each([
    ['readability-test-pages/lemonde-1/source.html.gz', 'fr'],
    ['readability-test-pages/la-nacion/source.html.gz', 'es'],
    ['readability-test-pages/heise/source.html.gz', 'de'],
    ['readability-test-pages/aktualne/source.html.gz', 'cs'],
    ['readability-test-pages/qq/source.html.gz', 'zh'],
    ['readability-test-pages/yahoo-4/source.html.gz', 'ja'],
    ['scrapinghub/html/c82b3d1d540bbbd6081bdfb78b4c068c583aa766bcaaefe7ad16d24e5413a829.html.gz', 'ru'],
    ['scrapinghub/html/0ec95c7261d122f304728e90c983450ef1ce1e0b423546835c397d50aaf0d0f2.html.gz', 'ko'],
    ['readability-test-pages/001/source.html.gz', 'en'],
  ])('%s is %s', (path, lang) => {
    const page = extractPage(html(path), 'http://fakehost/test/page.html')
    expect(page.content?.language).toBe(lang)
    expect(page.language_reliable).toBe(true)
  })
})

describe('detectLanguage', () => {
  it('uses the declared language when the text is too short to tell', () => {
    expect(detectLanguage('Hola', 'es')).toEqual({ language: 'es', reliable: false })
    expect(detectLanguage('', null)).toEqual({ language: null, reliable: false })
  })

  it('trusts the text over a template-default declaration', () => {
    const german = 'Die Bundesregierung hat am Mittwoch ein neues Gesetz beschlossen, das die Digitalisierung der Verwaltung beschleunigen soll.'
    expect(detectLanguage(german, 'en').language).toBe('de')
  })

  it('lets the declaration settle near-identical languages', () => {
    const indonesian = 'Pemerintah daerah akan membangun jembatan baru di atas sungai untuk memudahkan warga yang setiap hari pergi ke pasar dan sekolah.'
    expect(detectLanguage(indonesian, 'id').language).toBe('id')
  })

  it('normalises declared tags to ISO 639-1', () => {
    expect(declaredLanguage(['en-US'])).toBe('en')
    expect(declaredLanguage([null, 'pt_BR'])).toBe('pt')
    expect(declaredLanguage(['x-klingon', 'fr'])).toBe('fr')
  })
})
