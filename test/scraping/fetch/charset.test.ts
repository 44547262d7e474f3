import iconv from 'iconv-lite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { charsetParam, encodingForLabel, prescanMeta, sniffEncoding } from '../../../src/scraping/fetch/charset.ts'
import type { Fetcher } from '../../../src/scraping/fetch/fetcher.ts'
import { createFetcher } from '../../../src/scraping/fetch/fetcher.ts'
import type { WebServer } from '../fixtures/web-server.ts'
import { reply, startRoutes, testConfig } from '../fixtures/web-server.ts'

const FRENCH = 'Ça coûte 5 € — « déjà vu »'
const JAPANESE = '日本語のページです。東京'
const POLISH = 'Zażółć gęślą jaźń, Łódź'

const page = (head: string, text: string): string => `<!doctype html><html><head>${head}<title>t</title></head><body><p>${text}</p></body></html>`
const bytes = (text: string, encoding: string): Buffer => iconv.encode(text, encoding)

describe('charset detection units', () => {
  it('maps labels the way browsers do', () => {
    expect(encodingForLabel('ISO-8859-1')).toBe('windows-1252')
    expect(encodingForLabel('"Shift_JIS"')).toBe('shift_jis')
    expect(encodingForLabel('latin2')).toBe('latin2')
    expect(encodingForLabel('utf-7')).toBeNull()
    expect(encodingForLabel('base64')).toBeNull()
    expect(encodingForLabel('no-such-charset')).toBeNull()
  })

  it('reads the charset parameter', () => {
    expect(charsetParam('text/html; charset="iso-8859-2"')).toBe('iso-8859-2')
    expect(charsetParam('text/html;charset=UTF-8;foo=bar')).toBe('UTF-8')
    expect(charsetParam('text/html')).toBeNull()
  })

  it('prescans <meta charset> and http-equiv, skipping comments, within 1024 bytes', () => {
    expect(prescanMeta(Buffer.from('<meta charset=shift_jis>'))).toBe('shift_jis')
    expect(prescanMeta(Buffer.from('<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=iso-8859-2">'))).toBe('iso-8859-2')
    expect(prescanMeta(Buffer.from('<!-- <meta charset="koi8-r"> --><meta charset="euc-jp">'))).toBe('euc-jp')
    expect(prescanMeta(Buffer.from('<meta charset="utf-16le">'))).toBe('utf-8')
    expect(prescanMeta(Buffer.from(`<head>${' '.repeat(1030)}<meta charset="shift_jis">`))).toBe('shift_jis')
    expect(prescanMeta(Buffer.from(`<head></head><body>${' '.repeat(1030)}<meta charset="shift_jis">`))).toBeNull()
    expect(prescanMeta(Buffer.from(`<head>${' '.repeat(70_000)}<meta charset="shift_jis">`))).toBeNull()
  })

  it('reads the rest of the <head> when the charset comes after 1024 bytes of scripts', () => {
    const late = Buffer.concat([Buffer.from(`<html><head><script>${'x'.repeat(2000)}</script><meta charset="iso-8859-2">`), bytes(POLISH, 'iso-8859-2')])
    expect(sniffEncoding(late, null, { html: true })).toEqual({ encoding: 'iso-8859-2', source: 'meta', bomLength: 0 })
  })

  it('takes valid non-ASCII UTF-8 as UTF-8 whatever legacy encoding is declared', () => {
    const page = Buffer.from(`<meta charset="iso-8859-1"><p>${FRENCH}</p>`)
    expect(sniffEncoding(page, null, { html: true })).toEqual({ encoding: 'utf-8', source: 'utf8', bomLength: 0 })
    expect(sniffEncoding(page, 'text/html; charset=windows-1252', { html: true }).encoding).toBe('utf-8')
    // Real Latin-1 bytes are not valid UTF-8, and pure ASCII keeps the declared label.
    expect(sniffEncoding(bytes(`<meta charset="iso-8859-1"><p>${FRENCH}</p>`, 'windows-1252'), null, { html: true }).encoding).toBe('windows-1252')
    expect(sniffEncoding(Buffer.from('<meta charset="iso-8859-2"><p>ascii</p>'), null, { html: true }).encoding).toBe('iso-8859-2')
  })

  it('orders BOM > header > meta > fallback', () => {
    const meta = Buffer.from('<meta charset="shift_jis">')
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), meta])
    const html = { html: true }
    expect(sniffEncoding(bom, 'text/html; charset=iso-8859-2', html)).toEqual({ encoding: 'utf-8', source: 'bom', bomLength: 3 })
    expect(sniffEncoding(meta, 'text/html; charset=iso-8859-2', html).source).toBe('header')
    expect(sniffEncoding(meta, 'text/html', html)).toEqual({ encoding: 'shift_jis', source: 'meta', bomLength: 0 })
    expect(sniffEncoding(meta, 'text/plain', { html: false }).source).toBe('fallback')
    expect(sniffEncoding(Buffer.from('plain ascii'), null, html).encoding).toBe('utf-8')
    expect(sniffEncoding(bytes('café', 'windows-1252'), null, html).encoding).toBe('windows-1252')
  })

  it('accepts UTF-8 whose last character was cut by the size cap', () => {
    const cut = Buffer.from('aé€').subarray(0, -1)
    expect(sniffEncoding(cut, null, { html: true, truncated: true }).encoding).toBe('utf-8')
    expect(sniffEncoding(cut, null, { html: true, truncated: false }).encoding).toBe('windows-1252')
  })
})

