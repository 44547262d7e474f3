// Robustness over every page of the two dev corpora (1,011 real pages from the trafilatura and htmldate
// evaluation sets): in a child process with a time bound, no page may throw or hang. Speed per page is
// measured in bench/extraction.bench.ts; the bound here only catches a hang.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const worker = fileURLToPath(new URL('./fixtures/extract-dev-corpora.ts', import.meta.url))
const TIME_BOUND_MS = 120_000

interface Summary {
  pages: number
  failures: Array<{ file: string; message: string }>
  slowest: { file: string; ms: number }
}

function runWorker(): Promise<{ code: number | null; timedOut: boolean; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', worker], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    let timedOut = false
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    const timer = setTimeout(() => {
      timedOut = true
      child.kill('SIGKILL')
    }, TIME_BOUND_MS)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, timedOut, stdout, stderr })
    })
  })
}

describe('extraction over every dev-corpus page', () => {
  it(
    'never throws and never hangs',
    async () => {
      const run = await runWorker()
      expect(run.timedOut).toBe(false)
      expect(run.stderr).toBe('')
      expect(run.code).toBe(0)
      const summary = JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}') as Summary
      expect(summary.failures).toEqual([])
      expect(summary.pages).toBe(517 + 494)
    },
    TIME_BOUND_MS + 10_000,
  )
})
