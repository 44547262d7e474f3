/**
 * The services every feature is given, built once at start-up (the process's scraper, the SSP
 * connector, the click signer) on top of the platform's context. Features declare the part they
 * need (ScrapingContext, ActivationContext, …); this is the one place that builds them all.
 */

import { createConnector } from './activation/connectors/index.ts'
import type { AdcpContext } from './adcp/context.ts'
import { childProcessEncoder } from './content/semantic/encoder.ts'
import { createClickSigner } from './pixel/clicks/signing.ts'
import type { PixelContext } from './pixel/context.ts'
import type { Clock } from './platform/clock.ts'
import type { Config } from './platform/config.ts'
import { createContext } from './platform/context.ts'
import type { Db } from './platform/db/db.ts'
import type { WebhookContext } from './platform/webhooks/service.ts'
import { createWebhookService } from './platform/webhooks/service.ts'
import type { ScraperOptions } from './scraping/scraper.ts'
import { createScraper } from './scraping/scraper.ts'

export type ServiceContext = AdcpContext & PixelContext & WebhookContext

export interface ServiceOptions {
  /** Fetcher settings over the configuration's (tests point the scraper at a loopback web). */
  scraper?: ScraperOptions
}

export async function createServiceContext(db: Db, clock: Clock, config: Config, opts: ServiceOptions = {}): Promise<ServiceContext> {
  const ctx = createContext(db, clock, config)
  const clickSigner = await createClickSigner(db, config.pixel.clickSecret)
  const webhooks = await createWebhookService(db, config.webhooks.secretKey, config.webhooks.timeoutMs)
  // Started on first use: a process that never ranks or enriches pages never starts the encoder.
  const encoder = config.semantic.enabled ? childProcessEncoder({ timeoutMs: config.semantic.timeoutMs }) : null
  return { ...ctx, clickSigner, webhooks, connector: createConnector(db, config.activation), scraper: createScraper(ctx, opts.scraper), encoder }
}

/** Releases what the services hold (the scraper's connections, the encoder's process); the database is the caller's. */
export async function closeServices(ctx: ServiceContext): Promise<void> {
  await ctx.scraper.close()
  await ctx.webhooks.close()
  await ctx.encoder?.close()
}
