// Build input for scripts/build-agents.ts (never imported at run time): agents that ai.robots.txt
// does not list — search engines, SEO / preview / monitoring crawlers, HTTP libraries, headless
// browsers — and which published IP list each verifiable agent crawls from (docs/agents.md).
import type { AgentRecord, AgentType } from './schema.ts'

type Extra = Partial<Pick<AgentRecord, 'verify' | 'ignores_robots' | 'headless' | 'tier' | 'empty_ua'>> & { source?: string }

function agent(name: string, operator: string | null, type: AgentType, tokens: string[], extra: Extra = {}): AgentRecord {
  const { source = 'curated', ...rest } = extra
  return { name, operator, type, tokens, ...rest, source }
}
const ranges = (ranges_key: string) => ({ verify: { ranges_key } })
const lib = (name: string, tokens: string[]) => agent(name, null, 'scraper', tokens, { tier: 1 })
const headless = (name: string, tokens: string[]) => agent(name, null, 'scraper', tokens, { tier: 1, headless: true })

/** ai.robots.txt agents -> key in ip-ranges.json (a list key, or an operator for all its lists). */
export const RANGES_BY_NAME: Record<string, string> = {
  GPTBot: 'gptbot', 'OAI-SearchBot': 'oai-searchbot', 'ChatGPT-User': 'chatgpt-user',
  PerplexityBot: 'perplexitybot', 'Perplexity-User': 'perplexity-user', Applebot: 'applebot',
  DuckAssistBot: 'duckassistbot', CCBot: 'ccbot', 'MistralAI-User': 'mistralai-user',
  ClaudeBot: 'anthropic', 'Claude-User': 'anthropic', 'Claude-SearchBot': 'anthropic',
  GoogleOther: 'googlebot', 'GoogleOther-Image': 'googlebot', 'GoogleOther-Video': 'googlebot',
  // Google's fetchers below are spread over its user-triggered and special lists: accept any Google list.
  'Google-CloudVertexBot': 'Google', 'Gemini-Deep-Research': 'Google', 'Google-NotebookLM': 'Google',
  'Google-Agent': 'Google', 'GoogleAgent-Mariner': 'Google', 'GoogleAgent-URLContext': 'Google',
}

const research = { source: 'research' }

