import type { Clock } from '../../src/platform/clock.ts'

/** A clock that only moves when told to; tests move it to reach deadlines and windows. */
export class ManualClock implements Clock {
  #ms: number
  constructor(start: Date | string = '2026-01-01T00:00:00Z') {
    this.#ms = new Date(start).getTime()
  }
  now(): Date {
    return new Date(this.#ms)
  }
  advance(ms: number): void {
    this.#ms += ms
  }
  set(to: Date | string): void {
    this.#ms = new Date(to).getTime()
  }
}
