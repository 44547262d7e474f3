// Tag code for a pixel campaign (docs/pixel.md, "Tags"): the no-JS <img> pixel and the JS beacon
// for publishers' pages, and impression-tracker URLs for buyers, one per DSP, carrying that DSP's
// macros. Macro literals are written exactly as the DSP expects them, never URL-encoded (a DSP
// cannot find an encoded macro). Macro names: docs/pixel.md, "Tags"; where a DSP has no
// public macro for a value, its template leaves that parameter out.
import type { PixelTag } from './schemas.ts'

type Template = Partial<Record<'deal' | 'd' | 'u' | 'price' | 'cur' | 'cb' | 'imp' | 'site', string>>

export const DSP_TEMPLATES: Record<string, Template> = {
  the_trade_desk: {
    deal: '%%TTD_DEALID%%',
    d: '%%TTD_SITE%%',
    u: '%%TTD_SITE_WITH_PATH%%',
    cb: '%%TTD_CACHEBUSTER%%',
    imp: '%%TTD_IMPRESSIONID%%',
  },
  dv360: { u: '${SOURCE_URL_ENC}', cb: '${CACHEBUSTER}', imp: '${AUCTION_ID}', site: '${UNIVERSAL_SITE_ID}' },
  xandr: {
    u: '${REFERER_URL_ENC}',
    price: '${PRICE_PAID}',
    cb: '${CACHEBUSTER}',
    imp: '${AUCTION_ID}',
    site: '${SITE_ID}',
  },
  // Amazon DSP's macro reference is not public; it fills the OpenRTB auction macros. Check the
  // names with your Amazon DSP contact: whatever stays unexpanded is flagged in the data.
  amazon: { price: '${AUCTION_PRICE}', cur: '${AUCTION_CURRENCY}', imp: '${AUCTION_IMP_ID}', cb: '${AUCTION_ID}' },
  // OpenRTB 2.5/2.6 §4.4 substitution macros, for SSP-side win notices and burl/nurl.
  openrtb: { price: '${AUCTION_PRICE}', cur: '${AUCTION_CURRENCY}', imp: '${AUCTION_IMP_ID}', cb: '${AUCTION_ID}' },
}

export const PARAMETERS: PixelTag['parameters'] = [
  { name: 'u', meaning: 'page URL (absolute http/https); default: the Referer header' },
  { name: 'r', meaning: 'the page’s own referrer (the JS beacon sends document.referrer): AI referrals' },
  { name: 'd', meaning: 'serving domain or app bundle; default: the page URL’s host' },
  { name: 'deal', meaning: 'deal id' },
  { name: 'price', meaning: 'clearing price (decimal, or the exchange’s encrypted form)' },
  { name: 'cur', meaning: 'price currency' },
  { name: 'cb', meaning: 'cachebuster (not unique per impression: use imp to tell impressions apart)' },
  { name: 'imp', meaning: 'auction or impression id' },
  { name: 'site', meaning: 'the DSP’s site or publisher id, where it has no domain macro' },
  { name: 'dsp', meaning: 'which template the URL came from' },
  { name: 'wd', meaning: '1 when navigator.webdriver is set (sent by the JS beacon)' },
]

const attr = (s: string) => s.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;')

export function buildTag(campaignId: number, baseUrl: string): PixelTag {
  const gif = `${baseUrl}/px/${campaignId}.gif`
  const beacon = `${baseUrl}/px/${campaignId}`
  // referrerpolicy sends the full page URL cross-origin (the default policy would send only the
  // origin); eager loading, so crawlers that fetch images count.
  const img =
    `<img src="${attr(gif)}" width="1" height="1" alt="" loading="eager" referrerpolicy="no-referrer-when-downgrade" ` +
    `style="position:absolute;width:1px;height:1px;border:0;opacity:0">`
  const script = [
    '<script>',
    `(function(){var b=${JSON.stringify(beacon)},n=navigator,d=document;`,
    'var p="u="+encodeURIComponent(location.href)+"&r="+encodeURIComponent(d.referrer)+(n.webdriver?"&wd=1":"");',
    'if(!(n.sendBeacon&&n.sendBeacon(b,p))){var i=new Image();i.referrerPolicy="no-referrer-when-downgrade";i.src=b+".gif?"+p;}})();',
    '</script>',
    `<noscript>${img}</noscript>`,
  ].join('\n')
  const impressionUrls: Record<string, string> = {}
  for (const [dsp, t] of Object.entries(DSP_TEMPLATES)) {
    const query = Object.entries(t).map(([k, v]) => `${k}=${v}`)
    impressionUrls[dsp] = `${gif}?dsp=${dsp}&${query.join('&')}`
  }
  return { campaign_id: campaignId, base_url: baseUrl, image_tag: img, javascript_tag: script, impression_urls: impressionUrls, parameters: PARAMETERS }
}

/** A DSP's macros for the parameters a click link carries: the deal id and the serving domain. */
export function clickMacros(dsp: string): string {
  const t = DSP_TEMPLATES[dsp] ?? {}
  return (['deal', 'd'] as const).flatMap((k) => (t[k] ? [`${k}=${t[k]}`] : [])).join('&')
}

/**
 * Impression-tracker URLs for one deal: each DSP's template with the Deal ID written in, for DSPs
 * that have no deal macro (one creative or line item per deal).
 */
export function dealImpressionUrls(campaignId: number, baseUrl: string, dealId: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [dsp, t] of Object.entries(DSP_TEMPLATES)) {
    const query = Object.entries({ ...t, deal: dealId }).map(([k, v]) => `${k}=${k === 'deal' ? encodeURIComponent(v) : v}`)
    out[dsp] = `${baseUrl}/px/${campaignId}.gif?dsp=${dsp}&${query.join('&')}`
  }
  return out
}
