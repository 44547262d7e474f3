import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { domainMatcher, normalizeDomain, registrableDomain } from '../../src/content/urls/domains.ts'
import type { Candidate, QualityData } from '../../src/curation/quality/filters.ts'
import { applyFilters, noBlocks, thinContentFloor } from '../../src/curation/quality/filters.ts'
import { pageMfaScore } from '../../src/curation/quality/mfa.ts'
import { distance, fingerprint, nearDuplicateIndex } from '../../src/curation/quality/near-duplicates.ts'
import { hammingDistance, simhash } from '../../src/scraping/index/simhash.ts'
import { describeEachEngine } from '../helpers/db.ts'
import { articleHtml, indexHtml, mfaPage, topicPage, topicParagraphs } from './fixtures.ts'
import type { CurationTestApp, ExclusionEntry, UrlEntry } from './helpers.ts'
import { createCurationApp } from './helpers.ts'

describe('near-duplicate index', () => {
  it('finds fingerprints within 3 bits through the block index, and no others', () => {
    const base = 0x0123456789abcdefn
    const flip = (v: bigint, bits: number[]) => bits.reduce((x, b) => x ^ (1n << BigInt(b)), v)
    const idx = nearDuplicateIndex<string>(3)
    idx.add(fingerprint(BigInt.asIntN(64, base))!, 'a')
    expect(idx.check(fingerprint(flip(base, [0, 17, 63]))!)).toEqual({ key: 'a', distance: 3 })
    expect(idx.check(fingerprint(flip(base, [1, 20, 40, 60]))!)).toBeNull()
    expect(idx.check(fingerprint(flip(base, [15, 31, 47, 63]))!)).toBeNull()
    expect(distance(fingerprint('-1')!, fingerprint('0')!)).toBe(64)
    expect(fingerprint(null)).toBeNull()
    expect(fingerprint('junk')).toBeNull()
  })

  it('agrees with the index’s own Hamming distance on real SimHashes', () => {
    const a = simhash(topicParagraphs('sports', 1).join(' '))!
    const b = simhash(topicParagraphs('sports', 2).join(' '))!
    expect(distance(fingerprint(a)!, fingerprint(b)!)).toBe(hammingDistance(a, b))
  })
})

describe('domains', () => {
  it('normalizes what users type', () => {
    expect(normalizeDomain('  WWW.Example.COM. ')).toBe('www.example.com')
    expect(normalizeDomain('*.example.com')).toBe('example.com')
    expect(normalizeDomain('bücher.de')).toBe('xn--bcher-kva.de')
    for (const bad of ['', 'exa mple.com', 'http://x.com/', 'a..b', '-bad.com', 'x'.repeat(300)]) expect(normalizeDomain(bad)).toBeNull()
    expect(registrableDomain('news.bbc.co.uk')).toBe('bbc.co.uk')
  })
  it('matches a domain and its subdomains only', () => {
    const m = domainMatcher(['example.com', 'xyz'])
    expect(m('www.example.com')).toBe('example.com')
    expect(m('example.com')).toBe('example.com')
    expect(m('notexample.com')).toBeNull()
    expect(m('shop.anything.xyz')).toBe('xyz')
  })
})

describe('MFA page score', () => {
  it('needs two strong signals to reach the default threshold', () => {
    expect(pageMfaScore({ ad_slots_per_1000_words: 25 }, 900)).toBe(0) // an ordinary news article
    expect(pageMfaScore({ ad_slots_per_1000_words: 150 }, 900)).toBeCloseTo(0.35)
    expect(pageMfaScore({ has_js_refresh: true }, 900)).toBeCloseTo(0.25)
    expect(pageMfaScore({ ad_slots_per_1000_words: 150, has_meta_refresh: true }, 900)).toBeCloseTo(0.6)
    expect(pageMfaScore({ slideshow_pattern: true, has_js_refresh: true, main_text_ratio: 0.2 }, 150)).toBeCloseTo(0.65)
    expect(pageMfaScore(null, 100)).toBe(0)
  })
})

