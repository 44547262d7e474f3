import type { ScrapingContext } from '../scraping/context.ts'

/** What curation code needs: the scraper, to fetch example URLs and crawl hops from them. */
export type CurationContext = ScrapingContext
