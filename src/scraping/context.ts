import type { SentenceEncoder } from '../content/semantic/encoder.ts'
import type { AppContext } from '../platform/context.ts'
import type { Scraper } from './scraper.ts'

/**
 * What scraping code needs: the platform plus this process's scraper (one fetcher, shared caches and
 * limits) and its sentence encoder (null when SEMANTIC_VECTORS is off).
 */
export interface ScrapingContext extends AppContext {
  scraper: Scraper
  encoder: SentenceEncoder | null
}
