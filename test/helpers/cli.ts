import type { ChildProcess } from 'node:child_process'
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

import { waitFor } from './wait.ts'

export const curataBin = fileURLToPath(new URL('../../bin/curata.js', import.meta.url))

export interface CliResult {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs `curata <args>` to completion. */
export function runCli(args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [curataBin, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`curata ${args.join(' ')} did not finish in ${timeoutMs} ms\n${stderr}`))
    }, timeoutMs)
    child.on('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

export interface Served {
  child: ChildProcess
  url: string
  stderr(): string
  exited: Promise<number | null>
}

/** Starts `curata serve` on a free port and resolves once it listens. */
export async function serve(args: string[], env: Record<string, string>): Promise<Served> {
  const child = spawn(process.execPath, [curataBin, 'serve', ...args], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let err = ''
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  let done = false
  void exited.then(() => (done = true))
  await waitFor(() => done || /listening on (http:\/\/\S+)/.test(err), 60_000, 'curata serve to listen')
  const m = /listening on (http:\/\/\S+)/.exec(err)
  if (!m) throw new Error(`curata serve did not start:\n${err}`)
  return { child, url: m[1]!, stderr: () => err, exited }
}
