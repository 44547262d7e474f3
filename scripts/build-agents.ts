// Builds src/pixel/agents/agents.json from three sources (docs/agents.md, "Where the data comes from"):
// the ai.robots.txt list (MIT, fixtures/bots) typed by the crosswalk in docs/agents.md ("Types"), our
// curated families (src/pixel/agents/curated.ts), and the search engines and AI crawlers of
// crawler-user-agents (MIT, fixtures/bots) that neither names. The product reads only the generated JSON.
//
//   node --import tsx scripts/build-agents.ts
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CURATED, RANGES_BY_NAME } from '../src/pixel/agents/curated.ts'
import { compileMatcher, patternsOf } from '../src/pixel/agents/matcher.ts'
import type { AgentRecord, AgentsDocument, AgentType } from '../src/pixel/agents/schema.ts'
import { validateAgents } from '../src/pixel/agents/schema.ts'

export const ROBOTS_COMMIT = '738c80df'
export const CRAWLERS_COMMIT = '7c7f9f25'

interface RobotsEntry {
  operator: string
  respect: string
  function: string
  description: string
}
export interface CrawlerEntry {
  pattern: string
  instances: string[]
  tags: string[]
  url?: string
  description?: string
}

// Known Agents categories found in robots.json `function` -> our type (research §1.3, §1.8).
const CATEGORY: Record<string, AgentType> = {
  'AI Search Crawlers': 'llm_retrieval',
  'AI Assistants': 'llm_retrieval',
  'AI Agents': 'llm_retrieval',
  'AI Coding Agents': 'llm_retrieval',
  'AI Data Scrapers': 'llm_training',
  'AI data scraper': 'llm_training',
  // They fetch pages for AI applications on request (Firecrawl, Tavily, Apify, Bright Data, Exa).
  'AI Data Providers': 'llm_retrieval',
}

// Entries whose `function` is prose or whose category the research overrides (tie-break: index for
// classic search = search, feeding an answer = llm_retrieval, building a model = llm_training).
// Amazonbot, Linguee Bot, PanguBot and Timpibot are `search`: the crawler list tags them search engines
// (pangutech.com's PanguBot, Timpi's and Linguee's search indexes, Alexa answers), and a publisher compares
// our types with that list; docs/agents.md notes that their operators may also train models on the data.
const TYPE_BY_KEY: Record<string, AgentType> = {
  AgentTimes: 'scraper',
  AI2Bot: 'llm_training',
  'Ai2Bot-Dolma': 'llm_training',
  aiHitBot: 'search',
  'amazon-kendra': 'llm_retrieval',
  Amazonbot: 'search',
  Andibot: 'llm_retrieval',
  Anomura: 'llm_retrieval',
  'anthropic-ai': 'llm_training',
  Applebot: 'search',
  'Applebot-Extended': 'llm_training',
  'Aranet-SearchBot': 'llm_retrieval',
  'atlassian-bot': 'llm_retrieval',
  bedrockbot: 'llm_retrieval',
  Bravebot: 'search',
  Brightbot: 'llm_retrieval',
  BuddyBot: 'llm_retrieval',
  Bytespider: 'llm_training',
  CCBot: 'llm_training',
  'Claude-SearchBot': 'llm_retrieval',
  'Claude-Web': 'llm_training',
  ClaudeBot: 'llm_training',
  'Cloudflare-AutoRAG': 'llm_retrieval',
  'cohere-ai': 'llm_retrieval',
  Cotoyogi: 'llm_training',
  Crawl4AI: 'llm_retrieval',
  DeepSeekBot: 'llm_training',
  EchoboxBot: 'scraper',
  FacebookBot: 'llm_training',
  facebookexternalhit: 'scraper',
  Factset_spyderbot: 'llm_training',
  FriendlyCrawler: 'llm_training',
  'Google-CloudVertexBot': 'llm_retrieval',
  'Google-Extended': 'llm_training',
  'Google-Firebase': 'llm_retrieval',
  GoogleOther: 'search',
  'GoogleOther-Image': 'search',
  'GoogleOther-Video': 'search',
  GPTBot: 'llm_training',
  iAskBot: 'llm_retrieval',
  iaskspider: 'llm_retrieval',
  'ICC-Crawler': 'llm_training',
  ImagesiftBot: 'search',
  img2dataset: 'llm_training',
  ISSCyberRiskCrawler: 'llm_training',
  KunatoCrawler: 'llm_training',
  LAIONDownloader: 'llm_training',
  Lightpanda: 'scraper',
  'Linguee Bot': 'search',
  'meta-externalagent': 'llm_training',
  'MistralAI-User': 'llm_retrieval',
  NagetBot: 'llm_training',
  'OAI-SearchBot': 'llm_retrieval',
  omgili: 'scraper',
  omgilibot: 'scraper',
  OpenAI: 'scraper',
  PanguBot: 'search',
  Panscient: 'scraper',
  PerplexityBot: 'llm_retrieval',
  PetalBot: 'search',
  'Poseidon Research Crawler': 'llm_training',
  QuillBot: 'llm_retrieval',
  Reflectionbot: 'llm_training',
  SBIntuitionsBot: 'llm_training',
  Scrapy: 'scraper',
  'SemrushBot-OCOB': 'scraper',
  'SemrushBot-SWA': 'scraper',
  'Sidetrade indexer bot': 'scraper',
  Thinkbot: 'llm_training',
  TerraCotta: 'llm_training',
  HenkBot: 'llm_retrieval',
  ShapBot: 'llm_retrieval',
  TikTokSpider: 'llm_training',
  Timpibot: 'search',
  VelenPublicWebCrawler: 'llm_training',
  'Webzio-Extended': 'llm_training',
  wpbot: 'llm_retrieval',
  WRTNBot: 'llm_retrieval',
  YaK: 'scraper',
  YandexAdditional: 'llm_retrieval',
  YandexAdditionalBot: 'llm_retrieval',
  YouBot: 'search',
  AddSearchBot: 'search',
}