describe('thin-content floor', () => {
  const cfg = { minWords: 120, minArticleWords: 50, mfaThreshold: 0.5 }
  it('holds every page to minWords, and a dated article without MFA traits of its own to minArticleWords', () => {
    expect(thinContentFloor({ datedArticle: false, pageMfaScore: 0 }, cfg)).toBe(120)
    expect(thinContentFloor({ datedArticle: true, pageMfaScore: 0.3 }, cfg)).toBe(50)
    expect(thinContentFloor({ datedArticle: true, pageMfaScore: null }, cfg)).toBe(50)
    // A short article that is itself ad-stuffed or a slide of a self-refreshing gallery is judged like any page.
    expect(thinContentFloor({ datedArticle: true, pageMfaScore: 0.5 }, cfg)).toBe(120)
    // The article floor never raises the general one.
    expect(thinContentFloor({ datedArticle: true, pageMfaScore: 0 }, { ...cfg, minWords: 30 })).toBe(30)
    // Setting it to minWords judges articles like every other page.
    expect(thinContentFloor({ datedArticle: true, pageMfaScore: 0 }, { ...cfg, minArticleWords: 120 })).toBe(120)
  })

  it('excludes with the floor that applied', () => {
    const page = (pageId: number, wordCount: number, datedArticle: boolean, pageMfaScore: number): Candidate => ({
      pageId,
      url: `https://www.site${pageId}.example/a`,
      host: `www.site${pageId}.example`,
      tld: `site${pageId}.example`,
      wordCount,
      datedArticle,
      pageMfaScore,
      language: 'en',
      taxonomyId: null,
      simhash: null,
      score: 0.5,
      source: 'prompt',
    })
    const data: QualityData = { mfa: new Map(), traffic: new Map(), keywordHits: new Map() }
    const limits = { ...cfg, botMinLoads: 1000, botShareThreshold: 0.5, nearDuplicateBits: 3 }
    const ranked = [page(1, 90, true, 0.25), page(2, 90, false, 0), page(3, 90, true, 0.6), page(4, 40, true, 0), page(5, 400, false, 0)]
    const { kept, excluded } = applyFilters(ranked, noBlocks, data, limits, 100)
    expect(kept.map((c) => c.pageId)).toEqual([1, 5])
    expect(excluded.map((e) => [e.candidate.pageId, e.reason, e.detail.min_words])).toEqual([
      [2, 'thin_content', 120],
      [3, 'thin_content', 120],
      [4, 'thin_content', 50],
    ])
  })
})

