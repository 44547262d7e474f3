// The baseline the extractor is measured against: @mozilla/readability 0.6 on a linkedom document.
import { Readability } from '@mozilla/readability'
import { parseHTML } from 'linkedom'

export interface BaselineResult {
  text: string
  title: string | null
  publishedTime: string | null
}

export function readabilityOnLinkedom(html: string): BaselineResult {
  try {
    const { document } = parseHTML(html)
    // linkedom's Document is structurally what Readability needs; the DOM lib types are not loaded here.
    const article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0]).parse()
    return { text: article?.textContent ?? '', title: article?.title ?? null, publishedTime: article?.publishedTime ?? null }
  } catch {
    return { text: '', title: null, publishedTime: null }
  }
}
