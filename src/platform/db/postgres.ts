import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'

import pg from 'pg'
import { from as copyFromStdin, to as copyToStdout } from 'pg-copy-streams'

import type { Db, QueryResult, Session } from './db.ts'
import { copyOutSql, copySql, notifyChannelSql, typeParsers } from './db.ts'

export interface PostgresOptions {
  connectionString: string
  /** Schema to work in (tests isolate each file in its own); default: the server's search_path. */
  schema?: string
  max?: number
}

const types = {
  getTypeParser(oid: number, format?: string) {
    const parse = typeParsers[oid]
    if (parse && format !== 'binary') return parse
    return pg.types.getTypeParser(oid, format as 'text')
  },
}

async function copy(client: pg.PoolClient, table: string, columns: readonly string[], rows: Uint8Array): Promise<number> {
  const stream = client.query(copyFromStdin(copySql(table, columns, 'STDIN')))
  await pipeline(Readable.from([Buffer.from(rows.buffer, rows.byteOffset, rows.byteLength)]), stream)
  return stream.rowCount
}

function wrap(client: pg.Pool | pg.PoolClient): Session {
  return {
    async query<T>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
      const r = await client.query({ text: sql, values: params as unknown[], types })
      return { rows: r.rows as T[], rowCount: r.rowCount ?? 0 }
    },
    async copyFrom(table, columns, rows) {
      if (client instanceof pg.Pool) {
        const c = await client.connect()
        try {
          return await copy(c, table, columns, rows)
        } finally {
          c.release()
        }
      }
      return copy(client, table, columns, rows)
    },
  }
}

export async function openPostgres(opts: PostgresOptions): Promise<Db> {
  const options = opts.schema ? `-c search_path=${opts.schema}` : undefined
  const pool = new pg.Pool({ connectionString: opts.connectionString, max: opts.max ?? 10, options })
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {})
  const q = wrap(pool)
  await q.query('SELECT 1')
  return {
    engine: 'postgres',
    query: q.query,
    copyFrom: q.copyFrom,
    async transaction(fn) {
      const client = await pool.connect()
      try {
        await client.query('BEGIN')
        const result = await fn(wrap(client))
        await client.query('COMMIT')
        return result
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {})
        throw err
      } finally {
        client.release()
      }
    },
    async exec(sql) {
      await pool.query(sql)
    },
    async *copyOut(select) {
      const client = await pool.connect()
      let complete = false
      try {
        // Read as the caller reads: the stream pauses the socket, so the server waits for a slow reader.
        for await (const chunk of client.query(copyToStdout(copyOutSql(select, 'STDOUT')))) yield chunk as Buffer
        complete = true
      } finally {
        // A reader that stopped early leaves the COPY half read: that connection is closed, not reused.
        client.release(complete ? undefined : true)
      }
    },
    async listen(channel, onNotify) {
      const client = await pool.connect()
      const { rows } = await client.query<{ c: string }>(`SELECT ${notifyChannelSql('$1::text')} AS c`, [channel])
      const scoped = rows[0]!.c
      const handler = (m: pg.Notification) => {
        if (m.channel === scoped) onNotify(m.payload ?? '')
      }
      client.on('notification', handler)
      await client.query(`LISTEN ${pg.escapeIdentifier(scoped)}`)
      return async () => {
        client.off('notification', handler)
        await client.query(`UNLISTEN ${pg.escapeIdentifier(scoped)}`).catch(() => {})
        client.release()
      }
    },
    async close() {
      await pool.end()
    },
  }
}
