import type { IncomingMessage, ServerResponse } from 'node:http'

/** The 43-byte transparent 1×1 GIF (the same bytes as nginx's empty_gif). */
export const GIF = Buffer.from('R0lGODlhAQABAIABAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64')

// Flat [name, value, …] lists: node:http writes them without walking an object's keys.
const headers: readonly string[] = [
  'content-type',
  'image/gif',
  'content-length',
  String(GIF.length),
  // Every load must reach us: no browser, proxy or CDN may answer from a cache.
  'cache-control',
  'no-store, no-cache, must-revalidate, max-age=0',
  'pragma',
  'no-cache',
  'expires',
  '0',
  // Pages that require CORP on their subresources (COEP) may still embed the pixel.
  'cross-origin-resource-policy',
  'cross-origin',
]
const closingHeaders: readonly string[] = [...headers, 'connection', 'close']

/** Answers the GIF; `closing` asks the client to drop the connection (the server is stopping). */
export function sendGif(req: IncomingMessage, res: ServerResponse, closing: boolean): void {
  res.writeHead(200, (closing ? closingHeaders : headers) as string[])
  res.end(req.method === 'HEAD' ? undefined : GIF)
}

/** The buffer is full (the database is unreachable): the hit is refused rather than acknowledged and lost. */
export function sendBusy(res: ServerResponse): void {
  res.writeHead(503, { 'retry-after': '1', 'cache-control': 'no-store', 'content-length': 0 })
  res.end()
}