// Keys that are the same agent as another key (case variant, version suffix, domain form).
const ALIAS_OF: Record<string, string> = {
  'Meta-ExternalAgent': 'meta-externalagent',
  'Meta-ExternalFetcher': 'meta-externalfetcher',
  'webzio-extended': 'Webzio-Extended',
  'MistralAI-User/1.0': 'MistralAI-User',
  'iaskspider/2.0': 'iaskspider',
  'Brightbot 1.0': 'Brightbot',
  'Terra Cotta': 'TerraCotta',
  'quillbot.com': 'QuillBot',
  'panscient.com': 'Panscient',
  CloudVertexBot: 'Google-CloudVertexBot',
  NotebookLM: 'Google-NotebookLM',
}

// Tokens that are ordinary words or common names: they name the agent only as a declared product
// (`=Spider`: "Spider/1.0", "(compatible; Spider; …)") or as a versioned product (`Devin/`), never
// as a word in a URL, an e-mail or a browser's product list (VS Code sends "Code/1.85 Chrome/…").
const ORDINARY_WORDS: Record<string, string> = {
  Code: '=Code',
  Cursor: '=Cursor',
  Devin: 'Devin/',
  Operator: '=Operator',
  Spider: '=Spider',
  Trae: '=Trae',
  LCC: '=LCC',
  YaK: '=YaK',
  newsai: 'newsai/',
  UseAI: '=UseAI',
  opencode: '=opencode',
}

// robots.txt control tokens that crawlers never send (research §0.4); crawling is done by another agent.
const ROBOTS_ONLY = new Set(['Google-Extended', 'Applebot-Extended', 'Webzio-Extended'])

