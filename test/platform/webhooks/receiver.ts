import type { Server } from 'node:http'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Received {
  path: string
  headers: Record<string, string>
  body: string
  at: number
}

export interface Receiver {
  url: string
  received: Received[]
  /** Statuses to answer, in order; once used up, 200. A 0 never answers (the request hangs). */
  answers: number[]
  close(): Promise<void>
}

/** A loopback HTTP server recording every POST it gets. */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = []
  const answers: number[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const headers: Record<string, string> = {}
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v
      received.push({ path: req.url ?? '/', headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() })
      const status = answers.shift() ?? 200
      if (status === 0) return
      res.statusCode = status
      res.end('ok')
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answers,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections()
        server.close(() => r())
      }),
  }
}
