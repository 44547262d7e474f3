// The process logger as a command's user sees it: JSON lines when stdout is a pipe, readable lines
// when it is a terminal (shown through `script`, which gives the child a pseudo-terminal), and the
// same redaction either way.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

import { describe, expect, it } from 'vitest'

const logger = fileURLToPath(new URL('../../src/platform/logger.ts', import.meta.url))
const program = (opts: string) =>
  `const { createLogger } = await import(${JSON.stringify(logger)}); ` +
  `createLogger({ logLevel: 'info' }, ${opts}).info({ api_key: 'cur_secret', n: 1 }, 'hello there')`

function run(opts: string): string {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program(opts)], { encoding: 'utf8', timeout: 30_000 })
  expect(r.status, r.stderr).toBe(0)
  return r.stdout
}

describe('createLogger', () => {
  it('writes one JSON object per line when stdout is not a terminal, the key redacted', () => {
    const line = JSON.parse(run('{}').trim()) as Record<string, unknown>
    expect(line).toMatchObject({ level: 30, msg: 'hello there', n: 1, api_key: '[redacted]' })
  })

  it('writes readable lines when asked (or on a terminal), the key still redacted', () => {
    const out = run('{ pretty: true }')
    expect(() => JSON.parse(out.trim())).toThrow()
    expect(out).toMatch(/INFO.*hello there/)
    expect(out).toContain('[redacted]')
    expect(out).not.toContain('cur_secret')
  })

  it.runIf(existsSync('/usr/bin/script'))('detects a terminal by itself', () => {
    const cmd = [process.execPath, '--import', 'tsx', '--input-type=module', '-e', program('{}')].map((a) => `'${a.replaceAll("'", `'\\''`)}'`).join(' ')
    const r = spawnSync('script', ['-qec', cmd, '/dev/null'], { encoding: 'utf8', timeout: 30_000 })
    expect(r.status, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/INFO.*hello there/)
    expect(r.stdout).not.toMatch(/^\{"level"/m)
  })
})
