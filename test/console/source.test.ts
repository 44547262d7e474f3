import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

import { expect, it } from 'vitest'

const dir = new URL('../../console/src/', import.meta.url).pathname

function files(d: string): string[] {
  return readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(d, e.name)) : [join(d, e.name)]))
}

// Everything from the web (titles, URLs, user agents, ads.txt values) must reach the page as text:
// Preact escapes what it renders, so the only ways to inject markup are these sinks, none allowed.
it('the console source has no HTML sink and keeps no secret in browser storage', () => {
  const sources = files(dir).filter((f) => /\.(ts|tsx)$/.test(f))
  expect(sources.length).toBeGreaterThan(10)
  for (const f of sources) {
    const code = readFileSync(f, 'utf8')
    for (const sink of ['dangerouslySetInnerHTML', 'innerHTML', 'outerHTML', 'insertAdjacentHTML', 'document.write', 'eval(', 'new Function']) {
      expect(code.includes(sink), `${f} uses ${sink}`).toBe(false)
    }
    for (const store of ['localStorage', 'sessionStorage', 'indexedDB', 'document.cookie']) {
      expect(code.includes(store), `${f} uses ${store}`).toBe(false)
    }
  }
})
