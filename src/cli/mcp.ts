/**
 * `curata mcp`: the signals agent on stdio, for agents that start a local MCP server process. The
 * API key comes from --api-key or CURATA_API_KEY, as over HTTP.
 *
 *  - Against PostgreSQL (DATABASE_URL), or an embedded data dir no server holds, it starts the
 *    service itself through the same start-up as `curata serve` (without HTTP). On the embedded
 *    engine it also runs the jobs (it is then the only process that can), so activations get their
 *    Deal IDs; on PostgreSQL the deployment's workers do.
 *  - When a running `curata serve` holds the embedded data dir (the usual local set-up), or with
 *    --url, it relays: every message goes to that server's /mcp over HTTP with the key.
 */
import { DomainError } from '../adcp/results.ts'
import { buildServer } from '../adcp/server.ts'
import { relayStdio, serveStdio } from '../adcp/stdio.ts'
import type { Config } from '../platform/config.ts'
import { ConfigError } from '../platform/config.ts'
import { lockOwner } from '../platform/db/data-dir-lock.ts'
import { requireEmbeddedDatabase } from '../platform/db/open.ts'
import { createKeyVerifier } from '../platform/keys/key-cache.ts'
import { createLogger } from '../platform/logger.ts'
import { startService } from '../service.ts'

export interface McpCommandOptions {
  apiKey?: string | undefined
  url?: string | undefined
}

export async function runMcpStdio(config: Config, opts: McpCommandOptions): Promise<void> {
  const key = (opts.apiKey ?? config.apiKey ?? '').trim()
  if (!key) throw new ConfigError('an API key is required: set CURATA_API_KEY or pass --api-key (create one with: curata keys create --name "…")')
  const logger = createLogger(config, { stream: 'stderr' })
  if (opts.url) return relayStdio(opts.url, key, logger)
  if (!config.databaseUrl) {
    const owner = lockOwner(config.dataDir)
    if (owner !== null) {
      const url = `http://127.0.0.1:${config.port}/mcp`
      console.error(`curata mcp: a server (pid ${owner}) holds ${config.dataDir}; relaying to ${url} (use --url if it listens elsewhere)`)
      return relayStdio(url, key, logger)
    }
  }

  requireEmbeddedDatabase(config)
  const service = await startService({ config, roles: config.databaseUrl ? [] : ['worker'], logger, http: false })
  const keys = createKeyVerifier(service.ctx.db)
  let closing = false
  const shutdown = async (code: number) => {
    if (closing) return
    closing = true
    await keys.stop().catch(() => {})
    await service.stop().catch(() => {})
    process.exit(code)
  }
  try {
    await keys.start()
    const first = await keys.verify(key)
    if (!first) throw new ConfigError('the API key is invalid or revoked')
    const server = buildServer({
      ctx: service.ctx,
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
    await serveStdio(server, () => void shutdown(0))
    logger.info({ clientId: first.clientId, engine: service.ctx.db.engine }, 'curata mcp: serving on stdio')
  } catch (err) {
    await keys.stop().catch(() => {})
    await service.stop().catch(() => {})
    throw err
  }
}
