// Build input for scripts/build-agents.ts (never imported at run time): agents that ai.robots.txt
// does not list — the search engines' crawler and fetcher families, SEO, preview, monitoring, feed,
// archive and security crawlers, HTTP libraries, headless browsers — and which published IP list each
// verifiable agent crawls from (docs/agents.md, "Where the data comes from"). Tokens name products as the operators
// document them; `=` marks ordinary words that count only where a client names itself (matcher.ts).
import type { AgentRecord, AgentType } from './schema.ts'

type Extra = Partial<Pick<AgentRecord, 'verify' | 'ignores_robots' | 'headless' | 'tier' | 'empty_ua' | 'generic'>> & { source?: string }

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
  'Google-Firebase': 'Google',
}

const research = { source: 'research' }

export const CURATED: AgentRecord[] = [
  // Google: the documented common crawlers, special-case crawlers and user-triggered fetchers
  // (developers.google.com/crawling/docs/crawlers-fetchers), verified against the list Google names for
  // each; its other fetchers are not verified (no list is documented for them). All serve Google's
  // search products except the AI ones (ai.robots.txt) and robots-only Google-Extended.
  agent('Googlebot', 'Google', 'search', ['Googlebot', 'Googlebot-Mobile', 'Googlebot-IA'], { ...ranges('googlebot'), ...research }),
  agent('Googlebot-Image', 'Google', 'search', ['Googlebot-Image'], ranges('googlebot')),
  agent('Googlebot-News', 'Google', 'search', ['Googlebot-News'], ranges('googlebot')),
  agent('Googlebot-Video', 'Google', 'search', ['Googlebot-Video'], ranges('googlebot')),
  agent('Storebot-Google', 'Google', 'search', ['Storebot-Google'], ranges('googlebot')),
  agent('Google-InspectionTool', 'Google', 'search', ['Google-InspectionTool'], ranges('googlebot')),
  agent('AdsBot-Google', 'Google', 'search', ['AdsBot-Google', 'AdsBot-Google-Mobile', 'AdsBot-Google-Mobile-Apps'], ranges('google-special-crawlers')),
  agent('Google Ads tools', 'Google', 'search', ['Google-Adwords-Instant', 'Google-AdWords-Express', 'Google-Ads-Conversions', 'Google-Ads-Creatives-Assistant', 'Google-Ads-Qualify']),
  agent('Mediapartners-Google', 'Google', 'search', ['Mediapartners-Google', 'Mediapartners (Googlebot)'], ranges('google-special-crawlers')),
  agent('APIs-Google', 'Google', 'search', ['APIs-Google'], ranges('google-special-crawlers')),
  agent('Google-Safety', 'Google', 'search', ['Google-Safety'], ranges('google-special-crawlers')),
  agent('FeedFetcher-Google', 'Google', 'search', ['FeedFetcher-Google'], ranges('Google')),
  agent('Google-Read-Aloud', 'Google', 'search', ['Google-Read-Aloud'], ranges('Google')),
  agent('Google-Site-Verification', 'Google', 'search', ['Google-Site-Verification'], ranges('Google')),
  agent('GoogleProducer', 'Google', 'search', ['GoogleProducer'], ranges('Google')),
  agent('Google Favicon', 'Google', 'search', ['Google Favicon', 'Google-Favicon']),
  agent('Google Web Preview', 'Google', 'search', ['Google Web Preview', 'developers.google.com/+/web/snippet', 'GoogleImageProxy', 'Google-PhysicalWeb', 'google-xrawler', 'PlayStore-Google', 'GoogleAssociationService', 'Google-Area120-PrivacyPolicyFetcher', 'DuplexWeb-Google', 'Google-AMPHTML', 'Google-Youtube-Links', 'Google-CWS', 'Google-Podcast', 'Google-Certificates-Bridge', 'Google Trust Services', 'Google-Structured-Data-Testing-Tool', 'Google-Test']),
  // App Engine's URL fetch, Apps Script and Sheets' IMPORTXML run anyone's code: not Google's crawling.
  agent('Google App Engine', 'Google', 'scraper', ['AppEngine-Google', 'Google-Apps-Script', 'GoogleDocs'], { tier: 1 }),
  agent('Google-Pinpoint', 'Google', 'search', ['Google-Pinpoint']),
  agent('Chrome-Lighthouse', 'Google', 'scraper', ['Chrome-Lighthouse', 'Google Page Speed Insights', 'Chrome Privacy Preserving Prefetch Proxy']),
  // Google's HTTP client libraries run anyone's code.
  lib('Google API client', ['Google-HTTP-Java-Client', 'google-api-go-client', 'google-api-python-client', 'gl-python', 'gcloud-golang']),

  // Microsoft Bing.
  agent('bingbot', 'Microsoft', 'search', ['bingbot', 'msnbot', 'msnbot-media', 'MSNBot-Media'], { ...ranges('bingbot'), ...research }),
  agent('BingPreview', 'Microsoft', 'search', ['BingPreview'], ranges('bingbot')),
  agent('adidxbot', 'Microsoft', 'search', ['adidxbot'], ranges('bingbot')),
  agent('MicrosoftPreview', 'Microsoft', 'search', ['MicrosoftPreview']),
  agent('BingLocalSearch', 'Microsoft', 'search', ['BingLocalSearch', 'Bing-Local']),
  agent('officestorebot', 'Microsoft', 'search', ['officestorebot']),

  // Yandex (yandex.com/support/webmaster/robot-workings/check-yandex-robots): its bots; YaBrowser and
  // the Yandex app ("YandexSearch/…") are browsers and stay out.
  agent('YandexBot', 'Yandex', 'search', [
    'YandexBot', 'YandexMobileBot', 'YandexRenderResourcesBot', 'YandexAccessibilityBot', 'YandexImages', 'YandexVideo',
    'YandexVideoParser', 'YandexMedia', 'YandexNews', 'YandexBlogs', 'YandexFavicons', 'YandexWebmaster', 'YandexPagechecker',
    'YandexImageResizer', 'YandexDirect', 'YandexDirectDyn', 'YaDirectFetcher', 'YandexMetrika', 'YandexCatalog', 'YandexMarket',
    'YandexVertis', 'YandexForDomain', 'YandexSpravBot', 'YandexSearchShop', 'YandexMobileScreenShotBot', 'YandexScreenshotBot',
    'YandexAdNet', 'YandexTracker', 'YandexVerticals', 'YandexOntoDB', 'YandexOntoDBAPI', 'YandexCalendar', 'YandexPartner',
    'YandexTurbo', 'YandexUserproxy', 'YandexComBot', 'YandexSitelinks', 'YandexAntivirus', 'yandex.com/bots',
  ], research),
  // Baidu, Sogou, Qihoo 360, Shenma, Toutiao, Youdao, Soso.
  agent('Baiduspider', 'Baidu', 'search', ['Baiduspider', 'Baidu-YunGuanCe', 'BaiduMobaider'], research),
  agent('Sogou Spider', 'Sogou', 'search', ['Sogou web spider', 'Sogou inst spider', 'Sogou Pic Spider', 'Sogou News Spider', 'Sogou Orion spider', 'Sogou video spider', 'Sogou head spider', 'Sogou Push Spider', 'Sogou-Test-Spider', 'Sogou spider', 'Sogou blog', 'Sogou']),
  agent('360Spider', 'Qihoo 360', 'search', ['360Spider', 'HaosouSpider', '360JK']),
  agent('YisouSpider', 'Alibaba', 'search', ['YisouSpider']),
  agent('ToutiaoSpider', 'ByteDance', 'search', ['ToutiaoSpider']),
  agent('YoudaoBot', 'NetEase', 'search', ['YoudaoBot', 'YodaoBot']),
  agent('Sosospider', 'Tencent', 'search', ['Sosospider', 'Sosoimagespider']),
  // Apple, DuckDuckGo, Huawei Petal: the AI and search crawlers come from ai.robots.txt.
  agent('DuckDuckBot', 'DuckDuckGo', 'search', ['DuckDuckBot', 'DuckDuckBot-Https'], { ...ranges('duckduckbot'), ...research }),
  agent('DuckDuckGo-Favicons-Bot', 'DuckDuckGo', 'search', ['DuckDuckGo-Favicons-Bot']),
  agent('AspiegelBot', 'Huawei', 'search', ['AspiegelBot']),
  // Yahoo and Yahoo Japan.
  agent('Yahoo! Slurp', 'Yahoo', 'search', ['Yahoo! Slurp', '=Slurp', 'YahooSeeker', 'Yahoo-MMCrawler', 'YahooCacheSystem', 'Yahoo Link Preview', 'Yahoo:LinkExpander', 'Yahoo Ad monitoring']),
  agent('Y!J', 'Yahoo Japan', 'search', ['Y!J']),
  // Europe: Seznam, Qwant, Mojeek, Ecosia, Startpage, Swisscows, Seekport, Mail.ru, Rambler, Orange, Istella, Cliqz, Exalead.
  agent('SeznamBot', 'Seznam.cz', 'search', ['SeznamBot', 'SeznamHomepageCrawler', 'Seznam screenshot-generator', 'SeznamEmailProxy', 'SklikBot']),
  agent('Qwantbot', 'Qwant', 'search', ['Qwantbot', 'Qwantify', 'Qwant-news']),
  agent('MojeekBot', 'Mojeek', 'search', ['MojeekBot']),
  agent('EcosiaBot', 'Ecosia', 'search', ['EcosiaBot']),
  agent('Startpage', 'Startpage', 'search', ['StartpagePrivateImageProxy']),
  agent('Swisscows', 'Swisscows', 'search', ['=Swisscows']),
  agent('SeekportBot', 'Seekport', 'search', ['SeekportBot', 'Seekport Crawler']),
  agent('Mail.RU_Bot', 'VK', 'search', ['Mail.RU_Bot']),
  agent('Rambler', 'Rambler', 'search', ['StackRambler', 'top100.rambler.ru']),
  agent('OrangeBot', 'Orange', 'search', ['OrangeBot', 'VoilaBot']),
  agent('IstellaBot', 'Istella', 'search', ['IstellaBot', 'istellabot-nutch']),
  agent('Cliqzbot', 'Cliqz', 'search', ['Cliqzbot']),
  agent('Exabot', 'Exalead', 'search', ['Exabot', 'ExaBot', 'Exabot-Images', 'ExaleadCloudView', 'PyExalead']),
  // Asia: Naver, Daum/Kakao, Zum, Coc Coc, goo, Jooble.
  agent('Yeti', 'Naver', 'search', ['=Yeti', 'NaverBot', 'Naverbot']),
  agent('Daumoa', 'Kakao', 'search', ['Daumoa', '=Daum']),
  agent('ZumBot', 'Zum', 'search', ['ZumBot']),
  agent('coccocbot', 'Coc Coc', 'search', ['coccocbot', 'coccocbot-web', 'coccocbot-image', '=coccoc', 'imagecoccoc', 'image.coccoc']),
  agent('ichiro', 'NTT Resonant', 'search', ['=ichiro', 'moget']),
  // Independent and historical engines.
  agent('Gigablast', 'Gigablast', 'search', ['Gigabot', 'GigablastOpenSource']),
  agent('Speedy Spider', 'Entireweb', 'search', ['Speedy Spider']),
  agent('Teoma', 'Ask', 'search', ['Teoma', 'Ask Jeeves']),
  agent('Neevabot', 'Neeva', 'search', ['Neevabot']),
  agent('StractBot', 'Stract', 'search', ['StractBot']),
  agent('Marginalia', 'Marginalia', 'search', ['search.marginalia.nu', 'marginalia']),
  agent('Kagibot', 'Kagi', 'search', ['Kagibot']),
  agent('Freespoke', 'Freespoke', 'search', ['=Freespoke']),
  agent('Owler', 'OpenWebSearch.eu', 'search', ['=Owler', 'ows.eu']),
  agent('yacybot', 'YaCy', 'search', ['yacybot']),
  agent('ZyBorg', 'LookSmart', 'search', ['ZyBorg', 'WISEnutbot']),
  agent('ConveraCrawler', 'Convera', 'search', ['ConveraCrawler']),
  agent('Apache Nutch', null, 'search', ['Nutch', 'NutchCVS']), // open-source search-engine crawler
  agent('Alexabot', 'Amazon', 'search', ['Alexabot']),

  // SEO and marketing crawlers.
  agent('AhrefsBot', 'Ahrefs', 'scraper', ['AhrefsBot', 'AhrefsSiteAudit'], research),
  agent('SemrushBot', 'Semrush', 'scraper', ['SemrushBot', 'SiteAuditBot', 'SplitSignalBot', 'SemrushBot-BA', 'SemrushBot-SI'], research),
  agent('MJ12bot', 'Majestic', 'scraper', ['MJ12bot'], research),
  agent('DotBot', 'Moz', 'scraper', ['DotBot'], research),
  agent('rogerbot', 'Moz', 'scraper', ['rogerbot']),
  agent('BLEXBot', 'WebMeUp', 'scraper', ['BLEXBot']),
  agent('SerpstatBot', 'Serpstat', 'scraper', ['SerpstatBot']),
  agent('DataForSeoBot', 'DataForSEO', 'scraper', ['DataForSeoBot']),
  agent('Screaming Frog SEO Spider', 'Screaming Frog', 'scraper', ['Screaming Frog SEO Spider']),
  agent('Barkrowler', 'Babbar', 'scraper', ['Barkrowler']),
  agent('MegaIndex', 'MegaIndex', 'scraper', ['MegaIndex']),
  agent('linkdexbot', 'Linkdex', 'scraper', ['linkdexbot', 'linkdex.com']),
  agent('SEOkicks', 'SEOkicks', 'scraper', ['SEOkicks']),
  agent('ZoominfoBot', 'ZoomInfo', 'scraper', ['ZoominfoBot', 'ZoomInfo-DataEnrichment']),
  agent('Sitebulb', 'Sitebulb', 'scraper', ['Sitebulb']),
  agent('Lumar', 'Lumar', 'scraper', ['=Lumar', 'Deepcrawl']),
  agent('OnCrawl', 'OnCrawl', 'scraper', ['OnCrawl']),
  agent('Siteimprove', 'Siteimprove', 'scraper', ['Siteimprove']),
  agent('Xenu Link Sleuth', null, 'scraper', ['Xenu Link Sleuth', 'Xenu']),
  agent('Datanyze', 'ZoomInfo', 'scraper', ['Datanyze']),
  agent('HubSpot', 'HubSpot', 'scraper', ['=HubSpot', 'HubSpot Crawler', 'HubSpot Links Crawler', 'HubSpot Single Page', 'HubSpot Marketing Grader', 'HubSpot Connect']),
  agent('Brandwatch', 'Brandwatch', 'scraper', ['Brandwatch', 'magpie-crawler']),
  agent('Meltwater', 'Meltwater', 'scraper', ['Meltwater', 'MeltwaterNews']),
  agent('MarketGoo', 'MarketGoo', 'scraper', ['MarketGoo']),
  agent('Dataprovider', 'Dataprovider.com', 'scraper', ['Dataprovider']),
  agent('SEO tools', null, 'scraper', ['SEOlyzer', 'seoscanners', 'SeoSiteCheckup', 'Seobility', 'SEOstats', 'Ryte', 'Woorankreview', 'woorank', 'SpyFu', 'SERanking']),

  // Link previews and social networks (pages shared by people, fetched by the platform).
  agent('Facebot', 'Meta', 'scraper', ['Facebot', 'facebookcatalog', 'meta-externalads']),
  agent('Twitterbot', 'X', 'scraper', ['Twitterbot']),
  agent('LinkedInBot', 'LinkedIn', 'scraper', ['LinkedInBot']),
  agent('Slackbot', 'Slack', 'scraper', ['Slackbot', 'Slack-ImgProxy', 'Slackbot-LinkExpanding']),
  agent('Discordbot', 'Discord', 'scraper', ['Discordbot']),
  agent('TelegramBot', 'Telegram', 'scraper', ['TelegramBot']),
  agent('WhatsApp', 'Meta', 'scraper', ['=WhatsApp']),
  agent('Pinterestbot', 'Pinterest', 'scraper', ['Pinterestbot', 'Pinterest/0.2']),
  agent('redditbot', 'Reddit', 'scraper', ['redditbot']),
  agent('Embedly', 'Embedly', 'scraper', ['Embedly']),
  agent('Iframely', 'Iframely', 'scraper', ['Iframely']),
  agent('SkypeUriPreview', 'Microsoft', 'scraper', ['SkypeUriPreview']),
  agent('vkShare', 'VK', 'scraper', ['vkShare']),
  agent('Mastodon', null, 'scraper', ['=Mastodon']),
  agent('Bluesky', 'Bluesky', 'scraper', ['=Bluesky', 'Bluesky Cardyb', 'bluesky-domain-status-classifier']),
  agent('Snap URL Preview Service', 'Snap', 'scraper', ['Snap URL Preview Service']),
  agent('Viber', 'Rakuten', 'scraper', ['=Viber']),
  agent('Hatena', 'Hatena', 'scraper', ['Hatena::', 'Hatena Antenna', 'HatenaBookmark']),
  agent('Tumblr', 'Automattic', 'scraper', ['=Tumblr']),
  agent('Discourse Onebox', null, 'scraper', ['Discourse Forum Onebox']),
  agent('Steam URL lookup', 'Valve', 'scraper', ['SteamChatURLLookup']),
  agent('Chatwork LinkPreview', 'Chatwork', 'scraper', ['Chatwork LinkPreview']),
  agent('Nuzzel', 'Nuzzel', 'scraper', ['=Nuzzel']),
  agent('KakaoTalk-Scrap', 'Kakao', 'scraper', ['kakaotalk-scrap']),
  agent('Quora Link Preview', 'Quora', 'scraper', ['Quora Link Preview', 'Quora-Bot']),
  agent('XING', 'New Work', 'scraper', ['XING-contenttabreceiver']),
  agent('OdklBot', 'VK', 'scraper', ['OdklBot']),
  agent('Flipboard', 'Flipboard', 'scraper', ['FlipboardProxy', 'FlipboardRSS']),

  // Uptime and performance monitors, validators.
  agent('UptimeRobot', 'UptimeRobot', 'scraper', ['UptimeRobot']),
  agent('Pingdom', 'SolarWinds', 'scraper', ['Pingdom', 'PingdomPageSpeed', 'PingdomTMS']),
  agent('StatusCake', 'StatusCake', 'scraper', ['StatusCake', 'StatusCake_Uptime_Checker']),
  agent('Site24x7', 'Zoho', 'scraper', ['Site24x7']),
  agent('GTmetrix', 'GTmetrix', 'scraper', ['GTmetrix']),
  agent('Datadog Synthetics', 'Datadog', 'scraper', ['Datadog/Synthetics', 'DatadogSynthetics', 'Datadog Synthetic', 'Datadog Agent']),
  agent('New Relic Synthetics', 'New Relic', 'scraper', ['NewRelicPinger', 'NewRelicSynthetics']),
  agent('Better Uptime Bot', 'Better Stack', 'scraper', ['Better Uptime Bot', 'Better Stack']),
  agent('Checkly', 'Checkly', 'scraper', ['=Checkly']),
  agent('Uptime Kuma', null, 'scraper', ['Uptime-Kuma']),
  agent('Zabbix', 'Zabbix', 'scraper', ['Zabbix']),
  agent('Nagios', null, 'scraper', ['check_http', 'nagios-plugins', 'Nagios']),
  agent('Prometheus Blackbox Exporter', null, 'scraper', ['Blackbox Exporter']),
  agent('Catchpoint', 'Catchpoint', 'scraper', ['Catchpoint']),
  agent('Dynatrace Synthetic', 'Dynatrace', 'scraper', ['RuxitSynthetic', 'Dynatrace']),
  agent('ThousandEyes', 'Cisco', 'scraper', ['ThousandEyes']),
  agent('WebPageTest', 'Catchpoint', 'scraper', ['PTST', 'WebPageTest']),
  agent('NodePing', 'NodePing', 'scraper', ['NodePing']),
  agent('Uptrends', 'Uptrends', 'scraper', ['uptrends']),
  agent('Freshping', 'Freshworks', 'scraper', ['Freshping']),
  agent('Hetrix', 'HetrixTools', 'scraper', ['HetrixTools']),
  agent('updown.io', 'updown.io', 'scraper', ['updown.io']),
  agent('Jetpack Monitor', 'Automattic', 'scraper', ['jetmon']),
  agent('Honeybadger Uptime', 'Honeybadger', 'scraper', ['Honeybadger']),
  agent('Panopta', 'Panopta', 'scraper', ['Panopta']),
  agent('PRTG', 'Paessler', 'scraper', ['PRTG Network Monitor', 'PRTG']),
  agent('LogicMonitor', 'LogicMonitor', 'scraper', ['LogicMonitor']),
  agent('AppInsights', 'Microsoft', 'scraper', ['AppInsights', 'Azure Application Insights']),
  agent('Elastic Synthetics', 'Elastic', 'scraper', ['Elastic-Heartbeat', 'Elastic/Synthetics']),
  agent('Grafana Synthetic Monitoring', 'Grafana Labs', 'scraper', ['Grafana Synthetic Monitoring', 'k6/']),
  agent('SpeedCurve', 'SpeedCurve', 'scraper', ['SpeedCurve']),
  agent('DareBoost', 'DareBoost', 'scraper', ['DareBoost']),
  agent('Rigor', 'Rigor', 'scraper', ['Rigor']),
  agent('W3C Validator', 'W3C', 'scraper', ['W3C_Validator', 'W3C-checklink', 'W3C_CSS_Validator', 'W3C-mobileOK', 'W3C_I18n-Checker', 'W3C_Unicorn', 'Validator.nu', '=Jigsaw', 'FeedValidator']),
  agent('Health checks', null, 'scraper', ['ELB-HealthChecker', 'Amazon-Route53-Health-Check-Service', 'Amazon CloudFront', 'GoogleHC', 'kube-probe', 'Consul Health Check', 'HAProxy', 'Envoy/HC']),
  agent('Cloudflare', 'Cloudflare', 'scraper', ['Cloudflare-SSLDetector', 'Cloudflare-Validator', 'Cloudflare-Radar', 'Cloudflare-SpeedTest', 'Cloudflare-Stream-Hook', 'cloudflare-csup', 'Cloudflare-Healthchecks', 'Cloudflare-Traffic-Manager']),

  // Feed readers and aggregators.
  agent('Feedly', 'Feedly', 'scraper', ['Feedly/1.0', 'FeedlyBot', '=Feedly']),
  agent('Feedbin', 'Feedbin', 'scraper', ['=Feedbin']),
  agent('NewsBlur', 'NewsBlur', 'scraper', ['=NewsBlur', 'NewsBlur Feed Fetcher', 'NewsBlur Page Fetcher']),
  agent('Inoreader', 'Inoreader', 'scraper', ['=Inoreader']),
  agent('The Old Reader', 'The Old Reader', 'scraper', ['theoldreader']),
  agent('Feed readers', null, 'scraper', [
    'Tiny Tiny RSS', '=FreshRSS', '=Miniflux', '=NetNewsWire', 'NextCloud-News', 'Nextcloud-News', '=CommaFeed', '=Selfoss', '=Liferea',
    '=Akregator', '=QuiteRSS', '=RSSOwl', 'Feedspot', 'Bloglines', 'NewsGator', 'SimplePie', 'FeedBurner', 'Superfeedr', 'Blogtrottr',
    'MonitoRSS', 'FeedFlow', 'rss-parser', '=Feeder', 'feeder.co', '=Feedreader', '=FeedDemon', '=Reeder', '=Readwise', 'NewsNow', '=upday', 'Bazqux',
  ]),

  // Archives.
  agent('archive.org_bot', 'Internet Archive', 'scraper', ['archive.org_bot', 'ia_archiver', 'special_archiver', 'Archive-It']),
  agent('Web archives', null, 'scraper', ['Library Of Congress', 'Webrecorder', 'ArchiveTeam', 'ArchiveBot', 'Arquivo-web-crawler', 'archive.today', 'archive.ph', 'Mementoweb']),
  agent('Site copiers', null, 'scraper', ['CyotekWebCopy', 'SiteSucker', 'WebCopier', 'WebCapture', 'Offline Explorer', 'Teleport Pro', 'WebZIP', 'WebReaper', 'Download Ninja', 'GetRight', 'Go!Zilla', 'FlashGet', 'HTTrack']),

  // Security scanners and internet surveys.
  agent('CensysInspect', 'Censys', 'scraper', ['CensysInspect']),
  agent('Expanse', 'Palo Alto Networks', 'scraper', ['=Expanse']),
  agent('Netcraft', 'Netcraft', 'scraper', ['NetcraftSurveyAgent', 'Netcraft']),
  agent('Security scanners', null, 'scraper', [
    'zgrab', 'masscan', 'Nmap Scripting Engine', 'sqlmap', 'Nikto', 'WPScan', 'Nuclei', 'acunetix', 'OpenVAS', 'WhatWeb', 'Wappalyzer',
    'ZmEu', 'l9explore', 'l9tcpid', 'Qualys', 'Nessus', 'burpcollaborator', 'DirBuster', 'gobuster', 'ffuf', 'feroxbuster', 'Hakrawler', 'httpx',
    'Shodan', 'BinaryEdge', 'LeakIX', 'InternetMeasurement', 'Hardenize', 'SecurityHeaders', 'SSL Labs', 'Sucuri', 'SiteLock', 'VaultPress',
    'Detectify', 'Foregenix', 'watchTowr', 'NetSystemsResearch', 'DNSScanner', 'bitdiscovery', 'TwinWaveScanner', 'BlackDuck', 'abuse.xmco.fr',
  ], { tier: 1 }),

  // Tools and HTTP libraries: a named agent built on them wins (tier 1).
  lib('Heritrix', ['heritrix']),
  lib('larbin', ['larbin', 'binlar']),
  lib('curl', ['curl', 'libcurl', 'PycURL']),
  lib('Wget', ['Wget']),
  lib('python-requests', ['python-requests']),
  lib('Python-urllib', ['Python-urllib']),
  lib('python-httpx', ['python-httpx']),
  lib('aiohttp', ['aiohttp']),
  lib('urllib3', ['urllib3']),
  lib('Python HTTP', ['httplib2', 'Python-httplib2', 'python-urllib3', 'PySpider', 'newspaper/', 'trafilatura', 'Scrapy-Splash', 'mechanicalsoup', 'requests-html']),
  lib('Go-http-client', ['Go-http-client', 'Go http package', 'fasthttp', 'resty', 'colly']),
  lib('okhttp', ['okhttp']),
  lib('axios', ['axios']),
  lib('node-fetch', ['node-fetch']),
  // Node's built-in fetch sends "undici" (Node 18-20) or just "node" (later releases).
  lib('undici', ['undici', '^node$']),
  lib('Node HTTP', ['got (', 'node-superagent', 'superagent', 'request/', 'needle/', 'node-http', 'Jetty', 'ky/']),
  lib('Java', ['^Java/', 'Java/1.', 'Java-http-client', 'Apache-HttpAsyncClient', 'AHC/', 'Jersey/', 'ReactorNetty', 'Jakarta Commons-HttpClient', 'JNLP', 'okhttp3']),
  lib('Apache-HttpClient', ['Apache-HttpClient', 'Commons-HttpClient', 'HttpClient']),
  lib('libwww-perl', ['libwww-perl', 'lwp-trivial', 'LWP::Simple', 'WWW-Mechanize', 'Mojolicious', 'HTTP::Tiny', 'Furl']),
  lib('Ruby', ['^Ruby$', 'Ruby/', 'Faraday v', '=Faraday', 'rest-client', 'Typhoeus', 'http.rb', 'Net::HTTP']),
  lib('PHP', ['GuzzleHttp', 'PHP/', '^PHP', 'WordPress/', 'Symfony HttpClient', 'PHP-Curl-Class', 'phpcrawl', 'Laminas_Http_Client', 'Zend_Http_Client', 'Pcore-HTTP']),
  lib('HTTPie', ['HTTPie']),
  lib('PostmanRuntime', ['PostmanRuntime']),
  lib('Insomnia', ['insomnia/']),
  lib('Dart', ['Dart/']),
  lib('Deno', ['Deno/']),
  lib('Bun', ['Bun/']),
  lib('.NET', ['RestSharp', 'WinHttp', 'WinHTTP', 'WindowsPowerShell', 'PowerShell', 'System.Net.Http', 'Microsoft-CryptoAPI', 'Microsoft BITS', 'Microsoft-WebDAV', 'Indy Library', 'DotNet']),
  lib('Rust HTTP', ['reqwest', 'hyper/', 'isahc', 'surf/', 'ureq']),
  lib('Other HTTP clients', ['libfetch', 'lua-resty-http', '=Hackney', 'HTTPoison', 'Apache Synapse', 'Mechanize', 'aria2', '=axel', 'http_get', 'httpunit', 'CustomAsyncHttpClient', '=Salesforce', 'SFDC-Callout', 'Zapier', 'Integromat', 'Make/production', 'IFTTT', 'n8n', 'Pipedream']),

  // Headless browsers and automation frameworks: markers inside otherwise browser-like UAs.
  headless('HeadlessChrome', ['HeadlessChrome', 'Headless']),
  headless('PhantomJS', ['PhantomJS']),
  headless('Puppeteer', ['Puppeteer']),
  headless('Playwright', ['Playwright']),
  headless('Selenium', ['Selenium', 'webdriver']),
  headless('Cypress', ['Cypress/']),
  headless('jsdom', ['jsdom']),
  headless('HtmlUnit', ['HtmlUnit']),
  headless('SlimerJS', ['SlimerJS']),
  headless('Splash', ['splash Version']),
  headless('Ghost Inspector', ['Ghost Inspector']),

  // Bots no entry names, recognised by the structure of their UA (structure.ts): last resort.
  agent('Unidentified bot', null, 'scraper', [], { generic: true }),
  // Browsers always send a user-agent; a request without one is a script.
  agent('Empty user-agent', null, 'scraper', [], { empty_ua: true }),
]
