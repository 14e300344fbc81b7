import { describe, expect, it } from 'vitest'
import { clockStorageKey, readAnchor, remainingAt, removeAnchor, writeAnchor } from './attempt-clock'

const key = clockStorageKey(7, 42)
const T = Date.UTC(2026, 10, 22, 7, 0, 0)

describe('the countdown anchor', () => {
  it('continues from the seconds left less the wall-clock time passed since', () => {
    expect(remainingAt({ remaining: 600, at: T }, T + 90_500)).toBe(509.5)
    expect(remainingAt({ remaining: 600, at: T }, T + 3_600_000)).toBe(0)
  })

  it('never grants time when the phone clock was moved back: the countdown resumes where it stood', () => {
    expect(remainingAt({ remaining: 600, at: T }, T - 3_600_000)).toBe(600)
  })

  it('keeps the latest anchor per attempt on the device, and forgets it', () => {
    writeAnchor(key, { remaining: 900, at: T })
    writeAnchor(key, { remaining: 840.25, at: T + 59_750 })
    expect(readAnchor(key)).toEqual({ remaining: 840.25, at: T + 59_750 })
    expect(readAnchor(clockStorageKey(7, 43))).toBeNull()
    removeAnchor(key)
    expect(readAnchor(key)).toBeNull()
  })

  it('reads a damaged entry as no anchor (the server is asked instead)', () => {
    localStorage.setItem(key, '{"remaining": "lots", "at": 1}')
    expect(readAnchor(key)).toBeNull()
    localStorage.setItem(key, 'not json')
    expect(readAnchor(key)).toBeNull()
    localStorage.setItem(key, '{"remaining": -5, "at": 1}')
    expect(readAnchor(key)).toBeNull()
  })
})
