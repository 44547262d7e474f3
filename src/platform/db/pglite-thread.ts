// The thread that owns the embedded PostgreSQL (PGlite). PGlite runs queries on the thread that
// calls it, so a long report query here never stalls the HTTP event loop on the main thread.
import { parentPort, workerData } from 'node:worker_threads'
import type { Transaction } from '@electric-sql/pglite'
import { PGlite } from '@electric-sql/pglite'

import { typeParsers } from './db.ts'
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
      // Not COPY TO '/dev/blob': a Blob's memory is invisible to the garbage collector, and a thread
      // allocating little else kept hundreds of MB of them. One text per batch instead, its UTF-8
      // bytes moved to the main thread. (The sorted subquery feeds the aggregate in its order.)
      const r = await pg.query<{ t: string | null }>(`SELECT string_agg(x.line, E'\\n') || E'\\n' AS t FROM (${m.select}) AS x(line)`)
      const t = r.rows[0]?.t
      return t ? new TextEncoder().encode(t).buffer : new ArrayBuffer(0)
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
        listeners.set(m.channel, await pg.listen(m.channel, (payload) => port.postMessage({ notify: m.channel, payload } satisfies Reply)))
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
      const transfer = result instanceof ArrayBuffer ? [result] : []
      port.postMessage({ id: m.id, ok: true, result } satisfies Reply, transfer)
      if (m.op === 'close') port.close()
    },
    (err: unknown) => port.postMessage({ id: m.id, ok: false, error: serialize(err) } satisfies Reply),
  )
})
port.postMessage({ id: 0, ok: true, result: 'ready' } satisfies Reply)
