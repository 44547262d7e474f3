import type { Browser } from 'playwright-core'
import { chromium } from 'playwright-core'

/** Chromium from the system package (`apt-get install chromium`; .ci/run installs it). */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/**
 * Headless Chromium for tests and the console benchmark: no sandbox (root in a container), nothing
 * reaching the network on its own. Playwright gives every launch a fresh temporary profile.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}
