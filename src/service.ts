import type { Server } from 'node:net'

import type { Logger } from 'pino'
import { isSigningKeyCommand, runSigningKeyCommand } from './adcp/signing/commands.ts'
import type { ServiceContext, ServiceOptions } from './context.ts'
import { closeServices, createServiceContext } from './context.ts'
import { apiFeatures, collectorFeatures, startWorker } from './features.ts'
import type { Clock } from './platform/clock.ts'
import { systemClock } from './platform/clock.ts'
import type { Config, Role } from './platform/config.ts'
import { serveControlSocket } from './platform/control-socket.ts'
import { migrate } from './platform/db/migrate.ts'
import { openDatabase } from './platform/db/open.ts'
import type { App } from './platform/http/app.ts'
import { buildApp } from './platform/http/app.ts'
import { opsFeature } from './platform/http/ops.ts'
import { runPeriodicNow } from './platform/jobs/queue.ts'
import type { Worker } from './platform/jobs/worker.ts'
import { runKeyCommand } from './platform/keys/commands.ts'

export { createLogger } from './platform/logger.ts'

export interface Service {
  /**
   * Where HTTP listens: the API and/or collector, or for a worker-only process its operations
   * endpoints (/healthz, /readyz, /metrics) on METRICS_PORT (default PORT); null without HTTP.
   */
  url: string | null
  ctx: ServiceContext
  stop(): Promise<void>
}

export interface ServiceStartOptions {
  config: Config
  roles: Role[]
  logger: Logger
  clock?: Clock
  /** false: no HTTP listener at all (`curata mcp` on stdio); the roles' other parts still start. */
  http?: boolean
  services?: ServiceOptions
}

/**
 * Starts the roles of one process on one database: the one start-up path for `curata serve` and
 * `curata mcp` (stdio). Opens and migrates the database, builds the services, listens, runs the
 * worker, and on the embedded engine answers the CLI on the control socket.
 */
export async function startService(opts: ServiceStartOptions): Promise<Service> {
  const { config, roles, logger } = opts
  const opened = await openDatabase(config)
  let app: App | null = null
  let worker: Worker | null = null
  let control: Server | null = null
  let ctx: ServiceContext | null = null
  try {
    const applied = await migrate(opened.db)
    if (applied.length) logger.info({ migrations: applied }, 'migrations applied')
    ctx = await createServiceContext(opened.db, opts.clock ?? systemClock, config, opts.services)

    let url: string | null = null
    if (opts.http === false) {
      // no listener: the caller serves its own transport (stdio)
    } else if (roles.includes('api') || roles.includes('collector')) {
      const features = new Set([...(roles.includes('api') ? apiFeatures() : []), ...(roles.includes('collector') ? collectorFeatures() : [])])
      app = await buildApp(ctx, { logger, features: [...features] })
      url = await app.listen({ port: config.port, host: config.host })
    } else {
      // A worker-only process serves no API, but in a scale-out it still has to be probed and
      // scraped: its queue depth and job durations exist nowhere else.
      app = await buildApp(ctx, { logger, features: [opsFeature] })
      url = await app.listen({ port: config.metricsPort ?? config.port, host: config.host })
    }
    if (roles.includes('worker')) {
      worker = await startWorker(ctx, logger.child({ role: 'worker' }))
    }
    const started = ctx
    if (!config.databaseUrl) {
      // The CLI's commands while this process holds the embedded data dir: keys, and the operator's
      // "refresh the catalog now".
      control = await serveControlSocket(config.dataDir, (c) =>
        c.cmd === 'catalog.refresh'
          ? runPeriodicNow(started.db, 'curation.catalog', started.clock.now())
          : isSigningKeyCommand(c)
            ? runSigningKeyCommand(started.db, started.clock, c)
            : runKeyCommand(started.db, started.clock, c),
      )
    }
    return {
      url,
      ctx,
      async stop() {
        control?.close()
        await app?.close()
        await worker?.stop()
        await closeServices(started)
        await opened.close()
      },
    }
  } catch (err) {
    control?.close()
    await app?.close().catch(() => {})
    await worker?.stop().catch(() => {})
    if (ctx) await closeServices(ctx).catch(() => {})
    await opened.close().catch(() => {})
    throw err
  }
}
