/**
 * Batches page saves: a crawler settles hundreds of pages a second, and one statement per page made
 * round trips (and the database's parse of each statement) a large share of its cost. Saves are
 * grouped for at most `maxDelayMs` or `maxBatch` pages and written with one statement; each caller's
 * promise settles when its batch is written (or fails with it). One batch is written at a time.
 */
import type { Queryable } from '../../platform/db/db.ts'
import type { AnalyzedPage } from './analyze-page.ts'
import { savePages } from './pages-repository.ts'

export interface PageWriter {
  save(id: number, page: AnalyzedPage): Promise<void>
}

interface Pending {
  id: number
  page: AnalyzedPage
  resolve(): void
  reject(err: unknown): void
}

export function createPageWriter(db: Queryable, opts: { maxBatch?: number; maxDelayMs?: number } = {}): PageWriter {
  const maxBatch = opts.maxBatch ?? 50
  const maxDelayMs = opts.maxDelayMs ?? 25
  let pending: Pending[] = []
  let timer: NodeJS.Timeout | null = null
  let writing = false

  function schedule(): void {
    if (writing || timer || !pending.length) return
    if (pending.length >= maxBatch) return void write()
    timer = setTimeout(() => {
      timer = null
      void write()
    }, maxDelayMs)
  }

  async function write(): Promise<void> {
    if (writing || !pending.length) return
    if (timer) {
      clearTimeout(timer)
      timer = null
    }
    writing = true
    const batch = pending.slice(0, maxBatch)
    pending = pending.slice(batch.length)
    try {
      await savePages(db, batch)
      for (const p of batch) p.resolve()
    } catch (err) {
      for (const p of batch) p.reject(err)
    } finally {
      writing = false
      schedule()
    }
  }

  return {
    save(id, page) {
      return new Promise<void>((resolve, reject) => {
        pending.push({ id, page, resolve, reject })
        schedule()
      })
    },
  }
}
