import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../../src/platform/config.ts'
import { DEFAULT_USER_AGENT, defaultFetcherConfig, fetcherConfig } from '../../../src/scraping/fetch/config.ts'

describe('scraping configuration', () => {
  it('keeps the private-network guard on by default', () => {
    expect(loadConfig({}).scrape.allowPrivate).toBe(false)
    expect(loadConfig({ SCRAPE_ALLOW_PRIVATE: '' }).scrape.allowPrivate).toBe(false)
    expect(loadConfig({ SCRAPE_ALLOW_PRIVATE: 'false' }).scrape.allowPrivate).toBe(false)
    expect(defaultFetcherConfig.allowPrivate).toBe(false)
    expect(fetcherConfig().allowPrivate).toBe(false)
  })

  it('turns the guard off only for the exact string "true"', () => {
    expect(loadConfig({ SCRAPE_ALLOW_PRIVATE: 'true' }).scrape.allowPrivate).toBe(true)
    for (const raw of ['TRUE', 'True', '1', 'yes', 'on', ' true', 'true ', 'truthy']) {
      expect(() => loadConfig({ SCRAPE_ALLOW_PRIVATE: raw }), raw).toThrow(ConfigError)
      expect(() => loadConfig({ SCRAPE_ALLOW_PRIVATE: raw }), raw).toThrow(/SCRAPE_ALLOW_PRIVATE must be one of true, false/)
    }
  })

  it('sends a default user agent that names the service and a contact URL', () => {
    for (const ua of [loadConfig({}).scrape.userAgent, DEFAULT_USER_AGENT]) {
      expect(ua).toMatch(/^CurataBot\/\d+\.\d+ /)
      const contact = /\(\+(https:\/\/[^)\s]+)\)$/.exec(ua)?.[1]
      expect(contact, ua).toBeDefined()
      expect(new URL(contact!).protocol).toBe('https:')
    }
    expect(loadConfig({ SCRAPE_USER_AGENT: 'OtherBot/1.0 (+https://other.example/bot)' }).scrape.userAgent).toBe('OtherBot/1.0 (+https://other.example/bot)')
  })
})
