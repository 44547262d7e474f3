/**
 * Term associations learned from the index (`curation.associations`, periodic): which words appear
 * on the same pages, so a prompt word the topic model never saw (a name, a new product, jargon)
 * expands to related words as the index grows ("kubernetes" → container, cluster, docker).
 *
 * Each page contributes its strongest words (its embedding's terms, at most TERMS_PER_PAGE). Bounds:
 * the newest SAMPLE_PAGES pages are read (on a 1M-page index, 50k pages ≈ 1 minute and ~300 MB at
 * most); pair counts stop growing at MAX_PAIRS distinct pairs. Score: normalised PMI of the pair over
 * the sample; a word keeps its RELATED_PER_TERM best partners seen on at least MIN_PAIR_PAGES pages.
 */
import { CLASSIFIER_VERSION } from '../../content/topics/topic-model.ts'
import type { AppContext } from '../../platform/context.ts'
import type { Queryable } from '../../platform/db/db.ts'
import type { JobHandler } from '../../platform/jobs/handler.ts'
import type { Periodic } from '../../platform/jobs/kinds.ts'

export const associationsKind = 'curation.associations'

declare module '../../platform/jobs/kinds.ts' {
  interface JobPayloads {
    'curation.associations': Periodic
  }
}
const SAMPLE_PAGES = 50_000
const TERMS_PER_PAGE = 24
const MIN_TERM_PAGES = 5
const MIN_PAIR_PAGES = 3
const MAX_PAIRS = 4_000_000
const RELATED_PER_TERM = 5
const MIN_NPMI = 0.25
const MAX_EXPANSIONS = 8
const EVERY_MS = 24 * 3600_000

type Terms = [string, number][]

/** Counts word and word-pair page frequencies over the sample and returns each word's best partners. */
export function learnAssociations(pages: readonly Terms[]): Map<string, { related: string; score: number }[]> {
  const df = new Map<string, number>()
  const strongest = pages.map((terms) =>
    [...terms]
      .sort((a, b) => b[1] - a[1])
      .slice(0, TERMS_PER_PAGE)
      .map(([t]) => t)
      .sort(),
  )
  for (const ts of strongest) for (const t of ts) df.set(t, (df.get(t) ?? 0) + 1)
  const pairs = new Map<string, number>()
  for (const ts of strongest) {
    const kept = ts.filter((t) => (df.get(t) ?? 0) >= MIN_TERM_PAGES)
    for (let i = 0; i < kept.length; i++) {
      for (let j = i + 1; j < kept.length; j++) {
        const key = `${kept[i]}\t${kept[j]}`
        const c = pairs.get(key)
        if (c !== undefined) pairs.set(key, c + 1)
        else if (pairs.size < MAX_PAIRS) pairs.set(key, 1)
      }
    }
  }
  const n = Math.max(1, pages.length)
  const best = new Map<string, { related: string; score: number }[]>()
  const offer = (term: string, related: string, score: number): void => {
    const list = best.get(term) ?? []
    list.push({ related, score })
    list.sort((a, b) => b.score - a.score)
    if (list.length > RELATED_PER_TERM) list.pop()
    best.set(term, list)
  }
  for (const [key, c] of pairs) {
    if (c < MIN_PAIR_PAGES) continue
    const [a, b] = key.split('\t') as [string, string]
    const pab = c / n
    const npmi = Math.log(pab / (((df.get(a) ?? 1) / n) * ((df.get(b) ?? 1) / n))) / -Math.log(pab)
    if (npmi < MIN_NPMI) continue
    offer(a, b, npmi)
    offer(b, a, npmi)
  }
  return best
}

/**
 * Relearns the table from the newest pages; replaces it in one transaction. Only pages the current
 * classifier read count: after an upgrade, older pages hold terms of the old stemmer until reclassified.
 */
export async function refreshAssociations(db: Queryable, run: <T>(fn: (tx: Queryable) => Promise<T>) => Promise<T>): Promise<number> {
  const { rows } = await db.query<{ terms: string }>(
    `SELECT (embedding->'terms')::text AS terms FROM pages
      WHERE state = 'done' AND classifier_version = $2 AND jsonb_typeof(embedding->'terms') = 'array'
      ORDER BY id DESC LIMIT $1`,
    [SAMPLE_PAGES, CLASSIFIER_VERSION],
  )
  const learned = learnAssociations(rows.map((r) => JSON.parse(r.terms) as Terms))
  const flat = [...learned].flatMap(([term, list]) => list.map((x) => ({ term, related: x.related, score: Math.round(x.score * 1000) / 1000 })))
  return run(async (tx) => {
    await tx.query(`DELETE FROM term_associations`)
    if (flat.length) {
      await tx.query(
        `INSERT INTO term_associations (term, related, score) SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(term text, related text, score real)`,
        [JSON.stringify(flat)],
      )
    }
    return flat.length
  })
}

/** Related words for the given stemmed terms, best first, at most MAX_EXPANSIONS overall. */
export async function expansionsFor(db: Queryable, terms: readonly string[]): Promise<string[]> {
  if (!terms.length) return []
  const { rows } = await db.query<{ related: string }>(
    `SELECT related FROM term_associations WHERE term = ANY($1::text[]) AND NOT related = ANY($1::text[]) ORDER BY score DESC, related LIMIT $2`,
    [terms, MAX_EXPANSIONS],
  )
  return [...new Set(rows.map((r) => r.related))]
}

export function associationsJob(ctx: AppContext): JobHandler<'curation.associations'> {
  return {
    kind: associationsKind,
    everyMs: EVERY_MS,
    maxAttempts: 2,
    async run(_payload, job) {
      return { associations: await refreshAssociations(ctx.db, (fn) => job.withLease(fn)) }
    },
  }
}
