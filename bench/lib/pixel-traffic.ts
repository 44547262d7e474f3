// Synthetic pixel traffic for the collector benchmark: every request differs the way real loads do,
// so no cache or per-batch de-duplication in the collector gets an easier time than in production.
//   user agents  85 % real browser strings (30 browsers and in-app webviews), 15 % bots of every type
//                (search, LLM training and retrieval, scrapers, HTTP libraries, headless browsers)
//   pages        8 publisher domains × 2,000 article paths, skewed (a few pages get most loads); 2 % of
//                human loads arrive from an AI assistant (utm_source=chatgpt.com)
//   macros       unique cb and imp on every hit; one of 40 deals, a random price; 1 % left unexpanded
//   headers      Accept-Language from 12 locales, Referer = the page, client hints on Chromium
//   campaigns    0.5 % of hits name a campaign that does not exist (recorded as invalid)
import { HEADLESS_UAS, HUMAN_UAS, LIBRARY_UAS, LLM_RETRIEVAL_UAS, LLM_TRAINING_UAS, SCRAPER_UAS, SEARCH_UAS } from '../../test/pixel/agents/fixtures.ts'

export interface PixelRequest {
  path: string
  headers: Record<string, string>
}

const BOTS = [SEARCH_UAS, LLM_TRAINING_UAS, LLM_RETRIEVAL_UAS, SCRAPER_UAS, LIBRARY_UAS, HEADLESS_UAS].flat().map(([ua]) => ua)
const DOMAINS = [
  'news.example',
  'www.dailyreport.example',
  'sport.example.co.uk',
  'recipes.example',
  'tech.example.io',
  'finance.example.com',
  'travel.example.net',
  'local.example.org',
]
const SECTIONS = ['world', 'politics', 'business', 'science', 'culture', 'opinion', 'health', 'sport']
const LANGUAGES = [
  'en-US,en;q=0.9',
  'en-GB,en;q=0.9',
  'de-DE,de;q=0.9,en;q=0.8',
  'fr-FR,fr;q=0.9,en-US;q=0.8,en;q=0.7',
  'es-ES,es;q=0.9',
  'it-IT,it;q=0.9,en;q=0.8',
  'nl-NL,nl;q=0.9,en;q=0.8',
  'pt-BR,pt;q=0.9,en;q=0.8',
  'ja-JP,ja;q=0.9',
  'en-US',
  'pl-PL,pl;q=0.9,en-US;q=0.8',
  'sv-SE,sv;q=0.9,en;q=0.8',
]

/** Deterministic traffic (mulberry32), so runs are comparable. */
export function pixelTraffic(campaignId: number, seed = 0x5eed): () => PixelRequest {
  let s = seed
  const rand = (): number => {
    s = (s + 0x6d2b79f5) | 0
    let t = Math.imul(s ^ (s >>> 15), 1 | s)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!
  let n = 0
  return () => {
    n++
    const human = rand() < 0.85
    const ua = human ? pick(HUMAN_UAS) : pick(BOTS)
    const domain = pick(DOMAINS)
    const article = Math.floor(2000 * rand() ** 3) // skewed towards low numbers: hot pages
    const fromAi = human && rand() < 0.02
    const page = `https://${domain}/${SECTIONS[article % SECTIONS.length]}/story-${article}${fromAi ? '?utm_source=chatgpt.com' : ''}`
    const campaign = rand() < 0.005 ? campaignId + 1_000_000 : campaignId
    const price = rand() < 0.01 ? '${AUCTION_PRICE}' : (rand() * 20).toFixed(4)
    const imp = Math.floor(rand() * 2 ** 32).toString(16) + n.toString(16)
    const path =
      `/px/${campaign}.gif?u=${encodeURIComponent(page)}&d=${domain}&deal=TTD-${Math.floor(rand() * 40)}` +
      `&price=${encodeURIComponent(price)}&cur=USD&dsp=ttd&imp=${imp}&cb=${n}`
    const headers: Record<string, string> = { 'user-agent': ua, 'accept-language': pick(LANGUAGES), referer: page }
    const chrome = / Chrome\/(\d+)/.exec(ua)
    if (human && chrome) {
      headers['sec-ch-ua'] = `"Chromium";v="${chrome[1]}", "Google Chrome";v="${chrome[1]}", "Not-A.Brand";v="99"`
      headers['sec-ch-ua-mobile'] = ua.includes('Mobile') ? '?1' : '?0'
      headers['sec-ch-ua-platform'] = ua.includes('Android') ? '"Android"' : ua.includes('Windows') ? '"Windows"' : '"macOS"'
    }
    return { path, headers }
  }
}
