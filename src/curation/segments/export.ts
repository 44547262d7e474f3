/**
 * A segment's whole URL list as CSV or JSON Lines, streamed: one OFFSET to the resume point, then
 * keyset pages on (rank, page_id) — the order the list is served in — so every page costs the same
 * and the server holds one page whatever the list's size.
 */
import type { Queryable, QueryResult } from '../../platform/db/db.ts'
import { reasonsText, toCsv } from './csv.ts'
import type { SegmentUrlRow } from './repository.ts'
import { round, withLevels } from './repository.ts'

export const segmentCsvColumns = ['rank', 'url', 'tld', 'score', 'taxonomy_id', 'level1_name', 'level2_name', 'level3_name', 'source', 'reasons'] as const
export type ExportFormat = 'csv' | 'jsonl'

/** Entries as CSV rows: a URL's reasons in one cell (csv.ts). */
export function csvRows<T extends Pick<SegmentUrlRow, 'reasons'>>(entries: readonly T[]): (Omit<T, 'reasons'> & { reasons: string })[] {
  return entries.map((e) => ({ ...e, reasons: reasonsText(e.reasons) }))
}

const PAGE = 5000
const LINES_PER_WRITE = 500

type KeyedRow = SegmentUrlRow & { page_id: number }

export async function* segmentUrlLines(db: Queryable, clientId: number, segmentId: number, format: ExportFormat, offset: number): AsyncGenerator<string> {
  // The header goes with the start of the file: a resumed download appends to what it has.
  if (format === 'csv' && offset === 0) yield `${segmentCsvColumns.join(',')}\r\n`
  let after: { rank: number; page_id: number } | null = null
  for (;;) {
    const page: QueryResult<KeyedRow> = await db.query<KeyedRow>(
      after
        ? `SELECT rank, page_id, url, tld, score::float8 AS score, taxonomy_id, source, reasons FROM segment_urls
            WHERE segment_id = $1 AND client_id = $2 AND (rank, page_id) > ($3, $4)
            ORDER BY rank, page_id LIMIT ${PAGE}`
        : `SELECT rank, page_id, url, tld, score::float8 AS score, taxonomy_id, source, reasons FROM segment_urls
            WHERE segment_id = $1 AND client_id = $2
            ORDER BY rank, page_id LIMIT ${PAGE} OFFSET $3`,
      after ? [segmentId, clientId, after.rank, after.page_id] : [segmentId, clientId, offset],
    )
    const rows = page.rows
    if (!rows.length) return
    const last: KeyedRow = rows[rows.length - 1]!
    after = { rank: last.rank, page_id: last.page_id }
    const entries = rows.map(({ page_id: _p, ...r }) => withLevels({ ...r, score: round(r.score), reasons: r.reasons ?? {} }))
    // Written in pieces well under V8's large-object size, which only a full GC frees.
    for (let i = 0; i < entries.length; i += LINES_PER_WRITE) {
      const piece = entries.slice(i, i + LINES_PER_WRITE)
      if (format === 'csv') {
        const text = toCsv(segmentCsvColumns, csvRows(piece))
        yield text.slice(text.indexOf('\r\n') + 2)
      } else {
        yield `${piece.map((e) => JSON.stringify(e)).join('\n')}\n`
      }
    }
    if (rows.length < PAGE) return
  }
}
