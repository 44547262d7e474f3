import type { Server } from 'node:net'

import pino from 'pino'
import type { Logger } from 'pino'

import { apiFeatures, collectorFeatures, jobHandlers } from './features.ts'
import { systemClock } from './platform/clock.ts'
import type { Clock } from './platform/clock.ts'
import type { Config, Role } from './platform/config.ts'
import type { AppContext } from './platform/context.ts'
import { createContext } from './platform/context.ts'
import { serveControlSocket } from './platform/control-socket.ts'
import { migrate } from './platform/db/migrate.ts'
import { openDatabase } from './platform/db/open.ts'
import type { App } from './platform/http/app.ts'
import { buildApp } from './platform/http/app.ts'
import { createWorker } from './platform/jobs/worker.ts'
import type { Worker } from './platform/jobs/worker.ts'
import { runKeyCommand } from './platform/keys/commands.ts'

export interface Service {
  /** Where HTTP listens, when the process serves api or collector. */
  url: string | null
  ctx: AppContext
  stop(): Promise<void>
}

export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({
    level: config.logLevel,
    // Keys travel only in headers; the default request serializer logs no headers, and this makes
    // sure a future serializer cannot leak them either.
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers["x-adcp-auth"]', 'api_key'],
      censor: '[redacted]',
    },
  })
}

/** Starts the roles of one process on one database: `curata serve`. */
export async function startService(opts: {
  config: Config
  roles: Role[]
  logger: Logger
  clock?: Clock
}): Promise<Service> {
  const { config, roles, logger } = opts
  const opened = await openDatabase(config)
  let app: App | null = null
  let worker: Worker | null = null
  let control: Server | null = null
  try {
    const applied = await migrate(opened.db)
    if (applied.length) logger.info({ migrations: applied }, 'migrations applied')
    const ctx = createContext(opened.db, opts.clock ?? systemClock, config)

    let url: string | null = null
    if (roles.includes('api') || roles.includes('collector')) {
      const features = new Set([
        ...(roles.includes('api') ? apiFeatures() : []),
        ...(roles.includes('collector') ? collectorFeatures() : []),
      ])
      app = await buildApp(ctx, { logger, features: [...features] })
      url = await app.listen({ port: config.port, host: config.host })
    }
    if (roles.includes('worker')) {
      worker = createWorker({
        db: ctx.db,
        clock: ctx.clock,
        handlers: jobHandlers(ctx),
        concurrency: config.jobs.concurrency,
        pollMs: config.jobs.pollMs,
        leaseMs: config.jobs.leaseMs,
        logger: logger.child({ role: 'worker' }),
        onJobDone: ctx.metrics.observeJob,
      })
      await worker.start()
    }
    if (!config.databaseUrl) {
      control = await serveControlSocket(config.dataDir, (c) => runKeyCommand(ctx.db, ctx.clock, c))
    }
    return {
      url,
      ctx,
      async stop() {
        control?.close()
        await app?.close()
        await worker?.stop()
        await opened.close()
      },
    }
  } catch (err) {
    control?.close()
    await app?.close().catch(() => {})
    await worker?.stop().catch(() => {})
    await opened.close().catch(() => {})
    throw err
  }
}
