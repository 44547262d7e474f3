import type { RunnerTask, RunnerTestFile } from 'vitest'
import type { Reporter } from 'vitest/reporters'

/** Ends the run with a plain `Tests: N passed, N failed, N skipped` line that any CI can read. */
export default class SummaryReporter implements Reporter {
  onFinished(files: RunnerTestFile[] = [], errors: unknown[] = []): void {
    const counts = { passed: 0, failed: 0, skipped: 0 }
    const walk = (t: RunnerTask) => {
      if (t.type === 'suite') return t.tasks.forEach(walk)
      const s = t.result?.state
      if (s === 'pass') counts.passed++
      else if (s === 'fail') counts.failed++
      else counts.skipped++
    }
    files.forEach(walk)
    // Errors outside any test (an unhandled rejection, a broken file) fail the run too.
    const failed = counts.failed + errors.length + files.filter((f) => f.result?.state === 'fail' && f.tasks.length === 0).length
    setImmediate(() => console.log(`Tests: ${counts.passed} passed, ${failed} failed, ${counts.skipped} skipped`))
  }
}
