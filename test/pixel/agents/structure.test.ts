import { describe, expect, it } from 'vitest'
import { looksAutomated } from '../../../src/pixel/agents/structure.ts'

const ANDROID = (model: string) => `Mozilla/5.0 (Linux; Android 13; ${model}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36`

describe('looksAutomated: each rule flags a bot', () => {
  it.each([
    ['no platform, no engine', 'Uptime-Kuma/1.23.16'],
    ['no platform, one word', 'Funnelback'],
    ['a word ending in bot', 'Mozilla/5.0 (compatible; MyShinyBot/2.0)'],
    ['crawl inside a word', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120 Safari/537.36 dcrawl/1.0'],
    ['a URL', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120 Safari/537.36 Foo/1 (+https://foo.example/about)'],
    ['an e-mail address', 'Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/115.0 contact@foo.example'],
    ['an obfuscated e-mail address', 'Mozilla/5.0/Firefox/42.0 - someone(at)gmail.com'],
    ['a bare domain', 'Mozilla/5.0 (Windows NT 6.1; WOW64) AppleWebKit/537.11 (KHTML, like Gecko) Chrome/23.0 Safari/537.11 GotSiteMonitor.com'],
    ['"compatible;" with no browser and no platform', 'Mozilla/5.0 (compatible; Optimizer)'],
    ['monitoring vocabulary', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/100 Safari/537.36 NewRelicSynthetics/1.0'],
    ['no spaces at all', 'Mozilla/5.0(Windows;U;WindowsNT6.1;en-US)AppleWebKit/534.16(KHTML,likeGecko)'],
    ['an empty comment', 'coccoc/1.0 ()'],
    ['a bot in a KHTML comment', 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; rakutenusabot-image/1.0) Chrome/114.0.0.0 Safari/537.36'],
    [
      'a contact inside a platform-like comment',
      'Mozilla/5.0 (X11; Linux x86_64; HubSpot Single Page link check; web-crawlers+links@hubspot.com) AppleWebKit/537.36',
    ],
  ])('%s', (_rule, ua) => expect(looksAutomated(ua)).toBe(true))
})

describe('looksAutomated: device metadata says nothing', () => {
  it.each([
    ['a phone model named like a bot', ANDROID('Bot 5')],
    ['a phone model named Expanse', ANDROID('Expanse')],
    ['a phone model with monitoring words', ANDROID('Monitor 10 Scanner Pro')],
    ['Cubot, a phone maker', ANDROID('CUBOT KINGKONG 7')],
    [
      'Instagram device comment',
      `${ANDROID('SM-G991B')} Instagram 311.0.0.32.118 Android (33/13; 480dpi; 1080x2176; samsung; SpiderBot; o1s; exynos2100; en_US; 545986883)`,
    ],
    ['Facebook bracket', `${ANDROID('SM-G991B')} [FB_IAB/FB4A;FBAV/447.0.0.33.116;FBDV/Crawler 2;FBMD/samsung;]`],
    ['Dalvik', 'Dalvik/2.1.0 (Linux; U; Android 11; Spider X1 Build/PPR1.180610.011)'],
    ['Internet Explorer toolbars', 'Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 6.0; SLCC1; MSN Optimized;US)'],
    [
      'an app bundle id',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 com.example.reader.app',
    ],
    [
      'Ecosia version with @',
      'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36 (Ecosia android@124.0.6367.123)',
    ],
    ['a feature phone', 'Nokia6300/2.0 (05.00) Profile/MIDP-2.0 Configuration/CLDC-1.1'],
    ['a text browser', 'Lynx/2.8.9rel.1 libwww-FM/2.14 SSL-MM/1.4.1 OpenSSL/1.1.1d'],
    ['Konqueror', 'Mozilla/5.0 (compatible; Konqueror/4.5; Linux) KHTML/4.5.5 (like Gecko)'],
  ])('%s', (_case, ua) => expect(looksAutomated(ua)).toBe(false))
})
