import { act, renderHook } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { RESEND_COOLDOWN_SECONDS, useResendCountdown } from './use-resend-countdown'

describe('useResendCountdown', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'performance', 'Date'] })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms))

  it('waits 60 s by default', () => {
    expect(RESEND_COOLDOWN_SECONDS).toBe(60)
  })

  it('is idle until started: resend is allowed', () => {
    const { result } = renderHook(() => useResendCountdown())
    expect(result.current.secondsLeft).toBe(0)
    expect(result.current.canResend).toBe(true)
  })

  it('counts down from 60 once started and allows a resend only at 0', () => {
    const { result } = renderHook(() => useResendCountdown())
    act(() => result.current.start())
    expect(result.current.secondsLeft).toBe(60)
    expect(result.current.canResend).toBe(false)

    advance(1_000)
    expect(result.current.secondsLeft).toBe(59)
    advance(58_000)
    expect(result.current.secondsLeft).toBe(1)
    expect(result.current.canResend).toBe(false)
    advance(1_000)
    expect(result.current.secondsLeft).toBe(0)
    expect(result.current.canResend).toBe(true)
  })

  it('starts on mount when asked (the reset screen opens right after a code was sent)', () => {
    const { result } = renderHook(() => useResendCountdown({ startOnMount: true }))
    expect(result.current.canResend).toBe(false)
    advance(60_000)
    expect(result.current.canResend).toBe(true)
  })

  it('restarts the full cooldown after a resend', () => {
    const { result } = renderHook(() => useResendCountdown({ startOnMount: true }))
    advance(60_000)
    expect(result.current.canResend).toBe(true)
    act(() => result.current.start())
    expect(result.current.secondsLeft).toBe(60)
    advance(30_000)
    expect(result.current.secondsLeft).toBe(30)
  })

  it('follows the clock, not the number of ticks (a background tab gets few ticks)', () => {
    vi.useRealTimers()
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    let clock = 1_000
    vi.spyOn(performance, 'now').mockImplementation(() => clock)
    const { result } = renderHook(() => useResendCountdown({ cooldownSeconds: 10, startOnMount: true }))
    // 7 s pass on the clock but the throttled tab delivers a single tick.
    clock += 7_000
    advance(250)
    expect(result.current.secondsLeft).toBe(3)
  })

  it('stops ticking at zero and when unmounted', () => {
    const { result, unmount } = renderHook(() => useResendCountdown({ cooldownSeconds: 2, startOnMount: true }))
    advance(2_000)
    expect(result.current.canResend).toBe(true)
    expect(vi.getTimerCount()).toBe(0)
    act(() => result.current.start())
    expect(vi.getTimerCount()).toBe(1)
    unmount()
    expect(vi.getTimerCount()).toBe(0)
  })
})
