import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { extname, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Where `npm run build:console` (run by `npm install`'s prepare step) writes the front end. */
export const distDir = fileURLToPath(new URL('../../console/dist/', import.meta.url))

export interface Asset {
  body: Buffer
  type: string
  etag: string
  /** Vite names files under assets/ by content hash: they never change, so browsers keep them a year. */
  immutable: boolean
}

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
}

/** The built files, read once at start-up (a few hundred KB), keyed by their path under /console/. */
export function loadAssets(dir = distDir): Map<string, Asset> | null {
  if (!existsSync(join(dir, 'index.html'))) return null
  const assets = new Map<string, Asset>()
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const file = join(d, name)
      if (statSync(file).isDirectory()) walk(file)
      else {
        const path = relative(dir, file).split(sep).join('/')
        const body = readFileSync(file)
        assets.set(path, {
          body,
          type: types[extname(name)] ?? 'application/octet-stream',
          etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
          immutable: path.startsWith('assets/'),
        })
      }
    }
  }
  walk(dir)
  return assets
}
