/**
 * The one narrow database interface. The PGlite and PostgreSQL adapters are the only code that knows
 * which engine runs; everything else writes plain SQL that both PostgreSQL 15 and PGlite (18) accept.
 *
 * Column values come back normalized the same way from both engines: int8 and numeric as numbers,
 * `date` as 'YYYY-MM-DD' strings, timestamptz as Date, json/jsonb parsed.
 */
export interface QueryResult<T> {
  rows: T[]
  rowCount: number
}

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>>
}

/** A connection to write through: the database itself, or one of its transactions. */
export interface Session extends Queryable {
  /**
   * Bulk-loads rows with COPY: `rows` in PostgreSQL's text format, UTF-8 (copy-text.ts builds it).
   * Far cheaper per row than an INSERT's parameters on both engines. The bytes are handed over:
   * the embedded engine moves their buffer to its thread. Resolves to the number of rows loaded.
   */
  copyFrom(table: string, columns: readonly string[], rows: Uint8Array): Promise<number>
}

export type Engine = 'pglite' | 'postgres'

export interface Db extends Session {
  readonly engine: Engine
  /** Runs fn in one transaction: committed when fn resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Session) => Promise<T>): Promise<T>
  /** Runs a multi-statement script (migrations). */
  exec(sql: string): Promise<void>
  /**
   * Streams the rows of `select` (one text column, no control characters in it: JSON, say) as bytes,
   * each row's text followed by \n, through COPY: no row objects or strings on this side, which
   * matters when millions of rows go straight to an HTTP response. `select` cannot take parameters
   * (COPY does not): inline only literals you have checked. The embedded engine hands over the
   * whole output of a statement at once (in 256 kB pieces): keep each select to a bounded batch.
   */
  copyOut(select: string): AsyncIterable<Uint8Array>
  /** Subscribes to NOTIFY on a channel (sent with notifyChannelSql); resolves to an unsubscribe function. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>
  close(): Promise<void>
}

/**
 * The channel a NOTIFY goes to, as SQL over the parameter holding the channel's name. Channels are
 * database-wide, but Curata instances on different schemas of one database (the tests run so) must
 * not hear each other: pixel campaign ids, say, repeat across schemas. So every channel carries a
 * short hash of the schema: a lowercase identifier (it starts with a letter, so PGlite's unquoted LISTEN
 * takes it) of at most 37 characters, under PostgreSQL's 63.
 */
export function notifyChannelSql(param: string): string {
  return `'n' || left(md5(current_schema()), 12) || '_' || ${param}`
}

/** Sends a NOTIFY on the channel (scoped by notifyChannelSql); inside a transaction, it goes out at commit. */
export async function notify(q: Queryable, channel: string, payload: string): Promise<void> {
  await q.query(`SELECT pg_notify(${notifyChannelSql('$1::text')}, $2)`, [channel, payload])
}

/** Type parsers shared by both adapters, keyed by PostgreSQL type OID. */
export const typeParsers: Record<number, (value: string) => unknown> = {
  20: (v) => Number(v), // int8: ids and counts stay far below 2^53
  1700: (v) => Number(v), // numeric: money amounts and ratios; precision beyond a double is not needed
  1082: (v) => v, // date: keep 'YYYY-MM-DD'; a Date would shift with the process time zone
}

/** The COPY statement both adapters run (from STDIN; the embedded engine reads its input blob instead). */
export function copySql(table: string, columns: readonly string[], source: 'STDIN' | "'/dev/blob'"): string {
  const ident = (name: string) => {
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain identifier: ${name}`)
    return name
  }
  return `COPY ${ident(table)} (${columns.map(ident).join(', ')}) FROM ${source}`
}

/**
 * COPY of a one-column select whose text holds no control characters, output as that text per line:
 * CSV with a delimiter and a quote character (0x02, 0x01) that such text never contains, so nothing
 * is quoted or escaped (the text format would double every backslash).
 */
export function copyOutSql(select: string, target: 'STDOUT'): string {
  return `COPY (${select}) TO ${target} WITH (FORMAT csv, DELIMITER E'\\x02', QUOTE E'\\x01')`
}
