import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const consoleDir = fileURLToPath(new URL('../../console/', import.meta.url))

function newest(path: string): number {
  const s = statSync(path)
  if (!s.isDirectory()) return s.mtimeMs
  return Math.max(0, ...readdirSync(path).map((n) => newest(join(path, n))))
}

/**
 * `npm install` builds the console (prepare); a test run rebuilds it only when a source file is
 * newer than the build, so tests never exercise a stale bundle after an edit.
 */
export async function ensureConsoleBuilt(): Promise<void> {
  const built = join(consoleDir, 'dist', 'index.html')
  const sources = Math.max(newest(join(consoleDir, 'src')), newest(join(consoleDir, 'index.html')), newest(join(consoleDir, 'vite.config.ts')))
  if (existsSync(built) && statSync(built).mtimeMs >= sources) return
  const { build } = await import('vite')
  await build({ configFile: join(consoleDir, 'vite.config.ts') })
}
