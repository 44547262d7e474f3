import { describe, expect, it } from 'vitest'

import type { Queryable } from '../../../src/platform/db/db.ts'
import type { AnalyzedPage } from '../../../src/scraping/index/analyze-page.ts'
import { createPageWriter } from '../../../src/scraping/index/page-writer.ts'

const page = { errors: [], categories: [] } as unknown as AnalyzedPage

function fakeDb(fail = false) {
  const batches: number[] = []
  let inFlight = 0
  let maxInFlight = 0
  const db: Queryable = {
    async query(_sql, params) {
      inFlight++
      maxInFlight = Math.max(maxInFlight, inFlight)
      await new Promise((r) => setTimeout(r, 5))
      inFlight--
      batches.push((JSON.parse(params![0] as string) as unknown[]).length)
      if (fail) throw new Error('database refused')
      return { rows: [], rowCount: 0 }
    },
  }
  return { db, batches, maxInFlight: () => maxInFlight }
}

describe('the page writer', () => {
  it('groups saves into batches of at most maxBatch, one statement at a time', async () => {
    const f = fakeDb()
    const w = createPageWriter(f.db, { maxBatch: 50, maxDelayMs: 10 })
    await Promise.all(Array.from({ length: 120 }, (_, i) => w.save(i + 1, page)))
    expect(f.batches.reduce((a, b) => a + b, 0)).toBe(120)
    expect(Math.max(...f.batches)).toBeLessThanOrEqual(50)
    expect(f.batches.length).toBeLessThanOrEqual(4)
    expect(f.maxInFlight()).toBe(1)
  })

  it('writes a lone save after maxDelayMs', async () => {
    const f = fakeDb()
    const started = performance.now()
    await createPageWriter(f.db, { maxDelayMs: 20 }).save(1, page)
    expect(f.batches).toEqual([1])
    expect(performance.now() - started).toBeGreaterThanOrEqual(15)
  })

  it('rejects every save of a batch that fails', async () => {
    const w = createPageWriter(fakeDb(true).db, { maxDelayMs: 1 })
    const results = await Promise.allSettled([w.save(1, page), w.save(2, page)])
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected'])
  })
})
