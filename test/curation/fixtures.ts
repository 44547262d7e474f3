/**
 * Test pages for curation: topical articles built from sentence pools (every page a different mix,
 * so no two are near-duplicates by accident), analyzed by the real extractor and classifier and
 * stored in the index without HTTP — the way test/scraping/index/pages.test.ts does.
 */

import { isNormalizeError, normalizeUrl } from '../../src/content/urls/normalize-url.ts'
import type { Db } from '../../src/platform/db/db.ts'
import type { FetchOutcome } from '../../src/scraping/fetch/fetcher.ts'
import { analyzePage } from '../../src/scraping/index/analyze-page.ts'
import { queuePages, savePage } from '../../src/scraping/index/pages-repository.ts'

export const pools = {
  sports: [
    'The striker scored twice as the club won the league match in front of a full stadium.',
    'The coach praised the defenders after the team kept a clean sheet in the championship game.',
    'Fans celebrated the victory while the goalkeeper saved a penalty in the final minutes.',
    'The tournament semifinal went to overtime before the champions sealed their place in the final.',
    'The midfielder signed a new contract as the transfer window opened for every league club.',
    'The referee showed a red card and the squad finished the match with ten players.',
    'The quarterback threw three touchdowns and the defense forced two turnovers in the playoff win.',
    'The basketball team won the rebound battle and the point guard scored thirty points.',
    'Olympic athletes trained for months before the medal races at the national stadium.',
    'The tennis champion reached the grand slam final after a long rally in the fifth set.',
    'League officials confirmed the fixture list and the season opener will be played on Saturday.',
    'The injured player returned to training and the coach expects him back for the derby.',
    'Supporters sang for ninety minutes as the home team climbed to the top of the league table.',
    'The manager rotated the squad for the cup tie and gave young players a chance to impress.',
  ],
  finance: [
    'Shares of the company rose after quarterly earnings beat analyst expectations on Wall Street.',
    'The central bank raised interest rates to fight inflation, and bond yields climbed.',
    'Investors moved money into stocks as the market rallied for a third straight week.',
    'The startup raised new funding from venture capital firms at a higher valuation.',
    'Economists expect the economy to grow slowly as consumer spending cools.',
    'The retailer cut its revenue forecast and its stock price fell sharply in early trading.',
    'The merger will create the largest bank in the region, pending approval from regulators.',
    'Oil prices dropped as traders worried about demand, dragging energy stocks lower.',
    'The chief executive told shareholders that profit margins improved despite higher costs.',
    'Unemployment fell and wages grew, according to the latest report on the labor market.',
    'The fund manager said dividend stocks offer investors steady income in a volatile market.',
    'Quarterly revenue at the software company beat forecasts thanks to strong cloud sales.',
    'The exchange listed the company after an initial public offering that priced above its range.',
    'Analysts lowered their earnings estimates after the company warned about weaker sales.',
  ],
  cooking: [
    'Whisk the eggs with the sugar, then fold in the flour and bake the cake for forty minutes.',
    'This recipe for roasted vegetables needs olive oil, garlic, salt and a hot oven.',
    'Simmer the tomato sauce slowly and season it with fresh basil before serving the pasta.',
    'The chef recommends marinating the chicken overnight for a tender and juicy dinner.',
    'Knead the dough until smooth, let it rise for an hour, then bake the bread until golden.',
    'A good soup starts with onions, carrots and celery cooked gently in butter.',
    'Serve the grilled fish with lemon, herbs and a crisp green salad for a light lunch.',
    'The dessert combines dark chocolate, cream and berries in a simple no-bake tart.',
    'Add the spices to the pan, stir for a minute, then pour in the coconut milk for the curry.',
    'Toast the nuts in a dry skillet and sprinkle them over the salad just before eating.',
    'For breakfast, the pancakes need flour, milk, eggs, baking powder and a pinch of salt.',
    'Roast the beef at a high temperature, then rest the meat before slicing it thinly.',
    'The cookbook collects family recipes for stews, pies and holiday cookies.',
    'Chop the herbs finely and mix them with yogurt to make a cooling sauce for the kebabs.',
  ],
  autos: [
    'The new electric car charges from ten to eighty percent in eighteen minutes at a fast charger.',
    'Reviewers praised the electric SUV for its range of four hundred miles and its quiet cabin.',
    'The carmaker will build its next electric vehicle on a platform shared with its sedans.',
    'Battery prices fell again this year, making electric vehicles cheaper to produce.',
    'The hybrid hatchback pairs a small petrol engine with an electric motor for city driving.',
    'Drivers of electric vehicles can now use thousands of new public charging stations.',
    'The test drive showed strong acceleration, precise steering and regenerative braking.',
    'Automakers are racing to cut the weight of battery packs to extend driving range.',
    'The pickup truck comes with all-wheel drive, a towing package and an electric option.',
    'Dealers reported strong demand for used electric cars as fuel prices rose.',
    'The motor show revealed concept cars with autonomous driving features and solar roofs.',
    'Owners can schedule home charging overnight, when electricity is cheapest.',
    'The compact crossover earned a five-star safety rating in the latest crash tests.',
    'Tax credits for buying an electric vehicle were extended for another two years.',
  ],
} as const
export type Topic = keyof typeof pools

