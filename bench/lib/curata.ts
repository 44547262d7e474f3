// What the benchmarks that start `curata` as separate processes share: the binary, the PostgreSQL
// server to measure on, and a fresh schema there for each run.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

import pg from 'pg'

export const curataBin = fileURLToPath(new URL('../../bin/curata.js', import.meta.url))
export const pgUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

/** Runs `curata <args>` to completion and resolves with its stdout (rejects on a non-zero exit). */
export function runCurata(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, [curataBin, ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    c.stdout.on('data', (d: Buffer) => (out += d.toString()))
    c.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`curata ${args.join(' ')} exited ${code}`))))
  })
}

/**
 * A client key for the database that `env` names, made as a user makes one: `curata migrate` first
 * (keys never create an embedded database: src/platform/db/open.ts), then `curata keys create`.
 * Initializing the database here also keeps its cost out of the server's measured work.
 */
export async function benchKey(env: NodeJS.ProcessEnv): Promise<string> {
  await runCurata(['migrate'], env)
  return (JSON.parse(await runCurata(['keys', 'create', '--name', 'bench', '--json'], env)) as { api_key: string }).api_key
}

/** An empty schema `name` (dropped first if there), as a DATABASE_URL; null when no server answers. */
export async function freshPgSchema(name: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 2000 })
  try {
    await client.connect()
    await client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`)
    await client.query(`CREATE SCHEMA ${name}`)
    return `${pgUrl}?options=${encodeURIComponent(`-c search_path=${name}`)}`
  } catch {
    return null
  } finally {
    await client.end().catch(() => {})
  }
}
