import { Readable } from 'node:stream'

import { Type } from '@sinclair/typebox'
import type { App } from '../../platform/http/app.ts'
import { ApiError, notFound } from '../../platform/http/errors.ts'
import { ExportQuery, errorResponses, IdParams, Paging } from '../../platform/http/schemas.ts'
import type { ScrapingContext } from '../context.ts'
import { requestedMaxAgeMs } from '../index/freshness.ts'
import { CreatedJob, CreateJobBody, JobHeaders, JobQuery, ScrapeJob } from '../schemas.ts'
import { prepareUrls } from './prepare.ts'
import { cancelJob, createJob, getJob, listJobs, progressOf } from './repository.ts'
import { resultLines, resultsJson } from './results.ts'
import { view } from './view.ts'

/** A million URLs of JSON is 60–80 MB; this leaves room for long URLs (docs/errors.md). */
export const jobBodyLimit = 128 * 1024 * 1024

/** POST /v1/scraping/jobs, GET /v1/scraping/jobs/{id}, GET /v1/scraping/jobs (spec 4.7, 2.8). */
export function jobRoutes(app: App, ctx: ScrapingContext): void {
  app.post(
    '/jobs',
    {
      bodyLimit: jobBodyLimit,
      // One unstorable entry among a million is reported as an invalid URL, not a 400 for all of them.
      config: { idempotent: true, rawInput: 'body.urls' },
      schema: {
        tags: ['scraping'],
        summary: 'Submit URLs for scraping (1 to 1,000,000)',
        description:
          'Creates a job in status `pending`. URLs are normalized and de-duplicated (url_count counts distinct entries); ' +
          'entries that are not scrapable URLs are listed in `invalid_urls` and become results with E002. At most 5 jobs per ' +
          'client may be unfinished; a 6th gets 429 with Retry-After. Bodies up to 128 MiB. See docs/scraping.md.',
        headers: JobHeaders,
        body: CreateJobBody,
        response: { 201: CreatedJob, ...errorResponses(400, 409, 413, 415, 422) },
      },
    },
    async (req, reply) => {
      const clientId = req.principal!.clientId
      const prepared = await prepareUrls(req.body.urls)
      const row = await createJob(ctx.db, clientId, prepared, ctx.clock.now(), requestedMaxAgeMs(req.body, ctx.config.scrape))
      reply.code(201)
      return { ...view(row, 0), invalid_urls: prepared.invalidListed }
    },
  )

  app.get(
    '/jobs',
    {
      schema: {
        tags: ['scraping'],
        summary: "List this client's scrape jobs, newest first (without results)",
        querystring: Paging,
        response: { 200: Type.Array(ScrapeJob), ...errorResponses(400, 422) },
      },
    },
    async (req) => {
      const clientId = req.principal!.clientId
      const rows = await listJobs(ctx.db, clientId, req.query.limit ?? 1000, req.query.offset ?? 0)
      const progress = await progressOf(
        ctx.db,
        clientId,
        rows.filter((r) => r.status !== 'complete').map((r) => r.id),
      )
      return rows.map((r) => view(r, progress.get(r.id) ?? 0))
    },
  )

  app.get(
    '/jobs/:id',
    {
      schema: {
        tags: ['scraping'],
        summary: 'Get a scrape job; a page of its results once it is complete',
        description:
          'While the job runs, `results` is null and `progress` counts the entries settled. Once complete, `results` holds ' +
          'entries offset..offset+limit-1 in submission order (first occurrence of each distinct URL). Advance offset by the ' +
          'number of results received; stop when a page has fewer than limit.',
        params: IdParams,
        querystring: JobQuery,
        response: { 200: ScrapeJob, ...errorResponses(400, 404, 422) },
      },
    },
    async (req, reply) => {
      const clientId = req.principal!.clientId
      const row = await getJob(ctx.db, clientId, req.params.id)
      if (!row) throw notFound('scrape job')
      const done = row.status === 'complete' ? row.url_count : ((await progressOf(ctx.db, clientId, [row.id])).get(row.id) ?? 0)
      const job = view(row, done)
      // A cancelled job keeps its results so far: readable like a complete one's.
      if (row.status !== 'complete' && row.status !== 'cancelled') return job
      const limit = req.query.limit ?? 1000
      const offset = req.query.offset ?? 0
      // Streamed: `results` goes last, its elements written as they are read.
      const { results: _omit, ...head } = job
      async function* body(): AsyncGenerator<string> {
        yield `${JSON.stringify(head).slice(0, -1)},"results":[`
        yield* resultsJson(ctx.db, clientId, row!, offset, limit)
        yield ']}'
      }
      reply.type('application/json; charset=utf-8')
      // A stream skips the response serializer; the text it carries has the ScrapeJob shape.
      return reply.send(Readable.from(body(), { objectMode: false }) as unknown as ScrapeJob)
    },
  )

  app.get(
    '/jobs/:id/export',
    {
      schema: {
        tags: ['scraping'],
        summary: "All of a finished job's results as JSON Lines, in one streamed response (an extension of the spec)",
        description:
          'One result per line (the objects of `results` in GET /v1/scraping/jobs/{id}), in submission order, from entry `offset` ' +
          '(default 0) to the last. The server streams it in constant memory whatever the job size. To resume a broken download, ' +
          "ask again with `offset` = the number of complete lines received. `X-Total-Count` is the job's url_count. " +
          'A job still running answers 409; see docs/scraping.md.',
        params: IdParams,
        querystring: ExportQuery,
        response: {
          200: { description: 'JSON Lines, one result per line', content: { 'application/x-ndjson': { schema: Type.String() } } },
          ...errorResponses(400, 404, 409, 422),
        },
      },
    },
    async (req, reply) => {
      const clientId = req.principal!.clientId
      const row = await getJob(ctx.db, clientId, req.params.id)
      if (!row) throw notFound('scrape job')
      if (row.status !== 'complete' && row.status !== 'cancelled') {
        throw new ApiError(409, 'conflict', `scrape job ${row.id} is ${row.status}: its results can be exported once it is complete (or cancelled)`)
      }
      reply.type('application/x-ndjson; charset=utf-8').header('x-total-count', String(row.url_count))
      // A stream skips the response serializer; Readable.from pulls the next window only as the client reads.
      return reply.send(Readable.from(resultLines(ctx.db, clientId, row, req.query.offset ?? 0), { objectMode: false }) as unknown as string)
    },
  )

  app.post(
    '/jobs/:id/cancel',
    {
      schema: {
        tags: ['scraping'],
        summary: 'Cancel an unfinished scrape job, keeping its results so far (an addition to the spec)',
        description:
          'No further part of the job starts; fetches in flight finish and are kept. The job then reads `cancelled`, with ' +
          '`processed_date` the time of the cancellation, and its results page as a complete job’s do: entries fetched before ' +
          'the cancellation carry their result, the others E001. A job that has already finished answers 409.',
        params: IdParams,
        response: { 200: ScrapeJob, ...errorResponses(400, 404, 409, 422) },
      },
    },
    async (req) => {
      const clientId = req.principal!.clientId
      const out = await cancelJob(ctx.db, clientId, req.params.id, ctx.clock.now())
      if (!out) throw notFound('scrape job')
      if (!out.cancelled) throw new ApiError(409, 'conflict', `scrape job ${out.row.id} has already finished (${out.row.status}): there is nothing to cancel`)
      const done = (await progressOf(ctx.db, clientId, [out.row.id])).get(out.row.id) ?? 0
      return view(out.row, done)
    },
  )
}
