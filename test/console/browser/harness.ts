import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

import type { Browser, BrowserContext, Page } from 'playwright-core'
import { describe, expect } from 'vitest'
import type { ServiceContext } from '../../../src/context.ts'
import { apiFeatures, collectorFeatures, jobHandlers } from '../../../src/features.ts'
import { systemClock } from '../../../src/platform/clock.ts'
import type { App } from '../../../src/platform/http/app.ts'
import { buildApp } from '../../../src/platform/http/app.ts'
import type { Worker } from '../../../src/platform/jobs/worker.ts'
import { createWorker } from '../../../src/platform/jobs/worker.ts'
import { createKey } from '../../../src/platform/keys/keys.ts'
import { testContext, useScraper } from '../../helpers/app.ts'
import type { TestDb } from '../../helpers/db.ts'
import { openTestDb } from '../../helpers/db.ts'
import { chromiumPath, launchChromium } from './chromium.ts'

// Globals of the page, as the functions given to page.evaluate see them (this typecheck has no DOM lib).
declare const window: { __csp: string[]; scrollTo(x: number, y: number): void; axe?: { run(ctx: unknown, o: object): Promise<{ violations: AxeViolation[] }> } }
declare const document: { addEventListener(t: 'securitypolicyviolation', fn: (e: { violatedDirective: string; blockedURI: string }) => void): void }

const required = process.env.REQUIRE_BROWSER === '1' || !!process.env.CI
const available = existsSync(chromiumPath)

/**
 * A suite that drives the console in a real browser. Without Chromium it is skipped, visibly, on a
 * developer machine; in CI (CI or REQUIRE_BROWSER=1) a missing browser fails instead.
 */
export function describeBrowser(title: string, body: () => void): void {
  if (!available && required) {
    describe(title, () => {
      throw new Error(`Chromium is required (CI) but ${chromiumPath} does not exist: apt-get install chromium`)
    })
    return
  }
  describe.skipIf(!available)(`${title} [chromium]`, body)
}

export interface ConsoleServer {
  url: string
  app: App
  ctx: ServiceContext
  db: TestDb
  client(name: string): Promise<{ clientId: number; key: string; headers: Record<string, string> }>
  close(): Promise<void>
}

/**
 * The whole service on a loopback port, on the embedded engine with the real clock (the browser's
 * and the server's time agree), and a worker running every job kind but the periodic ones, fast.
 */
export async function startConsole(opts: { rateLimitPerMinute?: number } = {}): Promise<ConsoleServer> {
  const db = await openTestDb('pglite')
  const ctx = await testContext(db.db, {
    clock: systemClock,
    config: {
      rateLimitPerMinute: opts.rateLimitPerMinute ?? 100_000,
      activation: { sandboxKnownConnectionSeconds: 0, sandboxNewConnectionSeconds: 0 },
      scrape: { perHostDelayMs: 0, timeoutMs: 5000 },
      curation: { minWords: 120 },
      pixel: { flushMs: 20, ipRatePerSec: 0 },
    },
  })
  // Loopback only: no DNS (fixture servers are reached by IP), no retries, ads.txt to a closed port.
  await useScraper(ctx, {
    fetcher: {
      retries: 0,
      resolver: async (host) => {
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' })
      },
    },
    adsTxtPorts: { https: 9, http: 9 },
  })
  const app = await buildApp(ctx, { features: [...new Set([...apiFeatures(), ...collectorFeatures()])] })
  const url = await app.listen({ port: 0, host: '127.0.0.1' })
  const worker: Worker = createWorker({
    db: db.db,
    clock: systemClock,
    handlers: jobHandlers(ctx).filter((h) => !h.everyMs),
    pollMs: 20,
    graceMs: 500,
  })
  await worker.start()
  return {
    url,
    app,
    ctx,
    db,
    async client(name) {
      const k = await createKey(db.db, { name, now: new Date() })
      return { clientId: k.client_id, key: k.api_key, headers: { 'x-api-key': k.api_key } }
    },
    async close() {
      await worker.stop()
      await app.close()
      await ctx.scraper.close()
      await db.close()
    },
  }
}

export interface BrowserSession {
  browser: Browser
  context: BrowserContext
  page: Page
  /** CSP violations the page reported (must stay empty). */
  violations(): Promise<string[]>
  close(): Promise<void>
}

export async function openBrowser(baseUrl: string, viewport = { width: 1280, height: 860 }, launched?: Browser): Promise<BrowserSession> {
  const browser = launched ?? (await launchChromium())
  const context = await browser.newContext({ baseURL: baseUrl, viewport, acceptDownloads: true, reducedMotion: 'reduce' })
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl })
  await context.addInitScript(() => {
    window.__csp = []
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`))
  })
  const page = await context.newPage()
  page.setDefaultTimeout(20_000)
  return {
    browser,
    context,
    page,
    violations: () => page.evaluate(() => window.__csp),
    close: () => browser.close(),
  }
}

/** expect.poll with a timeout for a shared, loaded machine (the default second is too short for a job). */
export function poll<T>(fn: () => Promise<T> | T, opts: { timeout?: number } = {}) {
  return expect.poll(fn, { timeout: 20_000, ...opts })
}

export async function signIn(page: Page, key: string): Promise<void> {
  await page.goto('/console/sign-in')
  await page.getByLabel('API key').fill(key)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('navigation', { name: 'Main' }).waitFor()
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
// Every run takes the screenshots; only `CONSOLE_SCREENSHOTS=docs` replaces the ones docs/console.md
// shows (a plain test run must not leave the tree modified).
const shots =
  process.env.CONSOLE_SCREENSHOTS === 'docs' ? fileURLToPath(new URL('../../../docs/console/', import.meta.url)) : `${join(tmpdir(), 'curata-console-shots')}/`

interface AxeViolation {
  id: string
  impact: string | null
  help: string
  nodes: { target: string[] }[]
}

/**
 * The screen passes axe-core with no serious or critical violation (WCAG 2.1 A/AA rules), and its
 * screenshot is taken (into docs/console/<name>.png for docs/console.md with CONSOLE_SCREENSHOTS=docs).
 */
export async function checkScreen(page: Page, name: string): Promise<void> {
  // Evaluated through the DevTools protocol, so the page's CSP (no inline script) does not block it.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource)
  const violations = await page.evaluate(async () => {
    const r = await window.axe!.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => ({ target: n.target })) }))
  })
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(serious, `${name}: ${JSON.stringify(serious, null, 1)}`).toEqual([])
  mkdirSync(shots, { recursive: true })
  await page.evaluate(() => window.scrollTo(0, 0))
  await page.screenshot({ path: `${shots}${name}.png`, fullPage: false })
}
