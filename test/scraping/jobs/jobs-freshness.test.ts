// max_age and force through a whole scrape job: the API stores them, the worker's chunk hands them
// to the scraper, and only the pages older than asked are fetched again.
import { afterAll, beforeAll, expect, it } from 'vitest'

import type { TestApp } from '../../helpers/app.ts'
import { json } from '../../helpers/app.ts'
import { ManualClock } from '../../helpers/clock.ts'
import { describeEachEngine } from '../../helpers/db.ts'
import { html } from '../fixtures/web-server.ts'
import type { ScrapingApp, Web } from '../helpers.ts'
import { article, runJobsUntil, startScrapingApp } from '../helpers.ts'

type Job = { id: number; status: string; max_age: number | null; results: { url: string; content: { title: string } | null }[] | null }

describeEachEngine('scrape jobs with max_age and force (in-process worker)', (getDb) => {
  let app: ScrapingApp
  let t: TestApp
  let web: Web
  let headers: Record<string, string>
  let title = 'First edition'
  const clock = new ManualClock('2026-11-22T10:00:00Z')
  const MINUTE = 60_000
  beforeAll(async () => {
    app = await startScrapingApp(getDb().db, { 'news.fresh.test/story': (req, res) => html(article(title))(req, res) }, { clock })
    ;({ t, web, headers } = app)
  })
  afterAll(() => app.close())

  const run = async (extra: Record<string, unknown>): Promise<Job> => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/scraping/jobs', headers, payload: { urls: [web.at('news.fresh.test', '/story')], ...extra } })
    expect(res.statusCode, res.body).toBe(201)
    const id = json<Job>(res).id
    const get = async () => json<Job>(await t.app.inject({ method: 'GET', url: `/v1/scraping/jobs/${id}`, headers }))
    await runJobsUntil(t.ctx, async () => (await get()).status === 'complete')
    return get()
  }
  const fetches = () => web.count('news.fresh.test', '/story')

  it('serves a fresh page from the index, refetches it with force or a max_age it exceeds, never twice within the minimum', async () => {
    const first = await run({})
    expect(fetches()).toBe(1)
    expect(first.results?.[0]?.content?.title).toBe('First edition')

    title = 'Second edition'
    clock.advance(10 * MINUTE)
    const again = await run({})
    expect(fetches()).toBe(1) // within the freshness window: the index answers
    expect(again.results?.[0]?.content?.title).toBe('First edition')

    const forced = await run({ force: true })
    expect(forced.max_age).toBe(60) // force = SCRAPE_MIN_REFETCH_SECONDS
    expect(fetches()).toBe(2)
    expect(forced.results?.[0]?.content?.title).toBe('Second edition')

    title = 'Third edition'
    await run({ force: true }) // fetched under a minute ago: not again
    expect(fetches()).toBe(2)

    clock.advance(30 * MINUTE)
    const young = await run({ max_age: 3600 })
    expect(young.max_age).toBe(3600)
    expect(fetches()).toBe(2) // 30 minutes old: younger than an hour
    expect(young.results?.[0]?.content?.title).toBe('Second edition')

    const older = await run({ max_age: 600 })
    expect(fetches()).toBe(3) // 30 minutes old: older than 10 minutes
    expect(older.results?.[0]?.content?.title).toBe('Third edition')
  })
})
