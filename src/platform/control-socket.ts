import { chmodSync, rmSync } from 'node:fs'
import type { Server } from 'node:net'
import { createConnection, createServer } from 'node:net'
import { join } from 'node:path'

/**
 * A local-only command channel into a running `curata serve` that holds the embedded data dir, so
 * `curata keys …` works while the server runs (a second process may not open the data dir). It is
 * a Unix socket inside DATA_DIR, created readable and writable by its owner only.
 */
export type Command = { cmd: string; args: Record<string, unknown> }
export type CommandHandler = (c: Command) => Promise<unknown>

export function socketPath(dataDir: string): string {
  return join(dataDir, 'curata.sock')
}

export async function serveControlSocket(dataDir: string, handle: CommandHandler): Promise<Server> {
  const path = socketPath(dataDir)
  rmSync(path, { force: true })
  const server = createServer((conn) => {
    let buf = ''
    conn.setEncoding('utf8')
    conn.on('data', (chunk: string) => {
      buf += chunk
      if (buf.length > 64 * 1024) return void conn.destroy()
      const nl = buf.indexOf('\n')
      if (nl < 0) return
      const line = buf.slice(0, nl)
      void (async () => {
        try {
          const result = await handle(JSON.parse(line) as Command)
          conn.end(JSON.stringify({ ok: true, result }) + '\n')
        } catch (err) {
          conn.end(JSON.stringify({ ok: false, error: (err as Error).message }) + '\n')
        }
      })()
    })
    conn.on('error', () => {})
  })
  // The umask makes the socket 0600 from the moment it exists; chmod is belt and braces.
  const old = process.umask(0o177)
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(path, resolve)
    })
  } finally {
    process.umask(old)
  }
  chmodSync(path, 0o600)
  server.on('close', () => rmSync(path, { force: true }))
  return server
}

export function sendCommand(dataDir: string, command: Command, timeoutMs = 30_000): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const conn = createConnection(socketPath(dataDir))
    let buf = ''
    const timer = setTimeout(() => {
      conn.destroy()
      reject(new Error('the running server did not answer on its control socket'))
    }, timeoutMs)
    conn.setEncoding('utf8')
    conn.on('connect', () => conn.write(JSON.stringify(command) + '\n'))
    conn.on('data', (chunk: string) => (buf += chunk))
    conn.on('error', (err) => {
      clearTimeout(timer)
      reject(err)
    })
    conn.on('end', () => {
      clearTimeout(timer)
      try {
        const reply = JSON.parse(buf) as { ok: boolean; result?: unknown; error?: string }
        if (reply.ok) resolve(reply.result)
        else reject(new Error(reply.error))
      } catch {
        reject(new Error('malformed answer from the control socket'))
      }
    })
  })
}
