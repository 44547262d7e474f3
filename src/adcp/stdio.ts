/**
 * The signals agent on stdio (`curata mcp`, composed in src/cli/mcp.ts): stdout carries only MCP
 * messages, logs go to stderr. Either an MCP server of this process answers on stdio, or stdio is
 * relayed to a running server's /mcp over HTTP with the key.
 */
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { isJSONRPCRequest } from '@modelcontextprotocol/sdk/types.js'
import type { Logger } from 'pino'

import { ConfigError } from '../platform/config.ts'

/** Connects `server` to stdin/stdout; `onEnd` runs once when the peer closes stdin or a signal arrives. */
export async function serveStdio(server: McpServer, onEnd: () => void): Promise<void> {
  const transport = new StdioServerTransport()
  transport.onclose = onEnd
  process.stdin.on('end', onEnd)
  process.on('SIGTERM', onEnd)
  process.on('SIGINT', onEnd)
  await server.connect(transport)
}

/** Pipes stdio to a running server's Streamable HTTP endpoint, with the key on every request. */
export async function relayStdio(url: string, key: string, logger: Logger): Promise<void> {
  let target: URL
  try {
    target = new URL(url)
  } catch {
    throw new ConfigError(`--url must be an http(s) URL of an MCP endpoint, got "${url}"`)
  }
  const up = new StreamableHTTPClientTransport(target, { requestInit: { headers: { authorization: `Bearer ${key}` } } })
  const down = new StdioServerTransport()
  const exit = (code: number) => void up.close().finally(() => process.exit(code))
  down.onmessage = (message) => {
    up.send(message).catch(async (err: unknown) => {
      // A refused key will not become valid: answer the request, then end with exit code 1.
      const refused = err instanceof StreamableHTTPError && err.code === 401
      const reason = refused ? 'the API key is invalid or revoked' : (err as Error).message
      logger.warn({ err: reason }, 'curata mcp: relay request failed')
      if (isJSONRPCRequest(message)) {
        await down
          .send({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: `curata mcp: ${url} refused the request: ${reason}` } })
          .catch(() => {})
      }
      if (refused) {
        console.error(`curata mcp: ${reason} (${url} answered 401)`)
        exit(1)
      }
    })
  }
  up.onmessage = (message) => void down.send(message)
  up.onerror = (err) => logger.warn({ err: err.message }, 'curata mcp: relay error')
  const stop = () => exit(0)
  down.onclose = stop
  process.stdin.on('end', stop)
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
  await up.start()
  await down.start()
  logger.info({ url }, 'curata mcp: relaying stdio')
}
