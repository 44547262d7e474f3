import { PGlite } from '@electric-sql/pglite'
import type { Transaction } from '@electric-sql/pglite'

import type { Db, QueryResult, Queryable } from './db.ts'
import { typeParsers } from './db.ts'

export interface PgliteOptions {
  /** Directory of the data; omitted = in memory. */
  dataDir?: string
  /** A dumped data dir to start from (tests start from a migrated template). */
  loadDataDir?: Blob
}

function wrap(client: PGlite | Transaction): Queryable {
  return {
    async query<T>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
      const r = await client.query<T>(sql, params as unknown[])
      return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length }
    },
  }
}

export interface PgliteDb extends Db {
  /** Dumps the data dir to a tarball: the migrated template that tests clone. */
  dump(): Promise<Blob>
}

export async function openPglite(opts: PgliteOptions = {}): Promise<PgliteDb> {
  const pg = await PGlite.create({
    ...(opts.dataDir ? { dataDir: opts.dataDir } : {}),
    ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
    parsers: typeParsers,
  })
  const q = wrap(pg)
  return {
    engine: 'pglite',
    query: q.query,
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    async exec(sql) {
      await pg.exec(sql)
    },
    async listen(channel, onNotify) {
      const unlisten = await pg.listen(channel, onNotify)
      return async () => {
        if (!pg.closed) await unlisten()
      }
    },
    async close() {
      if (!pg.closed) await pg.close()
    },
    dump: () => pg.dumpDataDir('none'),
  }
}

