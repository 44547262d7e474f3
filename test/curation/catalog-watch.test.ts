// The catalog follows the index: computed on an empty index at first boot, it is redone as soon as
// the index grows materially, not at the next 6-hourly turn.
import { afterAll, beforeAll, expect, it } from 'vitest'

import { catalogJob, catalogWatchJob, indexGrewSinceCatalog } from '../../src/curation/catalog/refresh.ts'
import type { JobContext } from '../../src/platform/jobs/handler.ts'
import { createWorker } from '../../src/platform/jobs/worker.ts'
import { configure, json } from '../helpers/app.ts'
import { describeEachEngine } from '../helpers/db.ts'
import { waitFor, whileWorking } from '../helpers/wait.ts'
import { indexTopic } from './fixtures.ts'
import type { CurationTestApp } from './helpers.ts'
import { createCurationApp } from './helpers.ts'

describeEachEngine('catalog refresh on index growth', (getDb) => {
  let t: CurationTestApp
  beforeAll(async () => {
    t = await createCurationApp(getDb().db)
    configure(t.ctx, { curation: { catalog: { minPages: 3 } } })
  })
  afterAll(() => t.close())

  const nextRun = async () =>
    (await getDb().db.query<{ run_at: Date; status: string }>(`SELECT run_at, status FROM jobs WHERE kind = 'curation.catalog' ORDER BY id DESC LIMIT 1`))
      .rows[0]
  const runCatalogJobs = async () => {
    const worker = createWorker({ db: getDb().db, clock: t.ctx.clock, handlers: [catalogJob(t.ctx)], pollMs: 20 })
    await whileWorking(worker, () =>
      waitFor(
        async () =>
          (await nextRun())?.status === 'queued' &&
          (await getDb().db.query(`SELECT 1 FROM jobs WHERE kind = 'curation.catalog' AND status = 'done'`)).rows.length > 0,
      ),
    )
  }
  const watch = () => catalogWatchJob(t.ctx).run({}, {} as JobContext)

  it('moves the next catalog run to now once the index has grown, and the catalog then has coverage', async () => {
    // First boot: the catalog is computed on an empty index and its next run is 6 hours away.
    await runCatalogJobs()
    const scheduled = (await nextRun())!.run_at.getTime()
    expect(scheduled - t.ctx.clock.now().getTime()).toBe(t.ctx.config.curation.catalog.refreshMs)
    const a = await t.client()
    expect(json<{ entries: unknown[] }>(await t.get(a.headers, '/v1/curation/catalog?type=public')).entries).toEqual([])

    // A few pages are not material; 25 are.
    await indexTopic(
      getDb().db,
      'sports',
      Array.from({ length: 5 }, (_, i) => `https://www.arena${i}.example/${i}`),
      500,
    )
    expect(await indexGrewSinceCatalog(getDb().db, t.ctx.config.curation)).toMatchObject({ grew: false, now: 5, then: 0 })
    await watch()
    expect((await nextRun())!.run_at.getTime()).toBe(scheduled)
    await indexTopic(
      getDb().db,
      'sports',
      Array.from({ length: 20 }, (_, i) => `https://www.pitch${i}.example/${i}`),
      600,
    )
    expect(await indexGrewSinceCatalog(getDb().db, t.ctx.config.curation)).toMatchObject({ grew: true, now: 25, then: 0 })
    await watch()
    expect((await nextRun())!.run_at.getTime()).toBe(t.ctx.clock.now().getTime())

    await runCatalogJobs()
    const entries = json<{ entries: { id: string; page_count: number; coverage: { percentage: number } }[] }>(
      await t.get(a.headers, '/v1/curation/catalog?type=public'),
    ).entries
    const sports = entries.find((e) => e.id === 'iab:483')
    expect(sports?.page_count).toBe(25)
    expect(sports!.coverage.percentage).toBeGreaterThan(0)
    // Caught up: no further early run.
    expect(await indexGrewSinceCatalog(getDb().db, t.ctx.config.curation)).toMatchObject({ grew: false, now: 25, then: 25 })
  })
})
