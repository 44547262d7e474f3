import pino from 'pino'
import type { Logger } from 'pino'

import type { Config } from './config.ts'

/** The process logger: JSON lines on stdout. */
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