describe('fetchPage decodes legacy charsets', () => {
  let server: WebServer
  let fetcher: Fetcher

  beforeAll(async () => {
    const typed = (ct: string, body: Buffer) => reply(200, { 'content-type': ct }, body)
    server = await startRoutes({
      '/1252-header': typed('text/html; charset=windows-1252', bytes(page('', FRENCH), 'windows-1252')),
      '/latin1-label': typed('text/html; charset=ISO-8859-1', bytes(page('', FRENCH), 'windows-1252')),
      '/1252-undeclared': typed('text/html', bytes(page('', FRENCH), 'windows-1252')),
      '/sjis-meta': typed('text/html', bytes(page('<meta charset="shift_jis">', JAPANESE), 'shift_jis')),
      '/sjis-header': typed('text/html; charset=Shift_JIS', bytes(page('', JAPANESE), 'shift_jis')),
      '/latin2-meta': typed('text/html', bytes(page('<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-2">', POLISH), 'iso-8859-2')),
      '/latin2-header': typed('text/html; charset=iso-8859-2', bytes(page('', POLISH), 'iso-8859-2')),
      '/header-beats-meta': typed('text/html; charset=iso-8859-2', bytes(page('<meta charset="windows-1252">', POLISH), 'iso-8859-2')),
      '/utf8-bom': typed('text/html; charset=iso-8859-2', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(page('', JAPANESE))])),
      '/utf16-bom': typed('text/html', Buffer.concat([Buffer.from([0xff, 0xfe]), bytes(page('', JAPANESE), 'utf-16le')])),
      '/garbage-utf8': typed('text/html; charset=utf-8', Buffer.from(Array.from({ length: 400 }, (_, i) => 0x80 + (i % 64)))),
    })
    fetcher = createFetcher(testConfig())
  })
  afterAll(async () => {
    await fetcher.close()
    await server.close()
  })

  it.each([
    ['/1252-header', FRENCH, 'windows-1252'],
    ['/latin1-label', FRENCH, 'windows-1252'],
    ['/1252-undeclared', FRENCH, 'windows-1252'],
    ['/sjis-meta', JAPANESE, 'shift_jis'],
    ['/sjis-header', JAPANESE, 'shift_jis'],
    ['/latin2-meta', POLISH, 'iso-8859-2'],
    ['/latin2-header', POLISH, 'iso-8859-2'],
    ['/header-beats-meta', POLISH, 'iso-8859-2'],
    ['/utf8-bom', JAPANESE, 'utf-8'],
    ['/utf16-bom', JAPANESE, 'utf-16le'],
  ])('%s', async (path, text, encoding) => {
    const out = await fetcher.fetchPage(server.url(path))
    expect(out.error).toBeNull()
    expect(out.encoding).toBe(encoding)
    expect(out.html).toContain(`<p>${text}</p>`)
    expect(out.html?.startsWith('<!doctype html>')).toBe(true) // BOM stripped
  })

  it('reports a body that is not in its declared encoding as E003', async () => {
    const out = await fetcher.fetchPage(server.url('/garbage-utf8'))
    expect(out.error).toEqual({ code: 'E003', reason: 'body is not valid utf-8' })
  })
})
