import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

import { describe, expect, it } from 'vitest'
import { README, withConfigTable } from '../../scripts/docs-config.ts'
import { ConfigError, loadConfig } from '../../src/platform/config.ts'
import { envVariables } from '../../src/platform/config-env.ts'
import { curataBin } from '../helpers/cli.ts'

describe('configuration', () => {
  it('gives every variable its default when the environment is empty', () => {
    const c = loadConfig({})
    expect(c).toMatchObject({ port: 8080, host: '0.0.0.0', dataDir: './data', databaseUrl: null, rateLimitPerMinute: 120 })
    expect(c.curation.catalog.refreshMs).toBe(360 * 60_000)
    expect(c.pixel).toMatchObject({ flushMs: 500, batchMax: 10_000, clickSecret: null })
    expect(c.scrape).toMatchObject({ allowPrivate: false, freshnessMs: 168 * 3_600_000 })
  })

  it('reads typed values and treats an empty variable as unset', () => {
    const c = loadConfig({ PORT: '0', CURATION_MIN_SCORE: '0.3', PUBLIC_URL: '', ADCP_DATA_PROVIDER_DOMAIN: 'Data.Example.COM' })
    expect(c.port).toBe(0)
    expect(c.curation.minScore).toBe(0.3)
    expect(c.publicUrl).toBeNull()
    expect(c.adcp.dataProviderDomain).toBe('data.example.com')
  })

  it.each([
    ['PORT', 'abc', /^PORT must be an integer between 0 and 65535, got "abc"$/],
    ['PORT', '80.5', /^PORT must be an integer between 0 and 65535/],
    ['PORT', '70000', /^PORT must be an integer between 0 and 65535/],
    ['RATE_LIMIT_PER_MINUTE', '-1', /^RATE_LIMIT_PER_MINUTE must be an integer ≥ 1, got "-1"$/],
    ['SSP_CONNECTOR', 'acme', /^SSP_CONNECTOR must be sandbox \(the only value supported\), got "acme"$/],
    ['LOG_LEVEL', 'loud', /^LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent/],
    ['CURATION_MIN_SCORE', '1.5', /^CURATION_MIN_SCORE must be a number between 0 and 1/],
    ['CATALOG_CURRENCY', 'dollars', /^CATALOG_CURRENCY must be a value matching/],
    ['DATABASE_URL', 'mysql://x', /^DATABASE_URL must be a value matching/],
  ])('refuses %s=%s naming the variable and what it allows', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError)
    expect(() => loadConfig({ [name]: value })).toThrow(message)
  })

  it('never echoes a secret it refuses', () => {
    expect(() => loadConfig({ PIXEL_CLICK_SECRET: 'short-secret' })).toThrow(/^PIXEL_CLICK_SECRET must be at least 32 characters, got \[redacted\]$/)
  })

  it('documents every variable in the README, in the generated table', () => {
    const readme = readFileSync(README, 'utf8')
    expect(readme, 'README.md is out of date: run npm run docs:config').toBe(withConfigTable(readme))
    for (const name of Object.keys(envVariables)) expect(readme).toContain(`| \`${name}\` |`)
  })

  it.each([
    ['PORT', 'abc'],
    ['RATE_LIMIT_PER_MINUTE', '-1'],
    ['SSP_CONNECTOR', 'acme'],
  ])('stops `curata serve` with %s=%s: exit 1, one line naming the variable', (name, value) => {
    const r = spawnSync(process.execPath, [curataBin, 'serve'], { env: { ...process.env, [name]: value }, encoding: 'utf8', timeout: 30_000 })
    expect(r.status).toBe(1)
    const lines = r.stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(new RegExp(`^curata: ${name} must be `))
  })
})
