// Refreshes src/pixel/agents/ip-ranges.json from the operators' published JSON lists
// ({creationTime, prefixes:[{ipv4Prefix}|{ipv6Prefix}]}). A list that fails to download or parse keeps its
// previous prefixes and `complete` flag; a list that succeeds becomes complete. Run daily (the lists move):
//
//   node --import tsx scripts/refresh-bot-ranges.ts [--file path] [--only key,key]
//
// Never run by the tests (no network there); they drive refreshRanges() with a fake fetch.
import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseCidr } from '../src/pixel/agents/ip.ts'
import type { RangesDocument } from '../src/pixel/agents/verify.ts'

const MAX_BYTES = 4 * 1024 * 1024
const TIMEOUT_MS = 15_000

/** Valid prefixes of one published document; throws when it has none (an empty list is never installed). */
export function parseRangeDocument(body: unknown): { prefixes: string[]; creationTime: string | null; rejected: number } {
  const prefixes: string[] = []
  let rejected = 0
  const entries = (body as { prefixes?: unknown } | null)?.prefixes
  if (!Array.isArray(entries)) throw new Error('no `prefixes` array')
  for (const e of entries as Record<string, unknown>[]) {
    for (const p of [e?.ipv4Prefix, e?.ipv6Prefix]) {
      if (p === undefined || p === null || p === '') continue
      if (typeof p === 'string' && parseCidr(p)) prefixes.push(p)
      else rejected++
    }
  }
  if (prefixes.length === 0) throw new Error('no valid prefixes')
  const ct = (body as { creationTime?: unknown }).creationTime
  return { prefixes: [...new Set(prefixes)], creationTime: typeof ct === 'string' ? ct : null, rejected }
}

export interface RefreshResult {
  key: string
  ok: boolean
  detail: string
}

export async function refreshRanges(
  doc: RangesDocument,
  opts: { fetch?: typeof fetch; now?: () => Date; only?: string[] } = {},
): Promise<{ doc: RangesDocument; results: RefreshResult[] }> {
  const doFetch = opts.fetch ?? fetch
  const now = opts.now ?? (() => new Date())
  const next: RangesDocument = structuredClone(doc)
  const results: RefreshResult[] = []
  for (const [key, list] of Object.entries(next.lists)) {
    if (opts.only && !opts.only.includes(key)) continue
    try {
      const res = await doFetch(list.source, {
        headers: { accept: 'application/json', 'user-agent': 'curata-bot-ranges-refresh/0.1' },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      })
      if (!res.ok) throw new Error(`HTTP ${res.status}`)
      const bytes = await res.arrayBuffer()
      if (bytes.byteLength > MAX_BYTES) throw new Error(`body over ${MAX_BYTES} bytes`)
      const parsed = parseRangeDocument(JSON.parse(new TextDecoder().decode(bytes)))
      list.prefixes = parsed.prefixes
      list.fetched_at = now().toISOString()
      list.complete = true
      results.push({ key, ok: true, detail: `${parsed.prefixes.length} prefixes (list created ${parsed.creationTime ?? '?'}), ${parsed.rejected} rejected` })
    } catch (err) {
      results.push({ key, ok: false, detail: `kept previous list: ${(err as Error).message}` })
    }
  }
  return { doc: next, results }
}

const here = dirname(fileURLToPath(import.meta.url))
export const RANGES_PATH = join(here, '../src/pixel/agents/ip-ranges.json')

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name)
  return i >= 0 ? process.argv[i + 1] : undefined
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const file = arg('--file') ?? RANGES_PATH
  const only = arg('--only')?.split(',')
  const current = JSON.parse(readFileSync(file, 'utf8')) as RangesDocument
  const { doc, results } = await refreshRanges(current, { only })
  for (const r of results) console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.key}: ${r.detail}`)
  writeFileSync(`${file}.tmp`, `${JSON.stringify(doc, null, 2)}\n`)
  renameSync(`${file}.tmp`, file) // atomic: a reader never sees half a file
  process.exitCode = results.some((r) => !r.ok) ? 1 : 0
}