// Operator where robots.json has none, a URL, or a sentence.
const OPERATOR_BY_KEY: Record<string, string | null> = {
  AddSearchBot: 'AddSearch',
  'AI2Bot-DeepResearchEval': 'Ai2',
  AIWebIndex: 'Lyrenth',
  'amazon-QBusiness': 'Amazon',
  'Amzn-SearchBot': 'Amazon',
  'Amzn-User': 'Amazon',
  ApifyBot: 'Apify',
  ApifyWebsiteContentCrawler: 'Apify',
  Applebot: 'Apple',
  'Applebot-Extended': 'Apple',
  'Aranet-SearchBot': null,
  'AzureAI-SearchBot': 'Microsoft',
  'bigsur.ai': 'Big Sur AI',
  Bravebot: 'Brave',
  Brightbot: 'Bright Data',
  Channel3Bot: null,
  'ChatGLM-Spider': 'Zhipu AI',
  'Claude-Code': 'Anthropic',
  'Claude-Web': 'Anthropic',
  Code: 'GitHub',
  'cohere-training-data-crawler': 'Cohere',
  CragCrawler: 'CragSoftware',
  Crawl4AI: null,
  Cursor: 'Anysphere',
  DuckAssistBot: 'DuckDuckGo',
  ExaBot: 'Exa',
  FacebookBot: 'Meta',
  facebookexternalhit: 'Meta',
  'Gemini-Deep-Research': 'Google',
  'GeistHaus-PageFetcher': 'GeistHaus',
  'Google-Agent': 'Google',
  'Google-Gemini-CLI': 'Google',
  'Google-NotebookLM': 'Google',
  'GoogleAgent-URLContext': 'Google',
  HenkBot: null,
  iAskBot: 'iAsk',
  iaskspider: 'iAsk',
  imageSpider: null,
  'kagi-fetcher': 'Kagi',
  'Kangaroo Bot': 'Kangaroo LLM',
  'Kimi-User': 'Moonshot AI',
  KunatoCrawler: null,
  'laion-huggingface-processor': 'LAION',
  LAIONDownloader: 'LAION',
  LCC: null,
  Lightpanda: 'Lightpanda',
  LinerBot: 'Liner',
  LinkupBot: 'Linkup',
  'Manus-User': 'Butterfly Effect',
  'meta-externalagent': 'Meta',
  'meta-externalfetcher': 'Meta',
  'MistralAI-User': 'Mistral AI',
  MyCentralAIScraperBot: null,
  NagetBot: 'Naget',
  newsai: null,
  NovaAct: 'Amazon',
  opencode: null,
  Operator: 'OpenAI',
  PanguBot: 'Huawei',
  'Poggio-Citations': 'Poggio',
  'Querit-SearchBot': 'Querit',
  QueritBot: 'Querit',
  'Shap-User': 'Parallel',
  Spider: null,
  TavilyBot: 'Tavily',
  TerraCotta: 'Ceramic AI',
  TongyiBot: 'Alibaba',
  Trae: 'ByteDance',
  TwinAgent: 'Twin',
  UseAI: 'Use AI',
  'Webzio-Extended': 'Webz.io',
  WRTNBot: 'Wrtn',
  YiyanBot: 'Baidu',
  ZanistaBot: null,
  FriendlyCrawler: null,
  'Echobot Bot': 'Echobox',
  Bytespider: 'ByteDance',
  TikTokSpider: 'ByteDance',
  'Google-CloudVertexBot': 'Google',
  'Mozilla-Tabstack': 'Mozilla',
  Devin: 'Cognition',
  FirecrawlAgent: 'Firecrawl',
  YouBot: 'You.com',
  VelenPublicWebCrawler: 'Velen',
  CCBot: 'Common Crawl',
}

/** `[Name](url)` -> Name; "Unclear at this time." -> null; plain short text kept. */
export function cleanOperator(raw: string): string | null {
  const link = /^\[([^\]]+)\]\([^)]*\)/.exec(raw.trim())
  const text = (link ? link[1]! : raw).trim()
  if (/^(unclear|unknown|no information)/i.test(text) || /^https?:\/\//.test(text)) return null
  return text.length <= 40 ? text : null
}

function typeOf(key: string, e: RobotsEntry): AgentType {
  const t = TYPE_BY_KEY[key] ?? CATEGORY[e.function.trim()]
  if (!t) throw new Error(`no type for ai.robots.txt entry ${key} (function: ${e.function}); add it to TYPE_BY_KEY`)
  return t
}

