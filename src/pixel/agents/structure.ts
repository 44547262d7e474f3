// The last layer of classification: a UA that names no known agent is still automated when its
// structure says so. A browser's UA is a platform comment plus engine and browser product tokens; an
// in-app browser adds its app's products and device metadata. Bots add what browsers never send: a
// URL or e-mail address to contact, a product named "…bot"/"…crawler", a "compatible;" item that is no
// browser, vocabulary of monitoring and fetching, or no platform at all ("Zabbix", "Uptime-Kuma/1.23").
// Device metadata is cut out first, so a phone model named "Expanse" or "Bot 5" says nothing.
// Sources of the vocabulary: isbot's pattern list (Unlicense) and the research note (docs/agents.md).

// All patterns run on the lowercased UA (no /i: V8 scans case-sensitive alternations much faster).

const SIGNALS: readonly RegExp[] = [
  // A self-declared robot: a word ending in bot(s), or crawl/spider/scrape anywhere ("dcrawl", "HeadOnlyScraperV2").
  /(?<!cu)bots?(?![a-z])|^bot|crawl|spider|scrap(?:e|ing)/,
  // A contact: URL or e-mail address (also "name(at)example.com").
  /https?:\/\/|\bwww\.[a-z0-9-]+\.|[a-z0-9._%+-](?:@|\[at\]|\(at\))[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}/,
  // A bare domain name (not an app's reversed bundle id: "com.example.app").
  /(?<!\b(?:com|org|net|io|ru|cn|jp|de|uk|kr|tv)\.[a-z0-9.-]*)[a-z0-9]\.(?:com|net|org|io|ai|co|info|biz|app|dev|de|fr|uk|ru|jp|cn|nl|eu|us|me|cz|pl|it|es|se|ch|at|be|dk|fi|br|kr|ua|xyz|tech|cloud|site|online|ly|gy|sh)(?![a-z0-9-])(?!\.[a-z])/,
  // Monitoring, checking and fetching vocabulary.
  /monitor|synthetic|uptime|scanner|\bscan(?:\b|[_/])|check(?![a-z])|validator|headless|fetcher|indexer|prerender|screenshot|lighthouse|pagespeed|(?<!lib)http(?!s?:)|(?<![a-z])(?:rss|feed)(?![a-z])|feed(?:reader|parser|validator)|archiv|harvest|webhook|audit|analy[sz]er|extractor|downloader|preview|parser|agent(?![a-z])|capture|detect|discovery|inspect|classifier|retriever|transcoder|optimi[sz]/,
]

// Shapes no browser has (checked before the cut): one long run without spaces, an empty comment, a UA
// opening with punctuation.
const SHAPE = /^[^ ]{50,}$|\(\)|^[<(;]/

// Browsers always name a platform (DEVICE: desktop and mobile systems, TVs, consoles, readers, the
// makers of feature phones) or a rendering engine or browser of their own; a UA naming none is a program.
export const DEVICE =
  /windows|win ?9|win16|win32|win64|wow64|winnt|macintosh|mac ?os|mac_p|ppc|68k|darwin|cfnetwork|linux|android|iphone|ipad|ipod|\bios\b|cpu os|x11|cros|ubuntu|fedora|debian|unix|bsd|sunos|irix|hp-ux|aix|qnx|beos|haiku|os\/2|amiga|morphos|risc ?os|syllable|blackberry|bb10|rim tablet|symbian|series ?[46]0|s40|midp|cldc|j2me|brew|maui|mtk|spreadtrum|bada|maemo|meego|sailfish|tizen|web0?s|kaios|palm|pocket ?pc|playstation|psp|nintendo|wii|xbox|smart-?tv|hbbtv|netcast|roku|appletv|tvos|watchos|crkey|kindle|nook|fuchsia|harmonyos|portalmmm|wap|nokia|samsung|sec-|sgh|sch-|sonyericsson|\bmot-|\blg-|lge|alcatel|sagem|siemens|\bsie-|panasonic|sharp|sanyo|zte|huawei|lenovo|htc|au-mic|docomo|kddi|softbank|vodafone|mobile|tablet/
export const PLATFORM = new RegExp(
  `${DEVICE.source}|webkit|gecko|presto|trident|msie|khtml|opera|dalvik|lynx|w3m|links|dillo|netsurf|netfront|openwave|up\\.browser|up\\.link|polaris|teleca|obigo|ucweb|ucbrowser`,
)

// Comments that describe a device (platform comments, Dalvik's, Instagram's "(33/13; 480dpi; …)",
// Opera Mini's) and bracketed app metadata ("[FBAN/FBIOS;FBDV/iPhone14,5;…]"): a comment that names a
// system or device. One with a contact, or "compatible" for anything but Internet Explorer or Konqueror (whose
// platform comment lists toolbars: "MSN Optimized", "WebMoney Advisor"), is a bot's self-description
// and stays.
const DEVICE_PART = new RegExp(
  '\\[[^\\]]*\\]|\\((?![^()]*(?:https?:|www\\.|@))(?![^()]*compatible(?![^()]*(?:msie|trident|iemobile|konqueror)))' +
    `[^()]*(?:${DEVICE.source}|dpi|build/)[^()]*\\)`,
  'g',
)

// "compatible;" followed by something that is no browser (MSIE, Konqueror, …), in a comment that names
// no platform either: "(compatible; Optimizer)", "(compatible; Uptimia; www.uptimia.com)".
const COMPATIBLE = /compatible;\s*(?!(?:msie|konqueror|u|ibrowse|amiga|abrowse|iemobile|opera|icab|omniweb|webtv|netfront|googletv|mozilla)\b)([a-z][^()]*)/

/** True when the UA's structure shows an automated client (see the header). */
export function looksAutomated(ua: string): boolean {
  const lower = ua.toLowerCase()
  if (!PLATFORM.test(lower) || SHAPE.test(lower)) return true
  const compatible = COMPATIBLE.exec(lower)
  if (compatible !== null && !PLATFORM.test(compatible[1]!)) return true
  // Cutting device parts only removes text (each leaves a space), so a UA without a signal needs no cut.
  // Separate RegExps: V8 runs them faster one after the other than as one alternation.
  return signal(lower) && signal(lower.replace(DEVICE_PART, ' '))
}

function signal(text: string): boolean {
  for (const re of SIGNALS) if (re.test(text)) return true
  return false
}
