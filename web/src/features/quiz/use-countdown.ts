import { useEffect, useRef, useState } from 'react'

/** Seconds as m:ss; minutes are not wrapped into hours (90 minutes read "90:00"). */
export function formatClock(totalSeconds: number): string {
  const seconds = Math.max(0, Math.ceil(totalSeconds))
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`
}

/** SPEC.md: the quiz is submitted automatically when the timer reaches 1 second. */
export const AUTO_SUBMIT_AT_SECONDS = 1

interface CountdownOptions {
  /** Monotonic milliseconds; performance.now() unless a test injects a clock. */
  now?: () => number
  tickMs?: number
  /** Told the exact seconds left on every tick (the page keeps them, so a reload offline can continue). */
  onTick?: (secondsLeft: number) => void
  /** The whole seconds left at which `onExpire` is called: SPEC.md's 1 s for the attempt, 0 for a section's end. */
  expireAtSeconds?: number
}

/**
 * Counts down from `startSeconds` (the server's remaining_seconds) on the monotonic clock, so a phone whose
 * wall clock is wrong, or changes mid-quiz, neither shortens nor lengthens the exam. The deadline is fixed when
 * `startSeconds` (or `key`) arrives and is not recomputed on re-render. Calls `onExpire` once at 1 s left (or
 * `expireAtSeconds`).
 * Returns the whole seconds left (rounded up), or null before a start value is known.
 */
export function useCountdown(
  startSeconds: number | null,
  onExpire: () => void,
  {
    key,
    now = () => performance.now(),
    tickMs = 250,
    onTick,
    expireAtSeconds = AUTO_SUBMIT_AT_SECONDS,
  }: CountdownOptions & { key?: string | number } = {},
): number | null {
  const [secondsLeft, setSecondsLeft] = useState<number | null>(
    startSeconds === null ? null : Math.max(0, Math.ceil(startSeconds)),
  )
  const onExpireRef = useRef(onExpire)
  const nowRef = useRef(now)
  const onTickRef = useRef(onTick)
  useEffect(() => {
    onExpireRef.current = onExpire
    nowRef.current = now
    onTickRef.current = onTick
  })

  // Which start the expiry was reported for: StrictMode runs effects twice, and onExpire must still fire once.
  const expiredFor = useRef<string | null>(null)

  useEffect(() => {
    if (startSeconds === null) return
    const run = `${key ?? ''}:${startSeconds}`
    const clock = () => nowRef.current()
    const deadline = clock() + startSeconds * 1000
    let interval: ReturnType<typeof setInterval> | null = null
    const tick = () => {
      const exact = Math.max(0, (deadline - clock()) / 1000)
      onTickRef.current?.(exact)
      const left = Math.ceil(exact)
      setSecondsLeft(left)
      if (left === 0 && interval !== null) {
        clearInterval(interval)
        interval = null
      }
      if (left <= expireAtSeconds && expiredFor.current !== run) {
        expiredFor.current = run
        onExpireRef.current()
      }
    }
    tick()
    interval = setInterval(tick, tickMs)
    // Background tabs get throttled timers: catch up as soon as the page is seen again.
    const onVisible = () => {
      if (document.visibilityState === 'visible') tick()
    }
    document.addEventListener('visibilitychange', onVisible)
    return () => {
      if (interval !== null) clearInterval(interval)
      document.removeEventListener('visibilitychange', onVisible)
    }
  }, [startSeconds, key, tickMs, expireAtSeconds])

  return secondsLeft
}
