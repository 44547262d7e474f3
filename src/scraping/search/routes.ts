import type { App } from '../../platform/http/app.ts'
import { errorResponses } from '../../platform/http/schemas.ts'
import type { ScrapingContext } from '../context.ts'
import { requestedMaxAgeMs } from '../index/freshness.ts'
import { ScrapeResult, SearchBody, SearchQuery, SearchQueued } from '../schemas.ts'
import { search, searchInput } from './search.ts'

const responses = { 200: ScrapeResult, 202: SearchQueued }

/** POST and GET /v1/scraping/search (spec 4.7). */
export function searchRoutes(app: App, ctx: ScrapingContext): void {
  app.post(
    '/search',
    {
      schema: {
        tags: ['scraping'],
        summary: 'Look a URL up in the content index, submitting it when it is unknown',
        description:
          '200 with the scrape result when the URL has been fetched; 202 `{url, tld, status: "queued", errors: ["E001"]}` ' +
          'when it is submitted (now, or earlier) and not fetched yet. `u` is accepted as an alias of `url`. See docs/scraping.md.',
        body: SearchBody,
        response: { ...responses, ...errorResponses(400, 404, 415, 422) },
      },
    },
    async (req, reply) => {
      const { raw, field } = searchInput(req.body, 'body')
      const out = await search(ctx, raw, field, { submit: true, maxAgeMs: requestedMaxAgeMs(req.body, ctx.config.scrape) })
      reply.code(out.status)
      return out.body
    },
  )

  app.get(
    '/search',
    {
      schema: {
        tags: ['scraping'],
        summary: 'Look a URL up in the content index (never submits it)',
        description:
          '200 with the scrape result when the URL has been fetched; 202 while it is queued; 404 when it was never submitted ' +
          '(POST /v1/scraping/search or a scrape job submits it). Query `url`, or its alias `u`.',
        querystring: SearchQuery,
        response: { ...responses, ...errorResponses(400, 404, 422) },
      },
    },
    async (req, reply) => {
      const { raw, field } = searchInput(req.query, 'query')
      const out = await search(ctx, raw, field, { submit: false })
      reply.code(out.status)
      return out.body
    },
  )
}
