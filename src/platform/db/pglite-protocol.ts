/** Messages between the main thread and the thread that owns the PGlite instance. */
export type Request =
  | { id: number; op: 'query'; sql: string; params: unknown[]; tx: number | null }
  | { id: number; op: 'copy'; sql: string; rows: Uint8Array; tx: number | null }
  | { id: number; op: 'exec'; sql: string }
  | { id: number; op: 'copyOut'; select: string }
  | { id: number; op: 'begin' }
  | { id: number; op: 'commit' | 'rollback'; tx: number }
  | { id: number; op: 'listen' | 'unlisten'; channel: string }
  | { id: number; op: 'dump' }
  | { id: number; op: 'close' }

export type Reply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: SerializedError } | { notify: string; payload: string }

export interface SerializedError {
  message: string
  code?: string
  detail?: string
  constraint?: string
}

export interface ThreadInit {
  dataDir: string | null
  loadDataDir: ArrayBuffer | null
}