export const CURATED: AgentRecord[] = [
  // Search engines.
  agent('Googlebot', 'Google', 'search', ['Googlebot'], { ...ranges('googlebot'), ...research }),
  agent('Googlebot-Image', 'Google', 'search', ['Googlebot-Image'], ranges('googlebot')),
  agent('Googlebot-News', 'Google', 'search', ['Googlebot-News'], ranges('googlebot')),
  agent('Googlebot-Video', 'Google', 'search', ['Googlebot-Video'], ranges('googlebot')),
  agent('Storebot-Google', 'Google', 'search', ['Storebot-Google'], ranges('googlebot')),
  agent('Google-InspectionTool', 'Google', 'search', ['Google-InspectionTool'], ranges('googlebot')),
  agent('bingbot', 'Microsoft', 'search', ['bingbot', 'msnbot'], { ...ranges('bingbot'), ...research }),
  agent('Yahoo! Slurp', 'Yahoo', 'search', ['Yahoo! Slurp', 'Slurp']),
  agent('DuckDuckBot', 'DuckDuckGo', 'search', ['DuckDuckBot'], { ...ranges('duckduckbot'), ...research }),
  agent('YandexBot', 'Yandex', 'search', ['YandexBot', 'YandexMobileBot', 'YandexRenderResourcesBot', 'YandexAccessibilityBot', 'YandexImages', 'YandexVideo', 'YandexNews'], research),
  agent('Baiduspider', 'Baidu', 'search', ['Baiduspider'], research),
  agent('Sogou Spider', 'Sogou', 'search', ['Sogou web spider', 'Sogou inst spider', 'Sogou Pic Spider', 'Sogou spider']),
  agent('360Spider', 'Qihoo 360', 'search', ['360Spider', 'HaosouSpider']),
  agent('YisouSpider', 'Alibaba', 'search', ['YisouSpider']),
  agent('SeznamBot', 'Seznam.cz', 'search', ['SeznamBot']),
  agent('Yeti', 'Naver', 'search', ['Yeti']),
  agent('Daumoa', 'Kakao', 'search', ['Daumoa']),
  agent('Qwantbot', 'Qwant', 'search', ['Qwantbot', 'Qwantify']),
  agent('MojeekBot', 'Mojeek', 'search', ['MojeekBot']),
  agent('coccocbot', 'Coc Coc', 'search', ['coccocbot']),
  agent('SeekportBot', 'Seekport', 'search', ['SeekportBot', 'Seekport Crawler']),
  agent('Mail.RU_Bot', 'VK', 'search', ['Mail.RU_Bot']),

  // Google and Microsoft fetchers that are not search indexing.
  agent('AdsBot-Google', 'Google', 'scraper', ['AdsBot-Google', 'AdsBot-Google-Mobile'], ranges('google-special-crawlers')),
  agent('Mediapartners-Google', 'Google', 'scraper', ['Mediapartners-Google'], ranges('google-special-crawlers')),
  agent('APIs-Google', 'Google', 'scraper', ['APIs-Google'], ranges('google-special-crawlers')),
  agent('Google-Safety', 'Google', 'scraper', ['Google-Safety'], ranges('google-special-crawlers')),
  agent('FeedFetcher-Google', 'Google', 'scraper', ['FeedFetcher-Google'], ranges('Google')),
  agent('Google-Read-Aloud', 'Google', 'scraper', ['Google-Read-Aloud'], ranges('Google')),
  agent('Google-Site-Verification', 'Google', 'scraper', ['Google-Site-Verification'], ranges('Google')),
  agent('GoogleProducer', 'Google', 'scraper', ['GoogleProducer'], ranges('Google')),
  agent('Chrome-Lighthouse', 'Google', 'scraper', ['Chrome-Lighthouse', 'Google Page Speed Insights']),
  agent('BingPreview', 'Microsoft', 'scraper', ['BingPreview'], ranges('bingbot')),
  agent('adidxbot', 'Microsoft', 'scraper', ['adidxbot'], ranges('bingbot')),
  agent('MicrosoftPreview', 'Microsoft', 'scraper', ['MicrosoftPreview']),
  agent('DuckDuckGo-Favicons-Bot', 'DuckDuckGo', 'scraper', ['DuckDuckGo-Favicons-Bot']),

  // SEO crawlers.
  agent('AhrefsBot', 'Ahrefs', 'scraper', ['AhrefsBot', 'AhrefsSiteAudit'], research),
  agent('SemrushBot', 'Semrush', 'scraper', ['SemrushBot', 'SiteAuditBot', 'SplitSignalBot'], research),
  agent('MJ12bot', 'Majestic', 'scraper', ['MJ12bot'], research),
  agent('DotBot', 'Moz', 'scraper', ['DotBot'], research),
  agent('rogerbot', 'Moz', 'scraper', ['rogerbot']),
  agent('BLEXBot', 'WebMeUp', 'scraper', ['BLEXBot']),
  agent('SerpstatBot', 'Serpstat', 'scraper', ['SerpstatBot']),
  agent('DataForSeoBot', 'DataForSEO', 'scraper', ['DataForSeoBot']),
  agent('Screaming Frog SEO Spider', 'Screaming Frog', 'scraper', ['Screaming Frog SEO Spider']),
  agent('Barkrowler', 'Babbar', 'scraper', ['Barkrowler']),
  agent('MegaIndex', 'MegaIndex', 'scraper', ['MegaIndex']),
  agent('linkdexbot', 'Linkdex', 'scraper', ['linkdexbot']),
  agent('SEOkicks', 'SEOkicks', 'scraper', ['SEOkicks']),
  agent('ZoominfoBot', 'ZoomInfo', 'scraper', ['ZoominfoBot']),
  agent('Sitebulb', 'Sitebulb', 'scraper', ['Sitebulb']),
  agent('Lumar', 'Lumar', 'scraper', ['Lumar', 'Deepcrawl']),
  agent('OnCrawl', 'OnCrawl', 'scraper', ['OnCrawl']),

  // Link previews and social.
  agent('Facebot', 'Meta', 'scraper', ['Facebot']),
  agent('Twitterbot', 'X', 'scraper', ['Twitterbot']),
  agent('LinkedInBot', 'LinkedIn', 'scraper', ['LinkedInBot']),
  agent('Slackbot', 'Slack', 'scraper', ['Slackbot', 'Slack-ImgProxy']),
  agent('Discordbot', 'Discord', 'scraper', ['Discordbot']),
  agent('TelegramBot', 'Telegram', 'scraper', ['TelegramBot']),
  agent('WhatsApp', 'Meta', 'scraper', ['WhatsApp']),
  agent('Pinterestbot', 'Pinterest', 'scraper', ['Pinterestbot']),
  agent('redditbot', 'Reddit', 'scraper', ['redditbot']),
  agent('Embedly', 'Embedly', 'scraper', ['Embedly']),
  agent('Iframely', 'Iframely', 'scraper', ['Iframely']),
  agent('SkypeUriPreview', 'Microsoft', 'scraper', ['SkypeUriPreview']),
  agent('vkShare', 'VK', 'scraper', ['vkShare']),
  agent('Mastodon', null, 'scraper', ['Mastodon']),
  agent('Snap URL Preview Service', 'Snap', 'scraper', ['Snap URL Preview Service']),

  // Monitoring, archiving, feeds, security scanners.
  agent('UptimeRobot', 'UptimeRobot', 'scraper', ['UptimeRobot']),
  agent('Pingdom', 'SolarWinds', 'scraper', ['Pingdom', 'PingdomPageSpeed']),
  agent('StatusCake', 'StatusCake', 'scraper', ['StatusCake']),
  agent('Site24x7', 'Zoho', 'scraper', ['Site24x7']),
  agent('GTmetrix', 'GTmetrix', 'scraper', ['GTmetrix']),
  agent('Datadog Synthetics', 'Datadog', 'scraper', ['Datadog/Synthetics', 'DatadogSynthetics']),
  agent('NewRelicPinger', 'New Relic', 'scraper', ['NewRelicPinger']),
  agent('Better Uptime Bot', 'Better Stack', 'scraper', ['Better Uptime Bot']),
  agent('Checkly', 'Checkly', 'scraper', ['Checkly']),
  agent('archive.org_bot', 'Internet Archive', 'scraper', ['archive.org_bot', 'ia_archiver']),
  agent('Feedly', 'Feedly', 'scraper', ['Feedly/1.0', 'FeedlyBot']),
  agent('Feedbin', 'Feedbin', 'scraper', ['Feedbin']),
  agent('NewsBlur', 'NewsBlur', 'scraper', ['NewsBlur']),
  agent('Inoreader', 'Inoreader', 'scraper', ['Inoreader']),
  agent('CensysInspect', 'Censys', 'scraper', ['CensysInspect']),
  agent('Expanse', 'Palo Alto Networks', 'scraper', ['Expanse']),

  // Tools and HTTP libraries: a named agent built on them wins (tier 1).
  lib('zgrab', ['zgrab']),
  lib('masscan', ['masscan']),
  lib('Nmap', ['Nmap Scripting Engine']),
  lib('sqlmap', ['sqlmap']),
  lib('Nikto', ['Nikto']),
  lib('WPScan', ['WPScan']),
  lib('Nuclei', ['Nuclei']),
  lib('Heritrix', ['heritrix']),
  lib('Apache Nutch', ['Nutch']),
  lib('HTTrack', ['HTTrack']),
  lib('curl', ['curl', 'libcurl']),
  lib('Wget', ['Wget']),
  lib('python-requests', ['python-requests']),
  lib('Python-urllib', ['Python-urllib']),
  lib('python-httpx', ['python-httpx']),
  lib('aiohttp', ['aiohttp']),
  lib('urllib3', ['urllib3']),
  lib('Go-http-client', ['Go-http-client']),
  lib('okhttp', ['okhttp']),
  lib('axios', ['axios']),
  lib('node-fetch', ['node-fetch']),
  // Node's built-in fetch sends "undici" (Node 18-20) or just "node" (later releases).
  lib('undici', ['undici', '^node$']),
  lib('got', ['got (']),
  lib('Java', ['Java/']),
  lib('Apache-HttpClient', ['Apache-HttpClient', 'Commons-HttpClient']),
  lib('libwww-perl', ['libwww-perl', 'lwp-trivial', 'LWP::Simple']),
  lib('Ruby', ['^Ruby$']),
  lib('Faraday', ['Faraday v']),
  lib('rest-client', ['rest-client']),
  lib('Typhoeus', ['Typhoeus']),
  lib('GuzzleHttp', ['GuzzleHttp']),
  lib('HTTPie', ['HTTPie']),
  lib('PostmanRuntime', ['PostmanRuntime']),
  lib('Insomnia', ['insomnia/']),
  lib('Dart', ['Dart/']),
  lib('Deno', ['Deno/']),
  lib('Bun', ['Bun/']),
  lib('RestSharp', ['RestSharp']),
  lib('WinHttp', ['WinHttp']),
  lib('PowerShell', ['WindowsPowerShell']),
  lib('http.rb', ['http.rb']),
  lib('colly', ['colly']),
  lib('Mechanize', ['Mechanize']),

  // Headless browsers and automation frameworks: markers inside otherwise browser-like UAs.
  headless('HeadlessChrome', ['HeadlessChrome']),
  headless('PhantomJS', ['PhantomJS']),
  headless('Puppeteer', ['Puppeteer']),
  headless('Playwright', ['Playwright']),
  headless('Selenium', ['Selenium']),
  headless('Cypress', ['Cypress']),
  headless('jsdom', ['jsdom']),
  headless('HtmlUnit', ['HtmlUnit']),
  headless('SlimerJS', ['SlimerJS']),

  // Last resort for self-declared bots we do not list: a word ending in bot/crawler/spider/scraper, or
  // a URL in the UA (browsers never put one there). "Cubot" is a phone brand.
  agent('Unidentified bot', null, 'scraper', ['*bot', '*crawler', '*spider', '*scraper', '!cubot', 'http://', 'https://'], { tier: 2 }),
  // Browsers always send a user-agent; a request without one is a script.
  agent('Empty user-agent', null, 'scraper', [], { empty_ua: true }),
]
