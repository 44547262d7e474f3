/**
 * `curata mcp`: the signals agent on stdio, for agents that start a local MCP server process. The
 * API key comes from CURATA_API_KEY or --api-key, as over HTTP; stdout carries only MCP messages,
 * logs go to stderr.
 *
 *  - Against PostgreSQL (DATABASE_URL), or an embedded data dir no server holds, it opens the
 *    database itself. On the embedded engine it also runs the jobs (it is then the only process
 *    that can), so activations get their Deal IDs; on PostgreSQL the deployment's workers do.
 *  - When a running `curata serve` holds the embedded data dir (the usual local set-up), or with
 *    --url, it relays: every message goes to that server's /mcp over HTTP with the key.
 */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { isJSONRPCRequest } from '@modelcontextprotocol/sdk/types.js'
import pino from 'pino'
import type { Logger } from 'pino'

import { startWorker } from '../features.ts'
import { systemClock } from '../platform/clock.ts'
import type { Config } from '../platform/config.ts'
import { ConfigError } from '../platform/config.ts'
import { createContext } from '../platform/context.ts'
import { lockOwner } from '../platform/db/data-dir-lock.ts'
import { migrate } from '../platform/db/migrate.ts'
import { openDatabase } from '../platform/db/open.ts'
import type { Worker } from '../platform/jobs/worker.ts'
import { createKeyVerifier } from '../platform/keys/key-cache.ts'
import { DomainError } from './results.ts'
import { buildServer } from './server.ts'

export interface McpCommandOptions {
  apiKey?: string | undefined
  url?: string | undefined
}

function stderrLogger(config: Config): Logger {
  return pino(
    { level: config.logLevel, redact: { paths: ['api_key', 'headers.authorization'], censor: '[redacted]' } },
    pino.destination(2),
  )
}

export async function runMcpStdio(config: Config, opts: McpCommandOptions, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const key = (opts.apiKey ?? env.CURATA_API_KEY ?? '').trim()
  if (!key) throw new ConfigError('an API key is required: set CURATA_API_KEY or pass --api-key (create one with: curata keys create --name "…")')
  const logger = stderrLogger(config)
  if (opts.url) return relay(opts.url, key, logger)
  if (!config.databaseUrl) {
    const owner = lockOwner(config.dataDir)
    if (owner !== null) {
      const url = `http://127.0.0.1:${config.port}/mcp`
      console.error(`curata mcp: a server (pid ${owner}) holds ${config.dataDir}; relaying to ${url} (use --url if it listens elsewhere)`)
      return relay(url, key, logger)
    }
  }
  return serveDirect(config, key, logger)
}

async function serveDirect(config: Config, key: string, logger: Logger): Promise<void> {
  const opened = await openDatabase(config)
  let worker: Worker | null = null
  const keys = createKeyVerifier(opened.db)
  let closing = false
  const shutdown = async (code: number) => {
    if (closing) return
    closing = true
    await worker?.stop().catch(() => {})
    await keys.stop().catch(() => {})
    await opened.close().catch(() => {})
    process.exit(code)
  }
  try {
    await migrate(opened.db)
    const ctx = createContext(opened.db, systemClock, config)
    await keys.start()
    const first = await keys.verify(key)
    if (!first) throw new ConfigError('the API key is invalid or revoked')
    if (!config.databaseUrl) {
      worker = await startWorker(ctx, logger.child({ role: 'worker' }))
    }
    const server = buildServer({
      ctx,
      // Checked on every call, so revoking the key ends the session's access.
      async principal() {
        const p = await keys.verify(key)
        if (!p) throw new DomainError('AUTH_REQUIRED', 'the API key is invalid or revoked', 'terminal')
        return p
      },
      baseUrl: (config.publicUrl ?? `http://localhost:${config.port}`).replace(/\/+$/, ''),
      requestHost: null,
      log: logger,
    })
    const transport = new StdioServerTransport()
    transport.onclose = () => void shutdown(0)
    process.stdin.on('end', () => void shutdown(0))
    process.on('SIGTERM', () => void shutdown(0))
    process.on('SIGINT', () => void shutdown(0))
    await server.connect(transport)
    logger.info({ clientId: first.clientId, engine: opened.db.engine }, 'curata mcp: serving on stdio')
  } catch (err) {
    await worker?.stop().catch(() => {})
    await keys.stop().catch(() => {})
    await opened.close().catch(() => {})
    throw err
  }
}

/** Pipes stdio to a running server's Streamable HTTP endpoint, with the key on every request. */
async function relay(url: string, key: string, logger: Logger): Promise<void> {
  let target: URL
  try {
    target = new URL(url)
  } catch {
    throw new ConfigError(`--url must be an http(s) URL of an MCP endpoint, got "${url}"`)
  }
  const up = new StreamableHTTPClientTransport(target, { requestInit: { headers: { authorization: `Bearer ${key}` } } })
  const down = new StdioServerTransport()
  down.onmessage = (message) => {
    up.send(message).catch((err: unknown) => {
      const reason = (err as Error).message
      logger.warn({ err: reason }, 'curata mcp: relay request failed')
      if (isJSONRPCRequest(message)) {
        void down.send({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: `curata mcp could not reach ${url}: ${reason}` } })
      }
    })
  }
  up.onmessage = (message) => void down.send(message)
  up.onerror = (err) => logger.warn({ err: err.message }, 'curata mcp: relay error')
  const stop = () => {
    void up.close().finally(() => process.exit(0))
  }
  down.onclose = stop
  process.stdin.on('end', stop)
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
  await up.start()
  await down.start()
  logger.info({ url }, 'curata mcp: relaying stdio')
}