describeEachEngine('quality filters in a build', (getDb) => {
  let t: CurationTestApp
  let a: { headers: Record<string, string> }
  let urls: UrlEntry[]
  let excluded: ExclusionEntry[]
  const kept = (u: string) => urls.some((x) => x.url === u)
  const reasonOf = (u: string) => excluded.find((x) => x.url === u)

  const pages: Record<string, string> = {}
  const add = (url: string, htmlText: string) => {
    pages[url] = htmlText
  }
  beforeAll(async () => {
    t = await createCurationApp(getDb().db)
    a = await t.client()
    const db = getDb().db
    // Clean sports pages on ordinary domains: these stay.
    for (let i = 0; i < 6; i++) add(`https://www.clean${i}.example/match/${i}`, topicPage('sports', 600 + i))
    // An MFA domain: ad-stuffed, self-refreshing slideshows.
    for (let i = 0; i < 3; i++) add(`https://www.slides.example/gallery/${i}?page=3`, mfaPage('sports', 610 + i))
    // One MFA-like page on an otherwise clean domain: the domain's mean stays low, so its pages stay.
    add('https://www.mostlyclean.example/gallery?page=3', mfaPage('sports', 620))
    for (let i = 0; i < 3; i++) add(`https://www.mostlyclean.example/story/${i}`, topicPage('sports', 621 + i))
    // Bot-heavy, and domains with too few loads or mostly human traffic.
    add('https://www.bots.example/a', topicPage('sports', 630))
    add('https://www.fewloads.example/a', topicPage('sports', 631))
    add('https://www.humans.example/a', topicPage('sports', 632))
    // Thin content: above the index's E004 floor (50 words) but under the thin-content floor (120).
    add('https://www.thin.example/a', articleHtml({ title: 'Match report', paragraphs: topicParagraphs('sports', 640, 5) }))
    // As short, but a news brief: its publisher marks it as a dated article.
    const dated = '<meta property="og:type" content="article"><meta property="article:published_time" content="2020-01-02T10:00:00Z">'
    add('https://www.brief.example/a', articleHtml({ title: 'Match result', paragraphs: topicParagraphs('sports', 641, 5), head: dated }))
    // Near-duplicates: the same article on two other domains, one with a word changed.
    const original = topicPage('sports', 650)
    add('https://www.original.example/a', original)
    add('https://www.copycat.example/a', original)
    add('https://www.rewriter.example/a', original.replace('The striker scored twice', 'The striker scored thrice'))
    // Blocked by the request.
    add('https://www.blocked.example/a', topicPage('sports', 660))
    add('https://news.blocked.example/b', topicPage('sports', 661))
    add('https://www.notblocked.example/a', topicPage('sports', 662))
    add(
      'https://www.casino.example/a',
      articleHtml({ title: 'Match report and odds', paragraphs: [...topicParagraphs('sports', 670), 'Bet now at our Crypto Casino for bonus odds.'] }),
    )
    for (const [url, h] of Object.entries(pages)) await indexHtml(db, url, h)
    await db.query(
      `INSERT INTO domain_traffic_stats (domain, loads, non_human_loads, updated_at) VALUES
         ('bots.example', 5000, 4000, now()), ('fewloads.example', 100, 90, now()), ('humans.example', 5000, 100, now())`,
    )
    const seg = await t.build(a.headers, {
      prompt: 'sports fans following games, results and transfer news',
      block_tlds: ['blocked.example'],
      block_keywords: ['crypto casino'],
    })
    urls = await t.urls(a.headers, seg.id)
    excluded = await t.exclusions(a.headers, seg.id)
  })
  afterAll(() => t.close())

  it('keeps the clean pages', () => {
    for (let i = 0; i < 6; i++) expect(kept(`https://www.clean${i}.example/match/${i}`)).toBe(true)
    for (const u of [
      'https://www.fewloads.example/a',
      'https://www.humans.example/a',
      'https://www.notblocked.example/a',
      'https://www.original.example/a',
      'https://www.brief.example/a',
    ]) {
      expect(kept(u), u).toBe(true)
    }
  })

  it('excludes a made-for-advertising domain, judged over all its pages', () => {
    for (let i = 0; i < 3; i++) {
      const e = reasonOf(`https://www.slides.example/gallery/${i}?page=3`)
      expect(e?.reason).toBe('mfa')
      expect(e?.detail).toMatchObject({ domain: 'slides.example', pages: 3, threshold: 0.5 })
      expect(e?.detail.mfa_score as number).toBeGreaterThanOrEqual(0.5)
    }
    expect(kept('https://www.mostlyclean.example/gallery?page=3')).toBe(true)
  })

  it('excludes a bot-heavy domain with enough loads', () => {
    expect(reasonOf('https://www.bots.example/a')).toMatchObject({
      reason: 'bot_traffic',
      detail: { domain: 'bots.example', loads: 5000, non_human_share: 0.8 },
    })
  })

  it('excludes thin content', () => {
    expect(reasonOf('https://www.thin.example/a')).toMatchObject({ reason: 'thin_content', detail: { min_words: 120 } })
  })

  it('keeps the best-ranked of near-duplicates and excludes the rest', () => {
    const copy = reasonOf('https://www.copycat.example/a')
    const rewrite = reasonOf('https://www.rewriter.example/a')
    expect(copy).toMatchObject({ reason: 'near_duplicate', detail: { duplicate_of: 'https://www.original.example/a', distance: 0 } })
    expect(rewrite?.reason).toBe('near_duplicate')
    expect(rewrite?.detail.distance as number).toBeLessThanOrEqual(3)
  })

  it('applies block_tlds (with subdomains) and block_keywords', () => {
    expect(reasonOf('https://www.blocked.example/a')).toMatchObject({ reason: 'blocked_tld', detail: { blocked: 'blocked.example' } })
    expect(reasonOf('https://news.blocked.example/b')?.reason).toBe('blocked_tld')
    expect(reasonOf('https://www.casino.example/a')).toMatchObject({ reason: 'blocked_keyword', detail: { keyword: 'crypto casino' } })
  })

  it('counts exclusions by reason and filters the listing by reason', async () => {
    const res = await t.get(a.headers, `/v1/curation/segment-requests/${urls.length ? await latestId() : 0}/exclusions?reason=mfa`)
    const body = JSON.parse(res.body) as { total: number; by_reason: Record<string, number>; exclusions: ExclusionEntry[] }
    expect(body.total).toBe(3)
    expect(body.exclusions.every((e) => e.reason === 'mfa')).toBe(true)
    expect(body.by_reason).toMatchObject({ mfa: 3, bot_traffic: 1, thin_content: 1, near_duplicate: 2, blocked_tld: 2, blocked_keyword: 1 })
  })

  async function latestId(): Promise<number> {
    const list = JSON.parse((await t.get(a.headers, '/v1/curation/segment-requests')).body) as { id: number }[]
    return list.at(-1)!.id
  }
})

