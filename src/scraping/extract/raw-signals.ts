// Counters filled while the page is tokenised (one cheap check per tag), later turned into PageSignals.
// The patterns name the common ad stacks: Google Publisher Tag / DFP, AdSense, Prebid, Amazon, and the
// native-ad widgets (Taboola, Outbrain, ...), which made-for-advertising pages lean on heavily.

export interface RawSignals {
  iframes: number
  adIframes: number
  /** Elements that are ad slots by id, class or data attribute (div-gpt-ad…, ins.adsbygoogle, data-ad-slot…). */
  adElements: number
  adScripts: number
  /** googletag.defineSlot(...) and adsbygoogle.push(...) calls in inline scripts. */
  scriptedSlots: number
  metaRefreshSeconds: number | null
  jsRefresh: boolean
  paragraphs: number
  images: number
  scripts: number
  relNext: boolean
}

export function emptyRawSignals(): RawSignals {
  return {
    iframes: 0,
    adIframes: 0,
    adElements: 0,
    adScripts: 0,
    scriptedSlots: 0,
    metaRefreshSeconds: null,
    jsRefresh: false,
    paragraphs: 0,
    images: 0,
    scripts: 0,
    relNext: false,
  }
}

const AD_HOSTS =
  /doubleclick\.net|googlesyndication\.com|googletagservices\.com|adservice\.google|securepubads|amazon-adsystem\.com|adnxs\.com|taboola\.com|outbrain\.com|mgid\.com|revcontent\.com|criteo\.(com|net)|pubmatic\.com|rubiconproject\.com|openx\.net|prebid|adsafeprotected\.com|moatads\.com|media\.net|yieldmo\.com|33across\.com|sharethrough\.com|teads\.tv|zergnet\.com/i
const AD_ID =
  /^(div-gpt-ad|gpt-ad|google_ads_|dfp-ad|ad-slot|adslot|ad_slot|ad-unit|ad_unit|adunit|ad-container|ad_container|advert-|taboola-|outbrain_widget)/i
const AD_CLASS =
  /\b(adsbygoogle|ad-slot|adslot|ad_slot|ad-unit|ad_unit|adunit|dfp-ad|gpt-ad|ad-container|ad-placeholder|advertisement|OUTBRAIN|trc_related_container)\b/i

export function noteOpenTag(s: RawSignals, name: string, attrs: Record<string, string>, inHead: boolean): void {
  switch (name) {
    case 'p':
      s.paragraphs++
      break
    case 'img':
      s.images++
      break
    case 'iframe': {
      s.iframes++
      const src = attrs.src ?? attrs['data-src'] ?? ''
      const id = attrs.id ?? ''
      if ((src !== '' && AD_HOSTS.test(src)) || id.startsWith('google_ads_iframe')) s.adIframes++
      return
    }
    case 'script': {
      s.scripts++
      const src = attrs.src
      if (src !== undefined && AD_HOSTS.test(src)) s.adScripts++
      return
    }
    case 'meta': {
      const equiv = attrs['http-equiv']
      if (equiv !== undefined && equiv.toLowerCase() === 'refresh' && attrs.content !== undefined) {
        const seconds = Number.parseFloat(attrs.content)
        s.metaRefreshSeconds = Number.isFinite(seconds) ? seconds : 0
      }
      return
    }
    case 'link':
    case 'a':
      if (attrs.rel !== undefined && /\bnext\b/i.test(attrs.rel)) s.relNext = true
      if (name === 'link') return
      break
  }
  if (inHead) return
  if (
    attrs['data-ad-slot'] !== undefined ||
    attrs['data-google-query-id'] !== undefined ||
    attrs['data-ad-unit'] !== undefined ||
    attrs['data-ad-client'] !== undefined ||
    (attrs.id !== undefined && AD_ID.test(attrs.id)) ||
    (attrs.class !== undefined && AD_CLASS.test(attrs.class))
  ) {
    s.adElements++
  }
}

function countOccurrences(text: string, needle: string): number {
  let n = 0
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length)) n++
  return n
}

export function noteInlineScript(s: RawSignals, text: string): void {
  s.scriptedSlots += countOccurrences(text, 'defineSlot(') + countOccurrences(text, 'adsbygoogle || []).push')
  if (!s.jsRefresh && (text.includes('location.reload') || /set(Timeout|Interval)\([^;]{0,200}location(\.href)?\s*=/.test(text))) {
    s.jsRefresh = true
  }
}
