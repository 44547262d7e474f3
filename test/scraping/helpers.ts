/**
 * Shared pieces of the scraping API and job tests: a loopback "web" of many host names (all resolved
 * to 127.0.0.1 by the fetcher's test resolver, never by real DNS), a scraper configured for it, and
 * an in-process worker that runs the scraping jobs.
 */
import type { ServiceContext } from '../../src/context.ts'
import type { Clock } from '../../src/platform/clock.ts'
import type { Db } from '../../src/platform/db/db.ts'
import { createWorker } from '../../src/platform/jobs/worker.ts'
import { scrapingJobs } from '../../src/scraping/feature.ts'
import type { HttpClientInternals } from '../../src/scraping/fetch/client.ts'
import type { FetcherConfig } from '../../src/scraping/fetch/config.ts'
import type { Resolver } from '../../src/scraping/fetch/ssrf-guard.ts'
import type { TestApp } from '../helpers/app.ts'
import { createTestApp, useScraper } from '../helpers/app.ts'
import { waitFor, whileWorking } from '../helpers/wait.ts'
import type { Handler, WebServer } from './fixtures/web-server.ts'
import { closedPort, startServer } from './fixtures/web-server.ts'

export interface Web extends WebServer {
  /** Handlers by `host/path` (exact), then by `path`, then by `host`. */
  routes: Map<string, Handler>
  /** http://<host>:<port><path> */
  at(host: string, path?: string): string
  /** Requests seen for `host/path`. */
  count(host: string, path: string): number
}

/** A server on 127.0.0.1 that dispatches on the Host header and path; unknown ones get 404. */
export async function startWeb(routes: Record<string, Handler> = {}, address = '127.0.0.1'): Promise<Web> {
  const table = new Map(Object.entries(routes))
  const server = await startServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '')
    const path = (req.url ?? '/').split('?')[0] ?? '/'
    const handler = table.get(`${host}${path}`) ?? table.get(path) ?? table.get(host)
    if (handler) return handler(req, res)
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
  }, address)
  return {
    ...server,
    routes: table,
    at: (host, path = '/') => `http://${host}:${server.port}${path}`,
    count: (host, path) => server.hits.filter((h) => h.host.replace(/:\d+$/, '') === host && h.path === path).length,
  }
}

/** Every name resolves to `address`, except those given their own address in `names`. */
export function resolverFor(address: string, names: Record<string, string> = {}): Resolver {
  return async (host) => {
    const a = names[host] ?? address
    return [{ address: a, family: a.includes(':') ? 6 : 4 }]
  }
}

/** Points the context's scraper at a test web: short timeouts, no politeness delay, ads.txt on its port. */
export async function useTestWeb(
  ctx: ServiceContext,
  web: { port: number; address?: string },
  opts: { fetcher?: Partial<FetcherConfig>; internals?: HttpClientInternals } = {},
): Promise<void> {
  await useScraper(ctx, {
    fetcher: {
      allowPrivate: true,
      connectTimeoutMs: 1_000,
      headersTimeoutMs: 1_000,
      idleTimeoutMs: 1_000,
      totalTimeoutMs: 3_000,
      perHostDelayMs: 0,
      perHostConcurrency: 4,
      retries: 0,
      retryBaseDelayMs: 20,
      resolver: resolverFor(web.address ?? '127.0.0.1'),
      ...opts.fetcher,
    },
    ...(opts.internals ? { internals: opts.internals } : {}),
    adsTxtPorts: { https: await closedPort(), http: web.port },
  })
}

/** Runs the scraping jobs in this process until `done()` holds (or the timeout passes). */
export async function runJobsUntil(ctx: ServiceContext, done: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const worker = createWorker({ db: ctx.db, clock: ctx.clock, handlers: scrapingJobs(ctx), pollMs: 20, concurrency: 4, leaseMs: 30_000 })
  await whileWorking(worker, () => waitFor(done, timeoutMs, 'scraping jobs'))
}

/** An article of `words` words on a topic the classifier knows (cooking), with metadata and a date. */
export function article(title: string, opts: { words?: number; lang?: string; published?: string } = {}): string {
  const sentence =
    'The recipe calls for fresh garlic, olive oil and basil, simmered slowly with tomatoes until the sauce thickens; ' +
    'serve the pasta with grated parmesan cheese and a glass of red wine after baking the bread in a hot oven.'
  const perSentence = sentence.split(' ').length
  const paragraphs = Array.from({ length: Math.max(1, Math.ceil((opts.words ?? 300) / perSentence)) }, () => `<p>${sentence}</p>`)
  return `<!doctype html><html lang="${opts.lang ?? 'en'}"><head><title>${title}</title>
<meta name="description" content="About ${title}"><meta property="og:title" content="${title}">
<meta property="og:type" content="article"><meta name="author" content="Ada Cook">
<meta property="article:published_time" content="${opts.published ?? '2026-03-04T10:00:00Z'}">
<link rel="canonical" href="https://canonical.example/${encodeURIComponent(title)}"></head>
<body><nav><a href="/">Home</a></nav><article><h1>${title}</h1>${paragraphs.join('\n')}</article></body></html>`
}

export interface ScrapingApp {
  t: TestApp
  web: Web
  headers: Record<string, string>
  close(): Promise<void>
}

/** A test app whose scraper reaches `routes` on a loopback web, and a client's headers. */
export async function startScrapingApp(db: Db, routes: Record<string, Handler>, opts: { clock?: Clock } = {}): Promise<ScrapingApp> {
  const web = await startWeb(routes)
  // Tests poll jobs far more often than the per-key rate limit allows.
  const t = await createTestApp(db, { ...opts, config: { rateLimitPerMinute: 1_000_000 } })
  await useTestWeb(t.ctx, web)
  const headers = (await t.client()).headers
  return {
    t,
    web,
    headers,
    async close() {
      await t.ctx.scraper.close()
      await t.close()
      await web.close()
    },
  }
}