describeEachEngine('languages in a build', (getDb) => {
  let t: CurationTestApp
  let a: { headers: Record<string, string> }
  let urls: UrlEntry[]
  let excluded: ExclusionEntry[]
  // Each text twice over: above the thin-content floor of 120 words.
  const page = (lang: string, title: string, paragraphs: string[]) =>
    articleHtml({ title, paragraphs: [...paragraphs, ...paragraphs] }).replace('<html lang="en">', `<html lang="${lang}">`)
  const portuguese = [
    'O futebol brasileiro viveu uma rodada decisiva do campeonato neste domingo, com o estádio lotado e a torcida cantando do início ao fim da partida.',
    'O treinador elogiou os jogadores depois da vitória: a equipe marcou três gols no segundo tempo e assumiu a liderança da temporada.',
    'Os torcedores comemoraram nas ruas, e o clube já pensa na próxima partida, fora de casa, contra o atual campeão da taça.',
    'Na coletiva, o técnico disse que a seleção de jogadores para a próxima rodada depende da recuperação de dois atletas lesionados durante o jogo.',
    'O campeonato segue equilibrado: quatro clubes estão separados por dois pontos, e cada partida das últimas rodadas vale como uma final para os torcedores.',
  ]
  const russian = [
    'Футбольный клуб одержал уверенную победу в воскресенье: три гола во втором тайме принесли команде первое место в таблице чемпионата.',
    'Тренер похвалил игроков после матча и сказал, что болельщики на стадионе помогли команде переломить ход игры в трудный момент.',
    'В следующем туре команда сыграет на выезде против действующего чемпиона, и билеты на этот матч уже распроданы.',
    'Болельщики праздновали на улицах до поздней ночи, а руководство клуба объявило о продлении контракта с главным тренером.',
    'Чемпионат остаётся напряжённым: четыре клуба разделяют всего два очка, и каждый матч становится финалом для команды и её болельщиков.',
  ]

  beforeAll(async () => {
    t = await createCurationApp(getDb().db)
    a = await t.client()
    const db = getDb().db
    for (let i = 0; i < 3; i++) await indexHtml(db, `https://www.clean${i}.example/match/${i}`, topicPage('sports', 700 + i))
    await indexHtml(db, 'https://esporte.example.com.br/futebol/rodada', page('pt', 'Rodada decisiva do campeonato', portuguese))
    await indexHtml(db, 'https://sport.example.ru/football/match', page('ru', 'Победа в чемпионате', russian))
    const seg = await t.build(a.headers, {
      prompt: 'sports fans following games, results and transfer news',
      example_urls: ['https://sport.example.ru/football/match'],
    })
    urls = await t.urls(a.headers, seg.id)
    excluded = await t.exclusions(a.headers, seg.id)
  })
  afterAll(() => t.close())

  it('classifies a page in a language the classifier reads, and takes it into the segment', async () => {
    const { rows } = await getDb().db.query<{ language: string; errors: string[]; primary_category: number | null }>(
      `SELECT language, errors, primary_category FROM pages WHERE url = 'https://esporte.example.com.br/futebol/rodada'`,
    )
    expect(rows[0]).toMatchObject({ language: 'pt', primary_category: 483 })
    expect(rows[0]!.errors).not.toContain('E006')
    expect(urls.map((u) => u.url)).toContain('https://esporte.example.com.br/futebol/rodada')
  })

  it('gives E006 and no categories to a page in a language it does not read, and excludes it as an example URL', async () => {
    const { rows } = await getDb().db.query<{ language: string; errors: string[]; categories: unknown[] }>(
      `SELECT language, errors, categories FROM pages WHERE url = 'https://sport.example.ru/football/match'`,
    )
    expect(rows[0]).toMatchObject({ language: 'ru', categories: [] })
    expect(rows[0]!.errors).toContain('E006')
    expect(excluded.find((e) => e.url === 'https://sport.example.ru/football/match')).toMatchObject({
      reason: 'unsupported_language',
      detail: { language: 'ru', supported: ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl'] },
    })
  })
})
