// The thread that owns the embedded PostgreSQL (PGlite). PGlite runs queries on the thread that
// calls it, so a long report query here never stalls the HTTP event loop on the main thread.
import { parentPort, workerData } from 'node:worker_threads'
import type { Transaction } from '@electric-sql/pglite'
import { PGlite } from '@electric-sql/pglite'

import { copyOutSql, notifyChannelSql, typeParsers } from './db.ts'
import { CopyOutReader, queryMessage } from './pglite-copy-out.ts'
import type { Reply, Request, SerializedError, ThreadInit } from './pglite-protocol.ts'

const init = workerData as ThreadInit
const port = parentPort!
const pg = await PGlite.create({
  ...(init.dataDir ? { dataDir: init.dataDir } : {}),
  ...(init.loadDataDir ? { loadDataDir: new Blob([init.loadDataDir]) } : {}),
  parsers: typeParsers,
})

interface OpenTx {
  tx: Transaction
  end(commit: boolean): void
  finished: Promise<void>
}
const txs = new Map<number, OpenTx>()
const listeners = new Map<string, () => Promise<void>>()
let nextTx = 1

function serialize(err: unknown): SerializedError {
  const e = err as { message?: string; code?: string; detail?: string; constraint?: string }
  return { message: e.message ?? String(err), code: e.code, detail: e.detail, constraint: e.constraint }
}

function begin(): Promise<number> {
  const id = nextTx++
  return new Promise((ready) => {
    let end: (commit: boolean) => void = () => {}
    const outcome = new Promise<boolean>((r) => (end = r))
    const finished = pg.transaction(async (tx) => {
      txs.set(id, { tx, end, finished })
      ready(id)
      if (!(await outcome)) await tx.rollback()
    })
    // A failed COMMIT surfaces through `finished`; keep it from being an unhandled rejection here.
    finished.catch(() => {})
  })
}

async function handle(m: Request): Promise<unknown> {
  switch (m.op) {
    case 'query': {
      const target = m.tx === null ? pg : txs.get(m.tx)?.tx
      if (!target) throw new Error(`transaction ${m.tx} is not open`)
      const r = await target.query(m.sql, m.params)
      return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length }
    }
    case 'copy': {
      const target = m.tx === null ? pg : txs.get(m.tx)?.tx
      if (!target) throw new Error(`transaction ${m.tx} is not open`)
      // COPY reads the blob through PGlite's /dev/blob device.
      const r = await target.query(m.sql, [], { blob: new Blob([m.rows]) })
      return r.affectedRows ?? 0
    }
    case 'exec':
      await pg.exec(m.sql)
      return null
    case 'copyOut': {
      // COPY TO STDOUT read off the wire protocol (pglite-copy-out.ts). Not COPY TO '/dev/blob' (a
      // Blob's memory is invisible to the garbage collector), nor one string_agg text per batch
      // (the text sat in the engine's memory, then as a result buffer, a JS string and its UTF-8
      // bytes here: a first 1,000,000-result export grew the server's RSS by 161 MB).
      const reader = new CopyOutReader()
      const msg = queryMessage(copyOutSql(m.select, 'STDOUT'))
      // The raw protocol skips PGlite's locks: take both, as query() does, so the COPY never runs
      // inside another caller's open transaction. Nothing to sync: COPY TO writes no data.
      await pg._runExclusiveTransaction(() => pg._runExclusiveQuery(() => pg.execProtocolRawStream(msg, { syncToFs: false, onRawData: (d) => reader.push(d) })))
      if (reader.error) throw Object.assign(new Error(reader.error.message), reader.error)
      return reader.finish()
    }
    case 'begin':
      return begin()
    case 'commit':
    case 'rollback': {
      const t = txs.get(m.tx)
      if (!t) throw new Error(`transaction ${m.tx} is not open`)
      txs.delete(m.tx)
      t.end(m.op === 'commit')
      await t.finished
      return null
    }
    case 'listen': {
      if (!listeners.has(m.channel)) {
        const { rows } = await pg.query<{ c: string }>(`SELECT ${notifyChannelSql('$1::text')} AS c`, [m.channel])
        listeners.set(m.channel, await pg.listen(rows[0]!.c, (payload) => port.postMessage({ notify: m.channel, payload } satisfies Reply)))
      }
      return null
    }
    case 'unlisten': {
      await listeners.get(m.channel)?.()
      listeners.delete(m.channel)
      return null
    }
    case 'dump': {
      const blob = await pg.dumpDataDir('none')
      return blob.arrayBuffer()
    }
    case 'close':
      await pg.close()
      return null
  }
}

port.on('message', (m: Request) => {
  handle(m).then(
    (result) => {
      // Buffers move to the main thread rather than being copied (a dump; an export's pieces).
      const transfer = result instanceof ArrayBuffer ? [result] : Array.isArray(result) ? result.map((v: Uint8Array<ArrayBuffer>) => v.buffer) : []
      port.postMessage({ id: m.id, ok: true, result } satisfies Reply, transfer)
      if (m.op === 'close') port.close()
    },
    (err: unknown) => port.postMessage({ id: m.id, ok: false, error: serialize(err) } satisfies Reply),
  )
})
port.postMessage({ id: 0, ok: true, result: 'ready' } satisfies Reply)
