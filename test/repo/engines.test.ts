// `npm install` must not warn that a locked package needs a newer Node than the one we state.
import { readFileSync } from 'node:fs'

import semver from 'semver'
import { describe, expect, it } from 'vitest'

const root = new URL('../../', import.meta.url)
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { engines: { node: string } }
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[]; optional?: boolean }>
}

describe('the Node version the package states', () => {
  it('satisfies every locked package that names the Node versions it supports', () => {
    const oldest = semver.minVersion(pkg.engines.node)!.version
    const refusing = Object.entries(lock.packages)
      .filter(([path, p]) => path && !p.optional && !Array.isArray(p.engines) && p.engines?.node && !semver.satisfies(oldest, p.engines.node))
      .map(([path, p]) => `${path}@${p.version} wants node ${(p.engines as { node: string }).node}`)
    expect(refusing).toEqual([])
  })
})