export function fromRobotsJson(robots: Record<string, RobotsEntry>): AgentRecord[] {
  const byName = new Map<string, AgentRecord>()
  for (const [key, e] of Object.entries(robots)) {
    const name = ALIAS_OF[key] ?? key
    const ignores = /^\[?no\b/i.test(e.respect.trim())
    const existing = byName.get(name)
    if (existing) {
      if (!existing.tokens.includes(key)) existing.tokens.push(key)
      if (ignores) existing.ignores_robots = true
      continue
    }
    const main = robots[name] ?? e
    const rec: AgentRecord = {
      name,
      operator: name in OPERATOR_BY_KEY ? OPERATOR_BY_KEY[name]! : cleanOperator(main.operator),
      type: typeOf(name, main),
      tokens: (key === name ? [name] : [name, key]).map((t) => ORDINARY_WORDS[t] ?? t),
      source: name in TYPE_BY_KEY ? 'ai.robots.txt+research' : 'ai.robots.txt',
    }
    if (ROBOTS_ONLY.has(name)) rec.robots_only = true
    const ranges = RANGES_BY_NAME[name]
    if (ranges) rec.verify = { ranges_key: ranges }
    if (ignores) rec.ignores_robots = true
    if (name === 'Lightpanda' || name === 'Crawl4AI' || name === 'Scrapy') rec.tier = 1
    if (name === 'Lightpanda') rec.headless = true
    byName.set(name, rec)
  }
  return [...byName.values()]
}

// crawler-user-agents: types of its AI entries that ai.robots.txt does not list (default llm_training),
// and its spellings of agents listed elsewhere.
const CRAWLER_AI_TYPE: Record<string, AgentType> = { AISearchBot: 'llm_retrieval', KendraBot: 'llm_retrieval', linkReader: 'llm_retrieval' }
const CRAWLER_ALIAS: Record<string, string> = { PerplexityUser: 'Perplexity-User' }

/** The list gives no operator; the host of the entry's documentation URL stands for it ("gigablast.com"). */
function operatorOf(url: string | undefined): string | null {
  if (!url) return null
  try {
    return new URL(url).hostname.replace(/^www\./, '') || null
  } catch {
    return null
  }
}

/** A pattern that is a plain literal ("Gigabot", "Daum\\/") as a token; null for real regexes. */
function literalOf(pattern: string): string | null {
  const text = pattern
    .replace(/^\^/, '')
    .replace(/\\?\/$/, '')
    .replace(/\\([/.()\-!:])/g, '$1')
  if (/[\\[\]{}*+?|$^]/.test(text) || text.length < 3 || !/^[A-Za-z0-9]/.test(text)) return null
  return text.replace(/ \($|\($/, '')
}

/**
 * The search-engine and AI entries of crawler-user-agents that the other sources do not name: each
 * becomes an agent named by its pattern. Plain words ("Funnelback") count only as declared products.
 */
export function fromCrawlerList(crawlers: CrawlerEntry[], known: AgentRecord[]): AgentRecord[] {
  const out: AgentRecord[] = []
  const byName = new Map(known.map((a) => [a.name.toLowerCase(), a]))
  const knownTokens = new Set(known.flatMap((a) => a.tokens.map((t) => t.replace(/^=/, '').toLowerCase())))
  const match = compileMatcher(patternsOf(known))
  // Named by an agent of the other sources (a library or tool, tier 1, does not name it).
  const named = (ua: string): boolean => {
    const id = match(ua)
    return id >= 0 && known[id]!.tier === undefined
  }
  for (const e of crawlers) {
    const ai = e.tags.includes('ai-crawler')
    if (!ai && !e.tags.includes('search-engine')) continue
    const token = literalOf(e.pattern)
    if (token === null) continue
    const alias = CRAWLER_ALIAS[token]
    if (alias !== undefined) {
      const target = byName.get(alias.toLowerCase())
      if (target && !target.tokens.some((t) => t.toLowerCase() === token.toLowerCase())) target.tokens.push(token)
      continue
    }
    // Only gaps: where another source names the agent, its type stands (docs/agents.md, "Types").
    const covered = e.instances.length > 0 && e.instances.every(named)
    if (covered || byName.has(token.toLowerCase()) || knownTokens.has(token.toLowerCase()) || out.some((a) => a.name.toLowerCase() === token.toLowerCase()))
      continue
    const plainWord = /^[A-Za-z][a-z]+$/.test(token) && !/bot|spider|crawl|search/i.test(token)
    const tokens = [plainWord ? `=${token}` : token]
    // The list's patterns match substrings, our tokens whole words: add the word an instance uses.
    const own = compileMatcher(tokens.map((t) => ({ token: t, id: 0, tier: 0 })))
    for (const ua of e.instances) {
      const word = new RegExp(`[\\w.!-]*${token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\w.!-]*`, 'i').exec(ua)?.[0]
      if (own(ua) < 0 && word && /^[A-Za-z0-9]/.test(word) && !tokens.includes(word)) tokens.push(word)
    }
    const type = ai ? (CRAWLER_AI_TYPE[token] ?? 'llm_training') : 'search'
    out.push({ name: token, operator: operatorOf(e.url), type, tokens, source: 'crawler-user-agents' })
  }
  return out
}

/** Curated entries first where a name collides (they carry verification and tiers). */
export function buildAgents(robots: Record<string, RobotsEntry>, crawlers: CrawlerEntry[]): AgentsDocument {
  const curatedNames = new Set(CURATED.map((a) => a.name.toLowerCase()))
  const fromRobots = fromRobotsJson(robots).filter((a) => !curatedNames.has(a.name.toLowerCase()))
  const named = [...fromRobots, ...CURATED.map((a) => ({ ...a, tokens: [...a.tokens] }))]
  const fromCrawlers = fromCrawlerList(crawlers, named)
  const agents = [...named.filter((a) => !a.generic && !a.empty_ua), ...fromCrawlers, ...named.filter((a) => a.generic || a.empty_ua)]
  validateAgents({ agents })
  return {
    $comment:
      'Generated by scripts/build-agents.ts; edit that script (or src/pixel/agents/curated.ts) and rebuild. ' +
      'Token syntax: see src/pixel/agents/matcher.ts.',
    attribution: [
      {
        name: 'ai.robots.txt robots.json',
        url: 'https://github.com/ai-robots-txt/ai.robots.txt',
        license: 'MIT',
        copyright: 'Copyright (c) 2024 ai.robots.txt',
        commit: ROBOTS_COMMIT,
        notice: 'docs/agents.md',
      },
      {
        name: 'crawler-user-agents (search-engine and ai-crawler entries)',
        url: 'https://github.com/monperrus/crawler-user-agents',
        license: 'MIT',
        copyright: 'Copyright (c) 2017 Martin Monperrus',
        commit: CRAWLERS_COMMIT,
        notice: 'docs/agents.md',
      },
    ],
    agents,
  }
}

/** One agent per line keeps reviews of data changes readable. */
export function formatAgents(doc: AgentsDocument): string {
  const head = JSON.stringify({ $comment: doc.$comment, attribution: doc.attribution }, null, 2).slice(0, -2)
  return `${head},\n  "agents": [\n${doc.agents.map((a) => `    ${JSON.stringify(a)}`).join(',\n')}\n  ]\n}\n`
}

const here = dirname(fileURLToPath(import.meta.url))
export const ROBOTS_PATH = join(here, '../fixtures/bots/ai-robots-txt.robots.json')
export const CRAWLERS_PATH = join(here, '../fixtures/bots/crawler-user-agents/crawler-user-agents.json')
export const AGENTS_PATH = join(here, '../src/pixel/agents/agents.json')

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const robots = JSON.parse(readFileSync(ROBOTS_PATH, 'utf8')) as Record<string, RobotsEntry>
  const crawlers = JSON.parse(readFileSync(CRAWLERS_PATH, 'utf8')) as CrawlerEntry[]
  const doc = buildAgents(robots, crawlers)
  writeFileSync(AGENTS_PATH, formatAgents(doc))
  console.log(`wrote ${doc.agents.length} agents to ${AGENTS_PATH}`)
}
