import type { DestinationStream, Logger } from 'pino'
import pino from 'pino'
import pretty from 'pino-pretty'

import type { Config } from './config.ts'

export interface LoggerOptions {
  /** stderr where stdout carries a protocol (`curata mcp`). */
  stream?: 'stdout' | 'stderr'
  /** Human-readable lines; default: when the stream is a terminal (JSON lines otherwise, for log shippers). */
  pretty?: boolean
}

/** The process logger. One factory, so every command redacts the same fields. */
export function createLogger(config: Pick<Config, 'logLevel'>, opts: LoggerOptions = {}): Logger {
  const fd = opts.stream === 'stderr' ? 2 : 1
  const tty = (fd === 2 ? process.stderr : process.stdout).isTTY === true
  const destination: DestinationStream =
    (opts.pretty ?? tty)
      ? pretty({ destination: fd, sync: true, colorize: tty, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' })
      : pino.destination(fd)
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
    destination,
  )
}
