import type { AppContext } from '../platform/context.ts'
import type { Scraper } from './scraper.ts'

/** What scraping code needs: the platform plus this process's scraper (one fetcher, shared caches and limits). */
export interface ScrapingContext extends AppContext {
  scraper: Scraper
}
