import pino from 'pino'
import type { Logger } from 'pino'

import type { Config } from './config.ts'

/**
 * The process logger: JSON lines on stdout, or on stderr where stdout carries a protocol
 * (`curata mcp`). One factory, so every command redacts the same fields.
 */
export function createLogger(config: Pick<Config, 'logLevel'>, opts: { stream?: 'stdout' | 'stderr' } = {}): Logger {
  return pino(
    {
      level: config.logLevel,
      // Keys travel only in headers; the default request serializer logs no headers, and this makes
      // sure a future serializer cannot leak them either.
      redact: {
        paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers["x-adcp-auth"]', 'headers.authorization', 'api_key'],
        censor: '[redacted]',
      },
    },
    pino.destination(opts.stream === 'stderr' ? 2 : 1),
  )
}
