import { useCallback, useRef } from 'react'
import { clockStorageKey, removeAnchor, writeAnchor } from './attempt-clock'
import { useCountdown } from './use-countdown'

/**
 * The exam's countdown from the attempt's remaining seconds, its anchor kept on the device once a second so a
 * reload offline continues from it; `onTimeUp` runs once at 1 s left. Once `running` is false the clock stays
 * where it was. `stop` forgets the anchor at once, before the next render (the attempt is handed in).
 */
export function useExamClock(
  quizId: number,
  attempt: { id: number; remaining_seconds: number } | null,
  running: boolean,
  onTimeUp: () => void,
) {
  const anchoredSecond = useRef<number | null>(null)
  const stopped = useRef(false)
  const attemptId = attempt?.id ?? null

  const keepClock = useCallback(
    (left: number) => {
      if (attemptId === null || stopped.current || Math.ceil(left) === anchoredSecond.current) return
      anchoredSecond.current = Math.ceil(left)
      writeAnchor(clockStorageKey(quizId, attemptId), { remaining: left, at: Date.now() })
    },
    [attemptId, quizId],
  )

  const stop = useCallback(() => {
    stopped.current = true
    if (attemptId !== null) removeAnchor(clockStorageKey(quizId, attemptId))
  }, [attemptId, quizId])

  // null ends the countdown without resetting it.
  const secondsLeft = useCountdown(attempt && running ? attempt.remaining_seconds : null, onTimeUp, {
    key: attemptId ?? undefined,
    onTick: keepClock,
  })
  return { secondsLeft, stop }
}
