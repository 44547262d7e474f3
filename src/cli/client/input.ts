import { readFileSync } from 'node:fs'

import { UsageError } from './errors.ts'

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = []
  for await (const c of stream) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer))
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * The URLs of `curata scrape <file|->`: one per line (blank lines and lines starting with # are
 * skipped), or a JSON array of strings.
 */
export async function readUrls(source: string): Promise<string[]> {
  let text: string
  if (source === '-') text = await readAll(process.stdin)
  else {
    try {
      text = readFileSync(source, 'utf8')
    } catch (err) {
      throw new UsageError(`cannot read ${source}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`)
    }
  }
  const trimmed = text.trim()
  if (trimmed.startsWith('[')) {
    let parsed: unknown
    try {
      parsed = JSON.parse(trimmed)
    } catch {
      throw new UsageError(`${source} starts with [ but is not a JSON array`)
    }
    if (!Array.isArray(parsed) || !parsed.every((u) => typeof u === 'string')) throw new UsageError(`${source}: a JSON input must be an array of strings`)
    return parsed
  }
  const urls = trimmed
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
  if (!urls.length) throw new UsageError(`${source} holds no URLs`)
  return urls
}
