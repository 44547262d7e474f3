/**
 * Writes a streamed export (JSON Lines or CSV) to a file or stdout. A connection that breaks midway
 * is resumed at the number of complete records written (the exports' `offset`), up to 3 times.
 */
import { createWriteStream } from 'node:fs'
import type { Writable } from 'node:stream'

import type { Api, Query } from './api.ts'
import { ApiFailure } from './errors.ts'

export interface ExportOutcome {
  records: number
  /** For scrape results: how many carried each error code ('none' for none). */
  errorCounts: Map<string, number>
}

function write(out: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (out.write(text)) resolve()
    else {
      out.once('drain', resolve)
      out.once('error', reject)
    }
  })
}

export async function downloadExport(
  api: Api,
  path: string,
  query: Query,
  opts: { out: string | null; lineEnd: '\n' | '\r\n'; header: boolean; countErrors: boolean },
): Promise<ExportOutcome> {
  const out: Writable = opts.out ? createWriteStream(opts.out) : process.stdout
  const outcome: ExportOutcome = { records: 0, errorCounts: new Map() }
  let headerSeen = !opts.header
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await api.stream(path, { ...query, offset: outcome.records })
      const decoder = new TextDecoder()
      let rest = ''
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        rest += decoder.decode(chunk, { stream: true })
        const end = rest.lastIndexOf(opts.lineEnd)
        if (end < 0) continue
        const complete = rest.slice(0, end + opts.lineEnd.length)
        rest = rest.slice(end + opts.lineEnd.length)
        let lines = complete.split(opts.lineEnd).length - 1
        if (!headerSeen && lines > 0) {
          headerSeen = true
          lines--
        }
        if (opts.countErrors) {
          for (const line of complete.split(opts.lineEnd)) {
            if (!line) continue
            const errors = (JSON.parse(line) as { errors?: string[] }).errors ?? []
            for (const e of errors.length ? errors : ['none']) outcome.errorCounts.set(e, (outcome.errorCounts.get(e) ?? 0) + 1)
          }
        }
        await write(out, complete)
        outcome.records += lines
      }
      if (rest) throw new Error('the response ended inside a record')
      break
    } catch (err) {
      if (err instanceof ApiFailure || attempt >= 3) throw err
      // a broken connection: ask again from the last complete record
    }
  }
  if (opts.out) await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())))
  return outcome
}
