import { readFileSync } from 'node:fs'

import { afterAll, beforeAll, expect, it } from 'vitest'
import { articleHtml, indexTopic, topicPage, topicParagraphs } from '../../curation/fixtures.ts'
import type { LineSpec } from '../../pixel/log-lines.ts'
import { combined, UA } from '../../pixel/log-lines.ts'
import type { WebServer } from '../../scraping/fixtures/web-server.ts'
import { html, startRoutes } from '../../scraping/fixtures/web-server.ts'
import type { BrowserSession, ConsoleServer } from './harness.ts'
import { checkScreen, describeBrowser, openBrowser, poll, signIn, startConsole } from './harness.ts'

// Globals of the page, as the functions given to page.evaluate see them (this typecheck has no DOM lib).
declare const window: { __xss?: number }
declare const navigator: { clipboard: { readText(): Promise<string> } }

const xssTitle = '<script>window.__xss=1</script> Evil title'

/** Access-log lines over the last three days (an hour before now, so none is in the future). */
function recentLogs(): string {
  const lines: LineSpec[] = []
  let second = 0
  const add = (daysAgo: number, n: number, path: string, ua: string) => {
    for (let i = 0; i < n; i++) {
      lines.push({ time: new Date(Date.now() - daysAgo * 86_400_000 - 3_600_000 + 1000 * second++).toISOString(), path, ua })
    }
  }
  add(2, 6, '/home', UA.chrome)
  add(2, 3, '/article', UA.gptbot)
  add(1, 4, '/article', UA.chrome)
  add(1, 2, '/home', UA.googlebot)
  add(1, 2, '/about', UA.bytespider)
  add(0, 3, '/home', UA.chrome)
  add(0, 2, '/article', UA.chatgptUser)
  return lines.map(combined).join('\n')
}

