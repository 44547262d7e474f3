// Page-level quality signals for made-for-advertising (MFA) detection. Everything here is derived from
// counters gathered during tokenising plus the links and main text, so it costs next to nothing.
import type { ElementNode } from './dom.ts'
import { textOf } from './dom.ts'
import type { RawSignals } from './raw-signals.ts'

export interface PageSignals {
  /** Distinct ad slots: the largest of the markers that describe them (slot elements, scripted slots, ad iframes). */
  ad_slot_count: number
  /** Ad slots per 1000 words of main text (word count floored at 100 so near-empty pages do not explode). */
  ad_slots_per_1000_words: number
  ad_iframe_count: number
  iframe_count: number
  /** <script src> from ad-tech hosts (GPT, AdSense, Prebid, Amazon, Taboola, Outbrain…). */
  ad_script_count: number
  has_meta_refresh: boolean
  meta_refresh_seconds: number | null
  has_js_refresh: boolean
  /** "Next slide"/"next page" links, rel=next, or a "3 of 20" counter. */
  has_next_link: boolean
  /** Same-site links that only differ by a page/slide number (?page=2, /page/2, /2/). */
  pagination_link_count: number
  slideshow_pattern: boolean
  /** The page URL itself is a later page of a paginated article or gallery. */
  url_is_paginated: boolean
  link_count: number
  outbound_link_count: number
  internal_link_count: number
  /** <p> elements anywhere on the page, and paragraphs of the extracted main text. */
  paragraph_count: number
  main_paragraph_count: number
  image_count: number
  script_count: number
  /** Share of the page's visible text that is main text (low on thin, furniture-heavy pages). */
  main_text_ratio: number
}

export interface SignalInputs {
  raw: RawSignals
  url: string
  links: string[]
  anchors: ElementNode[]
  mainText: string
  wordCount: number
  pageTextLength: number
}

const NEXT_TEXT =
  /^\s*(next|next (slide|page|photo|image|picture|article)|continue|weiter|suivant|siguiente|próximo|avanti|volgende|далее)\s*(»|›|>|→)?\s*$|^\s*(»|›|→)\s*$/i
const SLIDE_WORDS = /\b(slide|slideshow|gallery|photo|image)s?\b/i
const COUNTER = /\b(?:slide|photo|image|page|picture)?\s*\d{1,3}\s+(?:of|\/)\s+\d{1,3}\b/i
const PAGED_URL = /[?&](page|p|pg|slide|photo|image|pagenum|start)=\d+|\/(page|slide|photo|pictures?)[/-]?\d+\/?$|\/\d{1,2}\/?$/i

function hostKey(url: string): string | null {
  try {
    return new URL(url).hostname.replace(/^www\d*\./, '')
  } catch {
    return null
  }
}

/** Same registrable-ish site: equal hosts after dropping "www.", or one a subdomain of the other. */
function sameSite(a: string, b: string): boolean {
  return a === b || a.endsWith('.' + b) || b.endsWith('.' + a)
}

export function computeSignals(input: SignalInputs): PageSignals {
  const { raw, url, links, anchors, mainText, wordCount, pageTextLength } = input
  const ownHost = hostKey(url)
  let outbound = 0
  let internal = 0
  let paginated = 0
  for (const link of links) {
    const host = hostKey(link)
    if (host === null) continue
    if (ownHost !== null && sameSite(host, ownHost)) {
      internal++
      if (PAGED_URL.test(link) && link !== url) paginated++
    } else {
      outbound++
    }
  }

  let nextLink = raw.relNext
  let slideLink = false
  for (const a of anchors) {
    const text = a.children.length === 0 ? '' : textOf(a)
    if (text.length === 0 || text.length > 40) continue
    if (NEXT_TEXT.test(text)) nextLink = true
    if (/next|start/i.test(text) && SLIDE_WORDS.test(text)) slideLink = true
  }
  const counter = COUNTER.test(mainText.slice(0, 2000))
  const urlPaged = PAGED_URL.test(url)

  const adSlots = Math.max(raw.adElements, raw.scriptedSlots, raw.adIframes)
  const mainParagraphs = mainText === '' ? 0 : mainText.split(/\n{2,}/).length
  return {
    ad_slot_count: adSlots,
    ad_slots_per_1000_words: Math.round((adSlots * 1000 * 100) / Math.max(wordCount, 100)) / 100,
    ad_iframe_count: raw.adIframes,
    iframe_count: raw.iframes,
    ad_script_count: raw.adScripts,
    has_meta_refresh: raw.metaRefreshSeconds !== null,
    meta_refresh_seconds: raw.metaRefreshSeconds,
    has_js_refresh: raw.jsRefresh,
    has_next_link: nextLink || counter,
    pagination_link_count: paginated,
    slideshow_pattern: slideLink || (counter && (nextLink || paginated > 0)) || (urlPaged && nextLink),
    url_is_paginated: urlPaged,
    link_count: links.length,
    outbound_link_count: outbound,
    internal_link_count: internal,
    paragraph_count: raw.paragraphs,
    main_paragraph_count: mainParagraphs,
    image_count: raw.images,
    script_count: raw.scripts,
    main_text_ratio: pageTextLength > 0 ? Math.min(1, Math.round((mainText.length / pageTextLength) * 1000) / 1000) : 0,
  }
}
