/** Time source. Everything time-dependent reads a Clock so tests can move time instead of waiting. */
export interface Clock {
  now(): Date
}

export const systemClock: Clock = { now: () => new Date() }

/** A clock that only moves when told to; used by tests and by tooling that replays time. */
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
