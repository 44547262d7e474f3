import { readFileSync } from 'node:fs'

import { afterAll, beforeAll, expect, it } from 'vitest'
import { indexTopic } from '../../curation/fixtures.ts'
import { json } from '../../helpers/app.ts'
import type { BrowserSession, ConsoleServer } from './harness.ts'
import { checkScreen, describeBrowser, openBrowser, poll, startConsole } from './harness.ts'

// Globals of the page, as the functions given to page.evaluate see them (this typecheck has no DOM lib).
declare const document: {
  cookie: string
  documentElement: { scrollWidth: number; clientWidth: number }
  activeElement: { textContent: string | null; id: string } | null
}
declare const localStorage: object
declare const sessionStorage: object
declare const navigator: { clipboard: { readText(): Promise<string> } }
declare function getComputedStyle(el: unknown, pseudo: string): { content: string }

// A buyer's day in the console: sign in, build a segment from a prompt over an indexed fixture web,
// browse it (filter, sort, page, charts, exclusions), download it, and activate it to a Deal ID.
describeBrowser('console: segments and activation', () => {
  let s: ConsoleServer
  let b: BrowserSession
  let buyer: { key: string; clientId: number }
  beforeAll(async () => {
    s = await startConsole()
    buyer = await s.client('Acme Media')
    // 24 cooking pages on 6 domains and 8 finance pages: the prompt should find the cooking ones.
    await indexTopic(
      s.db.db,
      'cooking',
      Array.from({ length: 24 }, (_, i) => `https://www.kitchen${i % 6}.org/recipe/${i}`),
      500,
    )
    await indexTopic(
      s.db.db,
      'finance',
      Array.from({ length: 8 }, (_, i) => `https://www.markets${i}.com/story/${i}`),
      600,
    )
    b = await openBrowser(s.url)
  })
  afterAll(async () => {
    await b?.close()
    await s?.close()
  })

  it('signs in with a key, which lands in no URL, storage or readable cookie', async () => {
    const { page, context } = b
    await page.goto('/console/segments')
    await page.waitForURL('**/console/sign-in?next=%2Fconsole%2Fsegments')
    await checkScreen(page, 'sign-in')
    await page.getByLabel('API key').fill('cur_not-a-real-key')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await poll(() => page.getByRole('alert').textContent()).toContain('invalid or revoked API key')

    await page.getByLabel('API key').fill(buyer.key)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL('**/console/segments')
    await poll(() => page.getByTestId('client-name').textContent()).toContain('Acme Media')
    expect(page.url()).not.toContain(buyer.key)
    const cookies = await context.cookies()
    expect(cookies).toEqual([expect.objectContaining({ name: 'curata_session', httpOnly: true, sameSite: 'Lax', secure: false, path: '/' })])
    expect(cookies[0]!.value).not.toContain(buyer.key.slice(4))
    const storage = await page.evaluate(() => ({ cookie: document.cookie, local: JSON.stringify(localStorage), session: JSON.stringify(sessionStorage) }))
    expect(JSON.stringify(storage)).not.toContain(buyer.key.slice(4))
    expect(storage.cookie).not.toContain('curata_session')
  })

  it('creates a segment from a prompt and follows its build to complete', async () => {
    const { page } = b
    await page.getByRole('link', { name: 'New segment' }).click()
    await page.getByRole('heading', { name: 'New segment' }).waitFor()
    await page.getByLabel('Name').fill('Home cooks')
    // The reading is checked before anything is created: a prompt of audience words names no topic.
    await page.getByLabel('Prompt', { exact: true }).fill('moms aged 25-54')
    await page.getByRole('button', { name: 'Check the reading' }).click()
    await poll(() => page.locator('.notice').textContent()).toContain('names no content topic: found "aged 25-54" (audience), "moms" (audience)')
    await page.getByLabel('Prompt', { exact: true }).fill('home cooking recipes, baking and dinner ideas')
    await poll(() => page.getByTestId('prompt-reading').count()).toBe(0)
    await page.getByRole('button', { name: 'Check the reading' }).click()
    await poll(() => page.getByTestId('prompt-reading').textContent()).toContain('Food & Drink 100%')
    expect(await page.locator('.notice').count()).toBe(0)
    await checkScreen(page, 'segment-new')
    expect(json(await s.app.inject({ method: 'GET', url: '/v1/curation/segment-requests', headers: { 'x-api-key': buyer.key } }))).toEqual([])
    await page.getByRole('button', { name: 'Create segment' }).click()
    await page.waitForURL(/\/console\/segments\/\d+$/)
    await page.getByRole('heading', { name: 'Home cooks' }).waitFor()
    // The build runs in the worker; the screen polls until the state reads complete.
    await page.locator('.badge', { hasText: 'complete' }).waitFor()
    await poll(() => page.getByTestId('segment-url-count').textContent()).toBe('24')
    await poll(() => page.getByTestId('url-count').textContent()).toBe('24 of 24 URLs')
    await checkScreen(page, 'segment-urls')
  })

  it('shows how the prompt was read, and why each URL is in the segment', async () => {
    const { page } = b
    const reading = page.getByTestId('prompt-reading')
    await poll(() => reading.textContent()).toContain('Food & Drink 100%')
    expect(await reading.textContent()).toContain('Words searchedhome, cooking, recipes, baking, dinner, ideas')
    expect(await reading.textContent()).toContain('Ignoredand (common word)')
    const why = await page.locator('table tbody tr td.why').allTextContents()
    expect(why).toHaveLength(24)
    for (const w of why) expect(w).toMatch(/^Food & Drink [01]\.\d\d.* · words: [a-z, ]+/)
  })

  it('browses the URL list: filter by domain and category, sort by score, page', async () => {
    const { page } = b
    const rows = page.locator('table tbody tr')
    await poll(() => rows.count()).toBe(24)
    await page.getByLabel('Filter by domain').fill('kitchen2')
    await poll(() => page.getByTestId('url-count').textContent()).toBe('4 of 24 URLs')
    for (const d of await rows.locator('td:nth-child(3)').allTextContents()) expect(d).toBe('kitchen2.org')
    await page.getByLabel('Filter by domain').fill('')
    const categories = await page.getByLabel('Category').locator('option').allTextContents()
    expect(categories[0]).toBe('All categories')
    await page.getByLabel('Category').selectOption(categories[1]!)
    await poll(() => page.getByTestId('url-count').textContent()).toMatch(/^\d+ of 24 URLs$/)
    await page.getByLabel('Category').selectOption('')

    await page.getByRole('button', { name: /^Score/ }).click()
    const scores = (await rows.locator('td:nth-child(5)').allTextContents()).map(Number)
    expect(scores).toEqual([...scores].sort((x, y) => y - x))
    await page.getByRole('button', { name: /^Score/ }).click()
    const ascending = (await rows.locator('td:nth-child(5)').allTextContents()).map(Number)
    expect(ascending).toEqual([...ascending].sort((x, y) => x - y))
    await poll(() => page.getByText('Page 1 of 1').count()).toBe(1)
  })

  it('shows the category and domain breakdown as charts, and the exclusions by reason', async () => {
    const { page } = b
    await page.getByRole('tab', { name: 'Breakdown' }).click()
    const domains = page.getByRole('img', { name: 'URLs by domain (top 15)' })
    await domains.waitFor()
    await poll(() => domains.locator('rect').count()).toBe(6)
    await checkScreen(page, 'segment-breakdown')
    await page.getByRole('tab', { name: 'Exclusions' }).click()
    await page.getByText(/URLs were left out/).waitFor()
  })

  it('downloads the segment as the CSV the API writes', async () => {
    const { page } = b
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()])
    expect(download.suggestedFilename()).toMatch(/^segment-\d+\.csv$/)
    const text = readFileSync((await download.path())!, 'utf8')
    const lines = text.trim().split(/\r?\n/)
    expect(lines[0]).toBe('rank,url,tld,score,taxonomy_id,level1_name,level2_name,level3_name,source,reasons')
    expect(lines).toHaveLength(25)
  })

  it('activates the segment: validation inline, then the sandbox Deal ID with a copy button', async () => {
    const { page } = b
    await page.getByRole('tab', { name: 'URLs' }).click()
    await page.getByRole('link', { name: 'Activate' }).click()
    await page.getByRole('heading', { name: 'New activation' }).waitFor()
    await poll(() => page.getByRole('checkbox', { name: /Home cooks/ }).isChecked()).toBe(true)
    await page.getByLabel('Search DSPs').fill('trade desk')
    await poll(() => page.getByLabel('DSP', { exact: true }).locator('option').count()).toBe(2)
    await page.getByLabel('DSP', { exact: true }).selectOption({ label: 'The Trade Desk' })
    await page.getByLabel('Buyer seat').fill('agency-4411')
    await page.getByLabel('Geo').fill('US, XX')
    await page.getByRole('checkbox', { name: 'video' }).check()
    await page.getByRole('button', { name: 'Activate' }).click()
    // The API's 422 names the field; the form shows it under Geo.
    await page.locator('#geo-error').waitFor()
    await checkScreen(page, 'activation-new')
    await page.getByLabel('Geo').fill('US, CA')
    await page.getByRole('button', { name: 'Activate' }).click()
    await page.waitForURL(/\/console\/activations\/\d+$/)
    const deal = page.getByTestId('deal-id')
    await poll(() => deal.textContent(), { timeout: 20_000 }).toMatch(/^CUR-SBX-/)
    await page.getByRole('button', { name: 'Copy Deal ID' }).click()
    await page.getByRole('button', { name: 'Copied' }).waitFor()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await deal.textContent())
    await checkScreen(page, 'activation-deal')
  })

  it('optimizes the segment (block a domain) and shows the outcome; works on a tablet and from the keyboard', async () => {
    const { page } = b
    await page.getByRole('link', { name: /^#\d+$/ }).click()
    await page.getByRole('tab', { name: 'Optimize' }).click()
    await page.getByLabel('Block domains').fill('kitchen0.org')
    await page.getByRole('button', { name: 'Apply optimization' }).click()
    const outcome = page.getByTestId('optimizations').locator('li').first()
    await poll(() => outcome.textContent(), { timeout: 30_000 }).toContain('applied')
    expect(await outcome.textContent()).toContain('removed 4, added 0, now 20 URLs')
    await poll(() => page.getByTestId('segment-url-count').textContent()).toBe('20')

    // Delete a domain from the segment's audience: a dry run first, then the removal.
    expect(await page.getByLabel('Taxonomy leaf id').inputValue()).toMatch(/^\d+$/)
    await page.getByLabel('Domain', { exact: true }).fill('kitchen1.org')
    await page.getByRole('button', { name: 'Check what would be removed' }).click()
    await page.getByText('4 URL entries would be removed.').waitFor()
    await page.getByRole('button', { name: 'Remove them' }).click()
    await page.getByText('4 URL entries removed.').waitFor()
    await poll(() => page.getByTestId('segment-url-count').textContent()).toBe('16')
    await checkScreen(page, 'segment-optimize')

    await page.setViewportSize({ width: 820, height: 1180 })
    await page.getByRole('tab', { name: 'URLs' }).click()
    await poll(() => page.getByTestId('url-count').textContent()).toBe('16 of 16 URLs')
    // Nothing wider than the tablet's screen, the URL table included: each URL is a card of labelled fields.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true)
    const frame = page.locator('.table-wrap').filter({ has: page.getByRole('table', { name: 'Segment URLs' }) })
    expect(await frame.evaluate((el: { scrollWidth: number; clientWidth: number }) => el.scrollWidth <= el.clientWidth)).toBe(true)
    expect(
      await frame
        .locator('td.why')
        .first()
        .evaluate((el) => getComputedStyle(el, '::before').content),
    ).toBe('"Why"')
    await checkScreen(page, 'tablet-segment')
    await page.setViewportSize({ width: 1280, height: 860 })

    // Keyboard: the first Tab reaches the skip link, which moves focus past the navigation.
    await page.reload()
    await page.getByTestId('url-count').waitFor()
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content')
    await page.keyboard.press('Enter')
    expect(page.url()).toMatch(/#main$/)
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main')
  })

  it("shows another client's segment as not found, and the overview and usage screens", async () => {
    const { page } = b
    const other = await s.client('Other Co')
    const made = await s.app.inject({ method: 'POST', url: '/v1/curation/segment-requests', headers: other.headers, payload: { prompt: 'cooking' } })
    const otherId = (JSON.parse(made.body) as { id: number }).id
    await page.goto(`/console/segments/${otherId}`)
    await page.getByRole('alert').filter({ hasText: 'Not found' }).waitFor()
    await page.goto('/console/')
    await page.getByRole('heading', { name: 'Overview' }).waitFor()
    await page.getByText('1 with a Deal ID').waitFor()
    await checkScreen(page, 'overview')
    await page.getByRole('link', { name: 'Keys & usage' }).click()
    await page.getByTestId('rate-used').waitFor()
    await checkScreen(page, 'usage')
    await page.goto('/console/no-such-screen')
    await page.getByRole('heading', { name: 'Page not found' }).waitFor()
    expect(await b.violations()).toEqual([])
  })

  it('renames, rebuilds and deletes the segment', async () => {
    const { page } = b
    await page.getByRole('link', { name: 'Segments', exact: true }).click()
    await page.getByRole('link', { name: 'Home cooks' }).click()
    await page.getByRole('tab', { name: 'Manage' }).click()
    await page.getByLabel('Segment name').fill('Home cooks (EU)')
    await page.getByRole('button', { name: 'Save name' }).click()
    await page.getByRole('heading', { name: 'Home cooks (EU)' }).waitFor()
    const id = Number(/\/segments\/(\d+)$/.exec(page.url())![1])
    const record = async () =>
      JSON.parse((await s.app.inject({ method: 'GET', url: `/v1/curation/segment-requests/${id}`, headers: { 'x-api-key': buyer.key } })).body) as {
        processed_date: string
        name: string
      }
    const before = await record()
    expect(before.name).toBe('Home cooks (EU)')
    await page.getByRole('button', { name: 'Rebuild now' }).click()
    // The rebuild runs in the worker; the screen follows it back to complete.
    await poll(async () => (await record()).processed_date, { timeout: 30_000 }).not.toBe(before.processed_date)
    await poll(() => page.getByRole('button', { name: /Rebuild now|Building/ }).textContent(), { timeout: 30_000 }).toBe('Rebuild now')
    await page.locator('.badge', { hasText: 'complete' }).waitFor()
    await page.getByRole('button', { name: 'Delete segment' }).click()
    await page.getByRole('button', { name: 'Delete it and end its deals' }).click()
    await page.waitForURL(/\/console\/segments$/)
    await page.getByText('No segment yet').waitFor()
  })

  it("shows a prompt's audience, place, exclusions and ignored words as text, markup in it inert", async () => {
    const { page } = b
    const prompt = '<img src=x onerror=alert(1)> home cooking recipes for moms in Germany, not politics'
    const made = await s.app.inject({ method: 'POST', url: '/v1/curation/segment-requests', headers: { 'x-api-key': buyer.key }, payload: { prompt } })
    expect(made.statusCode).toBe(201)
    await page.goto(`/console/segments/${(JSON.parse(made.body) as { id: number }).id}`)
    await page.locator('.badge', { hasText: 'complete' }).waitFor()
    const reading = page.getByTestId('prompt-reading')
    const row = async (name: string) => reading.locator('dt', { hasText: name }).locator('xpath=following-sibling::dd[1]').textContent()
    await poll(() => row('Audience words')).toBe('moms')
    expect(await row('Countries')).toBe('DE')
    expect(await row('Topics excluded')).toMatch(/^Politics \d+%$/)
    expect(await row('Words excluded')).toBe('politics')
    expect(await row('Ignored')).toContain('germany (geography)')
    expect(await row('Words searched')).toContain('onerror')
    expect(await page.locator('img[src="x"]').count()).toBe(0)
    await checkScreen(page, 'segment-reading')
    expect(await b.violations()).toEqual([])
  })

  it('a write without the CSRF token is refused; sign-out ends the session', async () => {
    const { page } = b
    const status = await page.evaluate(async () => {
      const res = await fetch('/v1/snowball/campaigns', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"description":"x"}' })
      return res.status
    })
    expect(status).toBe(403)
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.waitForURL('**/console/sign-in')
    expect(await b.context.cookies()).toEqual([])
    await page.goto('/console/segments')
    await page.waitForURL('**/console/sign-in?next=%2Fconsole%2Fsegments')
    expect(await page.evaluate(async () => (await fetch('/v1/curation/segment-requests')).status)).toBe(401)
  })
})
