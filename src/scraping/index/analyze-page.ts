import type { Embedding, PageInput, ScoredCategory } from '../../content/classify/index.ts'
import { classifierLanguages, classifyAndEmbed, embedPage, primaryLeaf } from '../../content/classify/index.ts'
import type { PageMetadata, PageSignals } from '../extract/extract-page.ts'
import { emptyMetadata, extractPage } from '../extract/extract-page.ts'
import type { FetchOutcome } from '../fetch/fetcher.ts'
import { simhash } from './simhash.ts'

/** Below this many words a page is E004 (too little content to classify or rank reliably). */
export const minWords = 50

/**
 * Languages we process fully. Others are still extracted and stored, with E006: the classifier's
 * vocabulary is English and its evidence for languages outside this list is unreliable.
 */

export type ErrorCode = 'E001' | 'E002' | 'E003' | 'E004' | 'E005' | 'E006' | 'E007' | 'E008'

/** Everything the index stores about one fetched URL. */
export interface AnalyzedPage {
  errors: ErrorCode[]
  fetched_at: string
  final_url: string
  http_status: number | null
  content_type: string | null
  title: string | null
  full_text: string | null
  language: string | null
  word_count: number | null
  metadata: (PageMetadata & { http_status: number | null; content_type: string | null }) | null
  published_date: string | null
  last_updated_date: string | null
  categories: ScoredCategory[]
  primary_category: number | null
  embedding: Embedding | null
  signals: PageSignals | null
  simhash: string | null
  links: string[]
}

/**
 * Turns a fetch into an index record and decides its error codes (docs/scraping.md):
 * E002 not accessible, E003 not parseable, E004 under minWords, E005 no language, E006 unsupported
 * language, E007 no category above the threshold, E008 body cut at the size cap.
 */
export function analyzePage(f: FetchOutcome): AnalyzedPage {
  const base: AnalyzedPage = {
    errors: [],
    fetched_at: f.fetchedAt,
    final_url: f.finalUrl,
    http_status: f.status,
    content_type: f.contentType,
    title: null,
    full_text: null,
    language: null,
    word_count: null,
    metadata: f.status === null ? null : { ...emptyMetadata(), http_status: f.status, content_type: f.contentType },
    published_date: null,
    last_updated_date: null,
    categories: [],
    primary_category: null,
    embedding: null,
    signals: null,
    simhash: null,
    links: [],
  }
  if (f.error) return { ...base, errors: [f.error.code] }
  if (f.html === null) return { ...base, errors: ['E003'] }

  // Dates are judged against when the page was fetched, not when it is analyzed.
  const page = extractPage(f.html, f.finalUrl, { fetchedAt: new Date(f.fetchedAt) })
  const errors: ErrorCode[] = []
  const metadata = { ...page.metadata, http_status: f.status, content_type: f.contentType }
  const common = {
    ...base,
    metadata,
    published_date: page.published_date,
    last_updated_date: page.last_updated_date,
    signals: page.signals,
    links: page.links.slice(0, 500),
  }
  if (!page.content) return { ...common, errors: f.truncated ? ['E003', 'E008'] : ['E003'] }

  const { title, full_text, language, word_count } = page.content
  if (word_count < minWords) errors.push('E004')
  if (!language) errors.push('E005')
  else if (!classifierLanguages.has(language)) errors.push('E006')
  const input = {
    title,
    text: full_text,
    url: f.finalUrl,
    ...(metadata.meta_description ? { metaDescription: metadata.meta_description } : {}),
    ...(language ? { language } : {}),
  }
  const topics = classifyForIndex(input)
  // A language the classifier does not read is E006, not a classification failure: no categories.
  if (!topics.classified && !errors.includes('E006')) errors.push('E007')
  if (f.truncated) errors.push('E008')
  return {
    ...common,
    errors,
    title,
    full_text,
    language,
    word_count,
    categories: topics.categories,
    primary_category: topics.primary_category,
    embedding: topics.embedding,
    simhash: simhash(full_text),
  }
}

/**
 * What the index keeps of a page's topics: every category with its score, the leaf, the embedding.
 * A page in a language the classifier does not read (E006) gets no categories, only the embedding.
 */
export function classifyForIndex(input: PageInput): Pick<AnalyzedPage, 'categories' | 'primary_category' | 'embedding'> & { classified: boolean } {
  if (input.language && !classifierLanguages.has(input.language))
    return { classified: false, categories: [], primary_category: null, embedding: embedPage(input) }
  const { classification, embedding } = classifyAndEmbed(input)
  return { classified: classification.classified, categories: classification.categories, primary_category: primaryLeaf(classification), embedding }
}