/** A deterministic pseudo-random sequence (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Paragraphs of a topical article: a seeded mix of the topic's sentences, about 20 words each. */
export function topicParagraphs(topic: Topic, seed: number, sentences = 24): string[] {
  const r = rng(seed)
  const pool = pools[topic]
  const picked: string[] = []
  for (let i = 0; i < sentences; i++) picked.push(pool[Math.floor(r() * pool.length)]!)
  const paragraphs: string[] = []
  for (let i = 0; i < picked.length; i += 3) paragraphs.push(picked.slice(i, i + 3).join(' '))
  return paragraphs
}

export interface PageSpec {
  title: string
  paragraphs: readonly string[]
  /** Extra markup in <head> (refresh tags, ad scripts). */
  head?: string
  /** Extra markup around the article (ad slots, navigation). */
  before?: string
  after?: string
  links?: readonly string[]
}

export function articleHtml(p: PageSpec): string {
  const links = (p.links ?? []).map((l) => `<li><a href="${l}">${l}</a></li>`).join('')
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${p.title}</title>${p.head ?? ''}</head>
<body><header><nav><a href="/">Home</a></nav></header>${p.before ?? ''}
<article><h1>${p.title}</h1>${p.paragraphs.map((x) => `<p>${x}</p>`).join('\n')}</article>
${p.after ?? ''}<aside><ul>${links}</ul></aside><footer><a href="/about">About us</a></footer></body></html>`
}

export function topicPage(topic: Topic, seed: number, extra: Partial<PageSpec> = {}): string {
  const titles: Record<Topic, string> = {
    sports: 'League match report: the club wins the championship game',
    finance: 'Markets: shares rise as earnings beat expectations',
    cooking: 'Easy dinner recipe: bake, roast and simmer at home',
    autos: 'Electric vehicles: the new car reviewed, range and charging tested',
  }
  return articleHtml({ title: `${titles[topic]} (${seed})`, paragraphs: topicParagraphs(topic, seed), ...extra })
}

/** An ad-stuffed, self-refreshing slideshow page: trips the MFA score. */
export function mfaPage(topic: Topic, seed: number): string {
  const slot = (i: number) =>
    `<div id="div-gpt-ad-${i}" class="ad-slot"></div><ins class="adsbygoogle" data-ad-client="ca-pub-1" data-ad-slot="${i}"></ins>` +
    `<iframe src="https://tpc.googlesyndication.com/safeframe/${i}.html"></iframe>`
  const slots = Array.from({ length: 8 }, (_, i) => slot(i)).join('')
  return articleHtml({
    title: `Slide 3 of 20: ${topic} you will not believe (${seed})`,
    paragraphs: topicParagraphs(topic, seed, 9),
    head: `<meta http-equiv="refresh" content="30"><script async src="https://securepubads.g.doubleclick.net/tag/js/gpt.js"></script>`,
    before: `${slots}<div class="counter">Slide 3 of 20</div>`,
    after: `${slots}<a href="?page=2">Previous</a> <a href="?page=4" rel="next">Next slide</a>`,
  })
}

export function outcome(url: string, html: string | null, extra: Partial<FetchOutcome> = {}): FetchOutcome {
  return {
    url,
    finalUrl: url,
    status: 200,
    contentType: 'text/html; charset=utf-8',
    html,
    encoding: 'utf8',
    headers: {},
    truncated: false,
    error: null,
    fetchedAt: '2026-11-22T09:00:00.000Z',
    elapsedMs: 5,
    ...extra,
  }
}

/** Analyzes the HTML as if fetched from url and stores it in the index; returns the page id. */
export async function indexHtml(db: Db, url: string, html: string | null, extra: Partial<FetchOutcome> = {}): Promise<number> {
  const n = normalizeUrl(url)
  if (isNormalizeError(n)) throw new Error(n.error)
  const ids = await queuePages(db, [n], new Date('2026-11-22T09:00:00Z'))
  const id = ids.get(n.url)!
  await savePage(db, id, analyzePage(outcome(n.url, html, extra)))
  return id
}

export async function indexTopic(db: Db, topic: Topic, urls: string[], seed0 = 1): Promise<number[]> {
  const ids: number[] = []
  for (const [i, url] of urls.entries()) ids.push(await indexHtml(db, url, topicPage(topic, seed0 + i)))
  return ids
}
