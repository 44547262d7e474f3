import { Worker } from 'node:worker_threads'

import type { Db, QueryResult, Session } from './db.ts'
import { copySql } from './db.ts'
import type { Reply, Request, SerializedError, ThreadInit } from './pglite-protocol.ts'

export interface PgliteOptions {
  /** Directory of the data; omitted = in memory. */
  dataDir?: string
  /** A dumped data dir to start from (tests start from a migrated template). */
  loadDataDir?: Blob
}

export interface PgliteDb extends Db {
  /** Dumps the data dir to a tarball: the migrated template that tests clone. */
  dump(): Promise<Blob>
}

/** An error from the embedded engine, carrying PostgreSQL's SQLSTATE like node-postgres does. */
export class PgliteError extends Error {
  code?: string
  detail?: string
  constraint?: string
  constructor(e: SerializedError) {
    super(e.message)
    Object.assign(this, { code: e.code, detail: e.detail, constraint: e.constraint })
  }
}

// The thread is TypeScript too: its entry registers tsx's loader there, then loads pglite-thread.ts.
const threadEntry = new URL('./pglite-thread-entry.mjs', import.meta.url)

type Pending = { resolve(v: unknown): void; reject(e: Error): void }
type RequestBody = Request extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never

/** A view of a whole ArrayBuffer can move to the thread; a part of one (Node's pool) is copied. */
const ownBuffer = (a: Uint8Array) => a.buffer instanceof ArrayBuffer && a.byteOffset === 0 && a.byteLength === a.buffer.byteLength

/**
 * The embedded engine, run on a worker thread of its own (see pglite-thread.ts). PGlite is one
 * session: a transaction holds it, and other queries wait until the transaction ends.
 */
export async function openPglite(opts: PgliteOptions = {}): Promise<PgliteDb> {
  const init: ThreadInit = {
    dataDir: opts.dataDir ?? null,
    loadDataDir: opts.loadDataDir ? await opts.loadDataDir.arrayBuffer() : null,
  }
  const worker = new Worker(threadEntry, {
    workerData: init,
    transferList: init.loadDataDir ? [init.loadDataDir] : [],
  })
  const pending = new Map<number, Pending>()
  const listeners = new Map<string, Set<(payload: string) => void>>()
  let nextId = 1
  let closed = false
  let failure: Error | null = null

  const started = new Promise<void>((resolve, reject) => {
    pending.set(0, { resolve: () => resolve(), reject })
  })
  worker.on('message', (m: Reply) => {
    if ('notify' in m) {
      for (const fn of listeners.get(m.notify) ?? []) fn(m.payload)
      return
    }
    const p = pending.get(m.id)
    pending.delete(m.id)
    if (m.ok) p?.resolve(m.result)
    else p?.reject(new PgliteError(m.error))
  })
  const die = (err: Error) => {
    failure = err
    for (const p of pending.values()) p.reject(err)
    pending.clear()
  }
  worker.on('error', die)
  worker.on('exit', (code) => {
    if (!closed) die(new Error(`embedded database thread exited with code ${code}`))
  })

  function call<T>(body: RequestBody, transfer: ArrayBuffer[] = []): Promise<T> {
    if (failure) return Promise.reject(failure)
    if (closed) return Promise.reject(new Error('database is closed'))
    const id = nextId++
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject })
      worker.postMessage({ ...body, id }, transfer)
    })
  }

  const on = (tx: number | null): Session => ({
    query: <T>(sql: string, params: readonly unknown[] = []) => call<QueryResult<T>>({ op: 'query', sql, params: [...params], tx }),
    // The rows' buffer moves to the database thread rather than being copied.
    copyFrom: async (table, columns, rows) =>
      call<number>({ op: 'copy', sql: copySql(table, columns, "'/dev/blob'"), rows, tx }, ownBuffer(rows) ? [rows.buffer as ArrayBuffer] : []),
  })

  await started
  const root = on(null)
  return {
    engine: 'pglite',
    query: root.query,
    copyFrom: root.copyFrom,
    async transaction(fn) {
      const tx = await call<number>({ op: 'begin' })
      let result
      try {
        result = await fn(on(tx))
      } catch (err) {
        await call({ op: 'rollback', tx }).catch(() => {})
        throw err
      }
      await call({ op: 'commit', tx })
      return result
    },
    async exec(sql) {
      await call({ op: 'exec', sql })
    },
    async *copyOut(select) {
      // The whole batch's bytes, in pieces that moved here from the database thread.
      yield* await call<Uint8Array[]>({ op: 'copyOut', select })
    },
    async listen(channel, onNotify) {
      const set = listeners.get(channel) ?? new Set()
      listeners.set(channel, set)
      set.add(onNotify)
      if (set.size === 1) await call({ op: 'listen', channel })
      return async () => {
        set.delete(onNotify)
        if (set.size === 0 && !closed) await call({ op: 'unlisten', channel }).catch(() => {})
      }
    },
    async dump() {
      return new Blob([await call<ArrayBuffer>({ op: 'dump' })])
    },
    async close() {
      if (closed) return
      await call({ op: 'close' }).catch(() => {})
      closed = true
      await worker.terminate()
    },
  }
}
