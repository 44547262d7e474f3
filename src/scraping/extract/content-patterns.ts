// Class/id vocabularies and tag sets behind the main-text scoring. They follow the well-tested heuristics
// of Arc90/Mozilla Readability (Apache-2.0), which is the reference our benchmark measures against.

/** class/id words of page furniture that is dropped before scoring (unless okMaybe also matches). */
export const UNLIKELY =
  /-ad-|ai2html|banner|breadcrumbs|combx|comment|community|cover-wrap|disqus|extra|footer|gdpr|header|legends|menu|related|remark|replies|rss|shoutbox|sidebar|skyscraper|social|sponsor|supplemental|ad-break|agegate|pagination|pager|popup|yom-remote/i
export const OK_MAYBE = /and|article|body|column|content|main|mathjax|shadow/i
export const POSITIVE = /article|body|content|entry|hentry|h-entry|main|page|pagination|post|text|blog|story/i
export const NEGATIVE =
  /-ad-|hidden|^hid$| hid$| hid |^hid |banner|combx|comment|com-|contact|footer|gdpr|masthead|media|meta|outbrain|promo|related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|widget/i
export const BYLINE = /byline|author|dateline|writtenby|p-author/i
/** class/id of a caption or a photo credit: it annotates an image, not the article. */
export const CAPTION = /caption|credit|(?:^|[\s_-])legend(?:$|[\s_-])|bildunterschrift/i
export const SHARE = /(\b|_)(share|sharedaddy)(\b|_)/i
export const VIDEO = /\/\/(www\.)?((dailymotion|youtube|youtube-nocookie|player\.vimeo|v\.qq)\.com|(archive|upload\.wikimedia)\.org|player\.twitch\.tv)/i
export const AD_WORDS = /^(ad(vertising|vertisement)?|pub(licité)?|werb(ung)?|广告|Реклама|Anuncio)$/iu
export const LOADING_WORDS = /^((loading|正在加载|Загрузка|chargement|cargando)(…|\.\.\.)?)$/iu
export const UNLIKELY_ROLES = new Set(['menu', 'menubar', 'complementary', 'navigation', 'alert', 'alertdialog', 'dialog'])
export const TAGS_TO_SCORE = new Set(['section', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'td', 'pre'])
/** Tags that make a <div> a container rather than a paragraph. */
export const BLOCK_TAGS = new Set(['blockquote', 'dl', 'div', 'img', 'ol', 'p', 'pre', 'table', 'ul'])
export const KEEP_TAG_SIBLINGS = new Set(['div', 'article', 'section', 'p', 'ol', 'ul'])
export const PHRASING = new Set([
  'abbr',
  'audio',
  'b',
  'bdo',
  'br',
  'button',
  'cite',
  'code',
  'data',
  'datalist',
  'dfn',
  'em',
  'embed',
  'i',
  'img',
  'input',
  'kbd',
  'label',
  'mark',
  'math',
  'meter',
  'noscript',
  'object',
  'output',
  'progress',
  'q',
  'ruby',
  'samp',
  'script',
  'select',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'textarea',
  'time',
  'var',
  'wbr',
  'font',
])
export const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6'])
/** Descendants whose text shows a node holds prose at all ("text density" > 0). */
export const TEXTISH = new Set(['span', 'li', 'td', 'blockquote', 'dl', 'div', 'img', 'ol', 'p', 'pre', 'table', 'ul'])
export const EMPTY_REMOVABLE = new Set(['div', 'section', 'header', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6'])

export function tagBaseScore(tag: string): number {
  switch (tag) {
    case 'div':
      return 5
    case 'pre':
    case 'td':
    case 'blockquote':
      return 3
    case 'address':
    case 'ol':
    case 'ul':
    case 'dl':
    case 'dd':
    case 'dt':
    case 'li':
    case 'form':
      return -3
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6':
    case 'th':
      return -5
    default:
      return 0
  }
}
