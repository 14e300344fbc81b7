/** Time as epoch milliseconds. Injected everywhere so tests move time instead of sleeping. */
export interface Clock {
  now(): number
}

export const systemClock: Clock = { now: () => Date.now() }

/** Where a FakeClock starts unless told otherwise: a fixed instant, so no test depends on the day it runs. */
export const FAKE_CLOCK_START = Date.parse('2026-11-22T07:00:00.000Z')

export class FakeClock implements Clock {
  constructor(private current = FAKE_CLOCK_START) {}
  now() {
    return this.current
  }
  set(ms: number) {
    this.current = ms
  }
  advance(ms: number) {
    this.current += ms
  }
}

export const toIso = (ms: number) => new Date(ms).toISOString()
export const toIsoOrNull = (ms: number | null) => (ms === null ? null : toIso(ms))
