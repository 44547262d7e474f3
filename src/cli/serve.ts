import type { Config, Role } from '../platform/config.ts'
import { createLogger, startService } from '../service.ts'

/** `curata serve`: runs until SIGTERM/SIGINT, then drains and exits 0. */
export async function runServe(config: Config, roles: Role[]): Promise<void> {
  const logger = createLogger(config)
  const service = await startService({ config, roles, logger })
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded database in ${config.dataDir}`
  logger.info({ url: service.url, roles }, 'curata started')
  console.error(
    [
      `curata: roles ${roles.join(', ')} on ${where}`,
      !service.url
        ? ''
        : roles.includes('api')
          ? `curata: listening on ${service.url}  (console: ${service.url}/console, API docs: ${service.url}/docs)`
          : roles.includes('collector')
            ? `curata: listening on ${service.url}  (API docs: ${service.url}/docs)`
            : `curata: listening on ${service.url}  (operations only: /healthz, /readyz, /metrics)`,
      `curata: create an API key with:  npx curata keys create --name "Your company"`,
    ]
      .filter(Boolean)
      .join('\n'),
  )
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info({ signal }, 'stopping: draining requests and jobs')
    try {
      await service.stop()
      process.exit(0)
    } catch (err) {
      logger.error({ err }, 'unclean stop')
      process.exit(1)
    }
  }
  process.on('SIGTERM', () => void stop('SIGTERM'))
  process.on('SIGINT', () => void stop('SIGINT'))
}
