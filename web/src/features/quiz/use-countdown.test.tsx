import { act, renderHook } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { formatClock, useCountdown } from './use-countdown'

describe('formatClock', () => {
  it('shows m:ss with padded seconds', () => {
    expect(formatClock(0)).toBe('0:00')
    expect(formatClock(5)).toBe('0:05')
    expect(formatClock(65)).toBe('1:05')
    expect(formatClock(600)).toBe('10:00')
  })

  it('does not wrap minutes into hours', () => {
    expect(formatClock(90 * 60)).toBe('90:00')
    expect(formatClock(1440 * 60 - 1)).toBe('1439:59')
  })

  it('rounds partial seconds up and never goes negative', () => {
    expect(formatClock(59.2)).toBe('1:00')
    expect(formatClock(-3)).toBe('0:00')
  })
})

describe('useCountdown', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'] })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('counts down from the server remaining seconds', () => {
    const { result } = renderHook(() => useCountdown(125, () => undefined))
    expect(result.current).toBe(125)
    act(() => vi.advanceTimersByTime(1000))
    expect(result.current).toBe(124)
    act(() => vi.advanceTimersByTime(64_000))
    expect(result.current).toBe(60)
    expect(formatClock(result.current ?? 0)).toBe('1:00')
  })

  it('returns null until a start value is known, then starts', () => {
    const { result, rerender } = renderHook(({ start }) => useCountdown(start, () => undefined), {
      initialProps: { start: null as number | null },
    })
    expect(result.current).toBeNull()
    rerender({ start: 30 })
    expect(result.current).toBe(30)
    act(() => vi.advanceTimersByTime(10_000))
    expect(result.current).toBe(20)
  })

  it('runs on the monotonic clock: a wall-clock jump changes nothing', () => {
    const { result } = renderHook(() => useCountdown(300, () => undefined))
    act(() => vi.advanceTimersByTime(10_000))
    expect(result.current).toBe(290)
    // The phone's clock is corrected by an hour, forwards and back: the countdown must not move with it.
    act(() => vi.setSystemTime(Date.now() + 3_600_000))
    act(() => vi.advanceTimersByTime(1000))
    expect(result.current).toBe(289)
    act(() => vi.setSystemTime(Date.now() - 7_200_000))
    act(() => vi.advanceTimersByTime(1000))
    expect(result.current).toBe(288)
  })

  it('uses an injected clock when given one', () => {
    let now = 1_000
    const { result } = renderHook(() => useCountdown(60, () => undefined, { now: () => now }))
    now += 30_000
    act(() => vi.advanceTimersByTime(250))
    expect(result.current).toBe(30)
  })

  it('calls onExpire once when 1 second is left, not before', () => {
    const onExpire = vi.fn()
    const { result } = renderHook(() => useCountdown(5, onExpire))
    act(() => vi.advanceTimersByTime(3900))
    expect(result.current).toBe(2)
    expect(onExpire).not.toHaveBeenCalled()
    act(() => vi.advanceTimersByTime(100))
    expect(result.current).toBe(1)
    expect(onExpire).toHaveBeenCalledTimes(1)
    act(() => vi.advanceTimersByTime(5000))
    expect(result.current).toBe(0)
    expect(onExpire).toHaveBeenCalledTimes(1)
  })

  it('expires at once when the attempt is loaded with 1 second or less left', () => {
    const onExpire = vi.fn()
    renderHook(() => useCountdown(1, onExpire))
    expect(onExpire).toHaveBeenCalledTimes(1)
  })

  it('does not restart on re-render, even with a new onExpire callback', () => {
    const first = vi.fn()
    const second = vi.fn()
    const { result, rerender } = renderHook(({ onExpire }) => useCountdown(10, onExpire), {
      initialProps: { onExpire: first },
    })
    act(() => vi.advanceTimersByTime(4000))
    expect(result.current).toBe(6)
    rerender({ onExpire: second })
    rerender({ onExpire: second })
    expect(result.current).toBe(6)
    act(() => vi.advanceTimersByTime(5000))
    expect(result.current).toBe(1)
    // The latest callback is the one called.
    expect(first).not.toHaveBeenCalled()
    expect(second).toHaveBeenCalledTimes(1)
  })

  it('catches up as soon as a throttled background tab is shown again', () => {
    const { result } = renderHook(() => useCountdown(100, () => undefined, { tickMs: 60_000 }))
    // Timers are throttled in the background: the clock moves 40 s while no interval tick runs.
    const performanceNow = performance.now()
    vi.spyOn(performance, 'now').mockReturnValue(performanceNow + 40_000)
    act(() => document.dispatchEvent(new Event('visibilitychange')))
    expect(result.current).toBe(60)
  })
})
