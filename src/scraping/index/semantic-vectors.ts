/**
 * Sentence vectors of indexed pages (`index.semantic`, periodic; src/content/semantic/): each English
 * page with text gets the encoder's vector of its title and lead, which prompt fit compares with the
 * prompt's (docs/curation.md "Scores"); the page is classified again with it, its topics joining the
 * classifier's (src/content/topics/semantic-topics.ts). The encoder takes 50–70 ms a page, so it runs
 * here, beside the crawl and not in it: pages are ranked without a vector until they have one.
 * Batches commit on their own, so the job is resumable; a changed text clears the vector
 * (pages-repository.ts) and the page comes back here. Progress: the count of pages still to do (semanticProgress), returned by each run.
 */

import type { SentenceEncoder } from '../../content/semantic/encoder.ts'
import { semanticInput } from '../../content/semantic/vectors.ts'
import type { Queryable } from '../../platform/db/db.ts'
import type { JobHandler } from '../../platform/jobs/handler.ts'
import type { Periodic } from '../../platform/jobs/kinds.ts'
import type { ScrapingContext } from '../context.ts'
import { backgroundPass } from './background-pass.ts'
import { classifyStored, STORED_PAGE_COLUMNS, type StoredPage, saveClassifications } from './stored-classification.ts'

export const semanticKind = 'index.semantic'

declare module '../../platform/jobs/kinds.ts' {
  interface JobPayloads {
    'index.semantic': Periodic
  }
}
const BATCH = 64
/** The encoder reads English: other pages are marked done with an empty vector. */
const ENCODED_LANGUAGE = 'en'

interface TextRow extends StoredPage {
  /** what the vector is read from, fingerprinted: a page rewritten meanwhile is not given a stale vector */
  fingerprint: string
}

const fingerprint = (page: string): string => `md5(coalesce(${page}.title, '') || ' ' || coalesce(left(${page}.full_text, 2000), ''))`

/** Runs fn in a transaction (the job runs it under its lease). */
type InTransaction = <T>(fn: (tx: Queryable) => Promise<T>) => Promise<T>

/**
 * Gives up to `limit` pages without a vector theirs, lowest id first, and classifies each again with
 * it (its topics join the classifier's); returns how many were read. The pages are read, encoded and
 * classified outside any transaction (encoding a batch takes seconds, and the embedded engine has one
 * session); only the short write runs in `save`.
 */
export async function semanticBatch(db: Queryable, encoder: SentenceEncoder, save: InTransaction, limit = BATCH): Promise<number> {
  const { rows } = await db.query<TextRow>(
    `SELECT ${STORED_PAGE_COLUMNS}, ${fingerprint('p')} AS fingerprint
       FROM pages p WHERE p.state = 'done' AND p.semantic IS NULL ORDER BY p.id LIMIT $1`,
    [limit],
  )
  if (!rows.length) return 0
  const read = rows.map((r) => ({ ...r, input: r.full_text && r.language === ENCODED_LANGUAGE ? semanticInput(r.title, r.full_text) : '' }))
  const encoded = read.filter((r) => r.input !== '')
  const vectors = new Map((await encoder.encode(encoded.map((r) => r.input))).map((v, i) => [encoded[i]!.id, v]))
  const hex = (id: number): string => {
    const v = vectors.get(id)
    return v ? Buffer.from(v.buffer, v.byteOffset, v.length).toString('hex') : ''
  }
  const classified = encoded.map((r) => classifyStored(r, vectors.get(r.id) ?? null)).filter((c) => c !== null)
  await save(async (tx) => {
    const { rows: stored } = await tx.query<{ id: number }>(
      `UPDATE pages p SET semantic = decode(v.hex, 'hex')
         FROM unnest($1::bigint[], $2::text[], $3::text[]) AS v(id, hex, fingerprint)
        WHERE p.id = v.id AND p.semantic IS NULL AND ${fingerprint('p')} = v.fingerprint
        RETURNING p.id`,
      [read.map((r) => r.id), read.map((r) => hex(r.id)), read.map((r) => r.fingerprint)],
    )
    // A page rewritten since it was read keeps its new fetch's classification.
    const written = new Set(stored.map((r) => Number(r.id)))
    await saveClassifications(
      tx,
      classified.filter((c) => written.has(Number(c.id))),
    )
  })
  return rows.length
}

/** Fetched pages still without a sentence vector. */
export async function semanticProgress(db: Queryable): Promise<{ remaining: number }> {
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pages WHERE state = 'done' AND semantic IS NULL`)
  return { remaining: rows[0]?.n ?? 0 }
}

export function semanticJob(ctx: ScrapingContext, encoder: SentenceEncoder): JobHandler<'index.semantic'> {
  return backgroundPass({
    kind: semanticKind,
    batch: BATCH,
    step: (job) => semanticBatch(ctx.db, encoder, (fn) => job.withLease(fn)),
    doneAs: 'encoded',
    progress: () => semanticProgress(ctx.db),
  })
}
