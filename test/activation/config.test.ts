import { describe, expect, it } from 'vitest'

import { ConfigError, loadConfig } from '../../src/platform/config.ts'

describe('activation settings', () => {
  it('defaults to the sandbox connector with short local latencies (5 s known, 30 s new connection)', () => {
    expect(loadConfig({}).activation).toEqual({ connector: 'sandbox', sandboxKnownConnectionSeconds: 5, sandboxNewConnectionSeconds: 30 })
  })

  it('takes production-like latencies from SANDBOX_KNOWN_CONNECTION_SECONDS and SANDBOX_NEW_CONNECTION_SECONDS', () => {
    const c = loadConfig({ SANDBOX_KNOWN_CONNECTION_SECONDS: '10800', SANDBOX_NEW_CONNECTION_SECONDS: '172800', SSP_CONNECTOR: 'sandbox' })
    expect(c.activation).toEqual({ connector: 'sandbox', sandboxKnownConnectionSeconds: 10800, sandboxNewConnectionSeconds: 172800 })
    expect(loadConfig({ SANDBOX_KNOWN_CONNECTION_SECONDS: '0', SANDBOX_NEW_CONNECTION_SECONDS: '' }).activation).toMatchObject({
      sandboxKnownConnectionSeconds: 0,
      sandboxNewConnectionSeconds: 30,
    })
  })

  it.each([
    ['SANDBOX_KNOWN_CONNECTION_SECONDS', '-1'],
    ['SANDBOX_KNOWN_CONNECTION_SECONDS', '2h'],
    ['SANDBOX_NEW_CONNECTION_SECONDS', '1.5'],
    ['SANDBOX_NEW_CONNECTION_SECONDS', 'two days'],
  ])('refuses %s=%s, naming the setting', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError)
    expect(() => loadConfig({ [name]: value })).toThrow(name)
  })

  it('refuses an SSP connector that is not built in', () => {
    expect(() => loadConfig({ SSP_CONNECTOR: 'magnite' })).toThrow(/SSP_CONNECTOR must be sandbox/)
  })
})
