/**
 * Waiting for an asynchronous resource: polls its GET, shows a progress bar on stderr when stderr is
 * a terminal (done/total, rate, ETA), and on Ctrl-C leaves the job running and says how to resume.
 */
import cliProgress from 'cli-progress'

import { EXIT_INTERRUPTED } from './errors.ts'
import { note } from './output.ts'

export interface WaitOptions<T> {
  /** What is waited for, in the interruption message ("scrape job 12"). */
  label: string
  /** The command that resumes the wait. */
  resume: string
  /**
   * A line for stderr ("scrape job 12: 40 URLs"), printed once Ctrl-C is handled: whoever reacts to it
   * (a person, a script) can interrupt at once and still gets the resume message, not a killed process.
   */
  announce?: string
  intervalMs: number
  poll(): Promise<T>
  finished(r: T): boolean
  /** Entries done and total, for the bar; null when the resource has no measurable progress. */
  progress?(r: T): { done: number; total: number } | null
}

/** Time left at the rate so far: "0s", "42s", "3m 05s", "1h 02m"; "…" before there is a rate. */
function eta(remaining: number, rate: number): string {
  if (remaining <= 0) return '0s'
  if (rate <= 0) return '…'
  const s = Math.ceil(remaining / rate)
  if (s < 60) return `${s}s`
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`
}

export async function waitUntil<T>(o: WaitOptions<T>): Promise<T> {
  const tty = process.stderr.isTTY === true
  let bar: cliProgress.SingleBar | null = null
  const started = Date.now()
  let firstDone: number | null = null
  const onInterrupt = () => {
    bar?.stop()
    note(`\ninterrupted: ${o.label} keeps running on the server. Resume waiting with:\n  ${o.resume}`)
    process.exit(EXIT_INTERRUPTED)
  }
  process.once('SIGINT', onInterrupt)
  if (o.announce !== undefined) note(o.announce)
  try {
    for (;;) {
      const r = await o.poll()
      const p = o.progress?.(r) ?? null
      if (tty && p) {
        if (!bar) {
          bar = new cliProgress.SingleBar(
            {
              stream: process.stderr,
              format: `${o.label} {bar} {percentage}% | {value}/{total} | {rate}/s | ETA {left}`,
              etaBuffer: 20,
              hideCursor: true,
              noTTYOutput: false,
            },
            cliProgress.Presets.shades_classic,
          )
          bar.start(p.total, p.done, { rate: '0', left: '…' })
          firstDone = p.done
        }
        const seconds = (Date.now() - started) / 1000
        const rate = seconds > 0 ? Math.round((p.done - (firstDone ?? 0)) / seconds) : 0
        bar.setTotal(p.total)
        bar.update(p.done, { rate: String(rate), left: eta(p.total - p.done, rate) })
      }
      if (o.finished(r)) {
        bar?.stop()
        return r
      }
      await new Promise((resolve) => setTimeout(resolve, o.intervalMs))
    }
  } finally {
    process.removeListener('SIGINT', onInterrupt)
  }
}
