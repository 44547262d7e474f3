import { describe, expect, it } from 'vitest'
import { parseAdsTxt } from '../../../src/scraping/ads-txt/parse.ts'
import { corpus, corpusFile, countRecords } from '../fixtures/web-ads-txt.ts'

describe('parseAdsTxt on the real corpus', () => {
  const files = corpus()

  it('finds the whole corpus', () => {
    expect(files.length).toBe(54)
    expect(files.filter((f) => f.name.startsWith('iab-fixtures/'))).toHaveLength(3)
  })

  it.each(files.map((f) => [f.name, f.text] as const))('%s: entry count matches an independent count', (_name, text) => {
    const parsed = parseAdsTxt(text)
    expect(parsed.entries.length).toBe(countRecords(text))
  })

  it('reads politico.com exactly', () => {
    const p = parseAdsTxt(corpusFile('real/Politico/politico.com/ads.txt'))
    expect(p.entries).toHaveLength(103)
    expect(p.invalid_lines).toBe(0)
    expect(p.variables.owner_domain).toBe('politico.com')
    expect(p.entries[0]).toEqual({ domain: 'google.com', account_id: 'pub-8279698647515158', relationship: 'DIRECT', certification_id: 'f08c47fec0942fa0' })
    // A trailing comma leaves field 4 empty: still a record, without certification id.
    expect(p.entries).toContainEqual({ domain: 'smartadserver.com', account_id: '2491', relationship: 'RESELLER', certification_id: null })
    expect(p.entries).toContainEqual({ domain: 'sharethrough.com', account_id: 'TZ1ahFV8', relationship: 'RESELLER', certification_id: 'd53b998a7bd4ecd2' })
  })

  it('reads bild.de variables', () => {
    const p = parseAdsTxt(corpusFile('real/MediaImpact/bild.de/ads.txt'))
    expect(p.entries).toHaveLength(133)
    expect(p.variables).toMatchObject({
      owner_domain: 'axelspringer.com',
      manager_domains: [{ domain: 'mediaimpact.de', country: null }],
      subdomains: ['spiele.bild.de', 'app-spiele.bild.de', 'toralarm.bild.de', 'sportbild.bild.de'],
    })
  })

  it('skips and counts the broken lines of transfermarkt.de', () => {
    const p = parseAdsTxt(corpusFile('real/MediaImpact/transfermarkt.de/ads.txt'))
    expect(p.entries).toHaveLength(2049)
    // RESELLERe1a5…, "::::Outbrainads.txt::::", two rulers of underscores, a ruler of dashes,
    // and two "DIRECT <cert>" lines missing their comma.
    expect(p.invalid_lines).toBe(7)
    // yahoo.com 58905 appears on 4 good lines and 1 broken one; duplicates are kept, the broken line is not.
    expect(p.entries.filter((e) => e.domain === 'yahoo.com' && e.account_id === '58905')).toHaveLength(4)
    expect(p.entries).toContainEqual({ domain: 'sharethrough.com', account_id: 'TDBjiIPU', relationship: 'DIRECT', certification_id: 'd53b998a7bd4ecd2' })
  })

  it('handles a fifth field, a trailing note and a missing comma in motorsport.com', () => {
    const p = parseAdsTxt(corpusFile('real/MediaImpact/motorsport.com/ads.txt'))
    expect(p.entries).toHaveLength(705)
    expect(p.invalid_lines).toBe(1) // "RESELLER 50b1c356f2c5c8fc"
    expect(p.entries).toContainEqual({
      domain: 'google.com',
      account_id: 'pub-2163792983970113',
      relationship: 'RESELLER',
      certification_id: 'f08c47fec0942fa0',
    })
    expect(p.entries).toContainEqual({ domain: 'contextweb.com', account_id: '560288', relationship: 'RESELLER', certification_id: '89ff185a4c4e857c' })
    expect(p.variables.owner_domain).toBe('de.motorsport.com')
  })

  it('reads the IAB reference fixtures, keeping draft variables under other', () => {
    const red = parseAdsTxt(corpusFile('iab-fixtures/mvpd_red_com_ads.txt'))
    expect(red.entries).toEqual([
      { domain: 'green_ssp.com', account_id: '34354', relationship: 'DIRECT', certification_id: '2f5732fd30df865f' },
      { domain: 'violet_ssp.com', account_id: '19253', relationship: 'DIRECT', certification_id: '943daa6c342aa0bf' },
    ])
    expect(red.variables.other).toEqual([
      { name: 'contentproducerdomain', value: 'content_blue.com' },
      { name: 'contentproducerdomain', value: 'content_yellow.com' },
    ])
    const blue = parseAdsTxt(corpusFile('iab-fixtures/content_blue_com_ads.txt'))
    expect(blue.entries.map((e) => e.account_id)).toEqual(['70922', '29904'])
    expect(blue.variables.other).toEqual([{ name: 'contentdistributordomain', value: 'mvpd_red.com' }])
    expect(parseAdsTxt(corpusFile('iab-fixtures/mvpd_fuchsia_com_ads.txt')).entries[1]?.account_id).toBe('01951')
  })
})