// The publisher's and the analyst's screens: pixel campaign and tag, publisher report with its
// chart over generated hits, a scrape job followed to 100%, and a performance report.
describeBrowser('console: pixel, publisher reports, scraping, performance', () => {
  let s: ConsoleServer
  let b: BrowserSession
  let web: WebServer
  let user: { key: string; headers: Record<string, string> }
  beforeAll(async () => {
    s = await startConsole()
    user = await s.client('Example Publisher')
    web = await startRoutes({
      '/cooking': html(topicPage('cooking', 7)),
      '/evil': html(articleHtml({ title: xssTitle.replaceAll('<', '&lt;').replaceAll('>', '&gt;'), paragraphs: topicParagraphs('autos', 3) })),
      '/gone': (_req, res) => void res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>'),
    })
    await indexTopic(
      s.db.db,
      'cooking',
      Array.from({ length: 6 }, (_, i) => `https://www.recipes${i}.net/dish/${i}`),
      700,
    )
    b = await openBrowser(s.url)
    await signIn(b.page, user.key)
  })
  afterAll(async () => {
    await b?.close()
    await s?.close()
    await web?.close()
  })

  it('creates a pixel campaign and copies its tag code', async () => {
    const { page } = b
    await page.getByRole('link', { name: 'Pixel', exact: true }).click()
    await page.getByLabel('Name').fill('Main site')
    await page.getByLabel('Use case').selectOption('publisher_bot_detection')
    await page.getByRole('button', { name: 'Create campaign' }).click()
    await page.waitForURL(/\/console\/pixel\/\d+$/)
    await page.getByRole('heading', { name: 'Image tag' }).waitFor()
    await page.getByRole('button', { name: 'Copy image tag' }).click()
    await page.getByRole('button', { name: 'Copied' }).waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/^<img /)
    // Hits sent to the campaign's pixel show up in the live count.
    const campaign = Number(/\/pixel\/(\d+)$/.exec(page.url())![1])
    await poll(() => page.getByTestId('live-hits').textContent()).toMatch(/^0 in the last 5 minutes/)
    for (const ua of [UA.chrome, UA.chrome, UA.gptbot]) await fetch(`${s.url}/px/${campaign}.gif`, { headers: { 'user-agent': ua } })
    await poll(() => page.getByTestId('live-hits').textContent()).toMatch(/^3 in the last 5 minutes \(/)
    await checkScreen(page, 'pixel-campaign')
  })

  it('runs a publisher report over the hits and shows the stacked chart and the agent table', async () => {
    const { page } = b
    const campaign = Number(/\/pixel\/(\d+)$/.exec(page.url())![1])
    const ingest = await s.app.inject({
      method: 'POST',
      url: `/v1/pixel/campaigns/${campaign}/logs`,
      headers: { ...user.headers, 'content-type': 'text/plain' },
      payload: recentLogs(),
    })
    expect(JSON.parse(ingest.body)).toMatchObject({ accepted: 22, invalid: 0 })
    await page.getByRole('link', { name: 'Publisher reports' }).click()
    await page.getByLabel('Pixel campaign').selectOption(String(campaign))
    await page.getByRole('button', { name: 'Run report' }).click()
    await page.waitForURL(/\/console\/publisher\/\d+$/)
    // The 22 log lines and the 3 hits the pixel received in the first test.
    await poll(() => page.getByTestId('total-loads').textContent()).toBe('25')
    // uPlot draws on a canvas; the same series are in a table for screen readers.
    await page.locator('.uplot canvas').first().waitFor()
    const chartTable = page.getByRole('table', { name: 'Loads per day by agent type' })
    expect(await chartTable.locator('tbody tr').count()).toBe(7)
    await page.getByRole('cell', { name: 'GPTBot', exact: true }).waitFor()
    await checkScreen(page, 'publisher-report')
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()])
    const csv = readFileSync((await download.path())!, 'utf8')
    expect(csv.split('\r\n')[0]).toBe('agent,type,loads,pct_of_non_human')
    expect(csv).toContain('GPTBot,llm_training,4,')
  })

  it('runs a scrape job, the progress bar reaches 100%, and a hostile page title renders as text', async () => {
    const { page } = b
    await page.getByRole('link', { name: 'Scraping' }).click()
    // An uploaded CSV: the first column of each row, the header row skipped.
    await page.getByLabel('Or upload a file').setInputFiles({
      name: 'urls.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('url,note\n"https://a.example/x",1\nhttps://b.example/y,2\n'),
    })
    await poll(() => page.getByLabel('URLs').inputValue()).toContain('https://a.example/x')
    await page.getByText('2 URLs ready').waitFor()
    await page.getByLabel('URLs').fill([web.url('/cooking'), web.url('/evil'), web.url('/gone'), 'not a url'].join('\n'))
    await page.getByRole('button', { name: 'Start scraping' }).click()
    await page.waitForURL(/\/console\/scraping\/\d+$/)
    const bar = page.getByRole('progressbar', { name: 'Scrape progress' })
    await poll(() => bar.getAttribute('aria-valuenow'), { timeout: 30_000 }).toBe('100')
    await poll(() => page.getByTestId('scrape-pct').textContent()).toBe('100%')
    await page.getByRole('cell', { name: xssTitle, exact: true }).waitFor()
    expect(await page.evaluate(() => window.__xss)).toBeUndefined()
    // The 404 and the entry that is not a URL are both E002 (not accessible / invalid).
    await poll(() => page.getByTestId('error-codes').locator('li').allTextContents()).toEqual(['E002: 2', 'ok: 2'])
    await checkScreen(page, 'scrape-job')
    // The scraped page is now in the index: look it up.
    await page.getByRole('link', { name: 'Scraping' }).click()
    await page.getByLabel('URL', { exact: true }).fill(web.url('/evil'))
    await page.getByRole('button', { name: 'Look up' }).click()
    await page.getByText(xssTitle, { exact: true }).waitFor()
    expect(await page.evaluate(() => window.__xss)).toBeUndefined()
    expect(await b.violations()).toEqual([])
  })

  it('runs a performance report for a segment and shows its charts', async () => {
    const { page } = b
    const made = await s.app.inject({ method: 'POST', url: '/v1/curation/segment-requests', headers: user.headers, payload: { prompt: 'dinner recipes' } })
    const id = (JSON.parse(made.body) as { id: number }).id
    await poll(async () => JSON.parse((await s.app.inject({ method: 'GET', url: `/v1/curation/segment-requests/${id}`, headers: user.headers })).body).status, {
      timeout: 30_000,
    }).toBe('complete')
    await page.getByRole('link', { name: 'Performance' }).click()
    await page.getByRole('checkbox', { name: /dinner recipes/ }).check()
    await page.getByRole('button', { name: '7 days' }).click()
    await page.getByRole('button', { name: 'Run report' }).click()
    await page.getByText(/Report #\d+/).waitFor()
    await page.locator('.badge', { hasText: 'complete' }).waitFor()
    await page.getByRole('table', { name: 'Impressions and clicks per day' }).waitFor({ state: 'attached' })
    await checkScreen(page, 'performance')
  })

  it("shows the rate limit page when the key's requests per minute run out", async () => {
    const tight = await startConsole({ rateLimitPerMinute: 4 })
    const second = await openBrowser(tight.url, undefined, b.browser)
    try {
      const k = await tight.client('Busy Client')
      await signIn(second.page, k.key)
      // The overview spends the 4 requests; the next screen's request is refused by the real limiter
      // (if a new minute began in between, a few more visits spend that one too).
      await second.page.getByText(/with a Deal ID/).waitFor()
      const alert = second.page.getByRole('alert').filter({ hasText: 'Too many requests' })
      for (let i = 0; i < 6 && !(await alert.isVisible()); i++) {
        await second.page.goto('/console/usage')
        await second.page
          .getByText(/Too many requests|requests used in the current minute/)
          .first()
          .waitFor()
      }
      expect(await alert.textContent()).toMatch(/retry in \d+ s/)
      await checkScreen(second.page, 'rate-limited')
    } finally {
      await second.context.close()
      await tight.close()
    }
  })
})