describe('parseAdsTxt rules', () => {
  it('normalizes case, spaces, tabs, line endings, BOM and extensions', () => {
    const text = '\uFEFFExample-SSP.com ,\tAbC123 , direct , TAG1;ext=1\r\nother.com,1,Reseller\rthird.com, 2, RESELLER, # no cert\n'
    expect(parseAdsTxt(text)).toMatchObject({
      invalid_lines: 0,
      entries: [
        { domain: 'example-ssp.com', account_id: 'AbC123', relationship: 'DIRECT', certification_id: 'TAG1' },
        { domain: 'other.com', account_id: '1', relationship: 'RESELLER', certification_id: null },
        { domain: 'third.com', account_id: '2', relationship: 'RESELLER', certification_id: null },
      ],
    })
  })

  it('reads every 1.1 variable, case-insensitively', () => {
    const p = parseAdsTxt(
      [
        'OWNERDOMAIN=Owner.com',
        'ownerdomain=second.com',
        'MANAGERDOMAIN=mgr.com',
        'managerdomain = mgr-fr.com, fr',
        'MANAGERDOMAIN=other-fr.com,FR',
        'CONTACT=adops@owner.com # the team',
        'contact=https://owner.com/contact',
        'SUBDOMAIN=news.owner.com',
        'InventoryPartnerDomain=partner.com',
      ].join('\n'),
    )
    expect(p.invalid_lines).toBe(0)
    expect(p.variables).toEqual({
      owner_domain: 'owner.com',
      manager_domains: [
        { domain: 'mgr.com', country: null },
        { domain: 'mgr-fr.com', country: 'FR' },
      ],
      contacts: ['adops@owner.com', 'https://owner.com/contact'],
      subdomains: ['news.owner.com'],
      inventory_partner_domains: ['partner.com'],
      other: [],
    })
  })

  it('skips and counts invalid lines', () => {
    const p = parseAdsTxt(
      [
        'ok.com, 1, DIRECT',
        'two-fields.com, 1',
        'bad.com, 1, PARTNER',
        'no-dot, 1, DIRECT',
        'spaced.com, a b, DIRECT',
        'ownerdomain=not a domain',
        'managerdomain=m.com,FRA',
        'subdomain=',
        '<html><body>oops</body></html>',
        '   # only a comment',
        '',
      ].join('\n'),
    )
    expect(p.entries).toHaveLength(1)
    expect(p.invalid_lines).toBe(8)
  })

  it('recognizes the "no sellers" placeholder without listing it', () => {
    const p = parseAdsTxt('placeholder.example.com, placeholder, DIRECT, placeholder\n')
    expect(p).toMatchObject({ entries: [], placeholder: true, invalid_lines: 0 })
  })
})
