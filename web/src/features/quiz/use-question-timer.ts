import { useCallback, useEffect, useRef } from 'react'
import type { AnswerQueue } from './answer-queue'

/** Seconds on the current question go to the queue at least this often, so a crash loses little. */
const REPORT_EVERY_MS = 30_000

/**
 * Counts the time the current question is on screen (the page visible), on the monotonic clock, and hands whole
 * seconds to the queue: when the learner moves to another question, when the page is hidden, and every 30 s.
 * Returns a function that reports the time so far at once (the submission calls it before reading the queue).
 */
export function useQuestionTimer(queue: AnswerQueue | null, questionId: number | null) {
  const reportRef = useRef<() => void>(() => undefined)

  useEffect(() => {
    if (!queue || questionId === null) return
    let since: number | null = document.visibilityState === 'hidden' ? null : performance.now()
    let carriedMs = 0

    const report = ({ round = false } = {}) => {
      const now = performance.now()
      if (since !== null) {
        carriedMs += now - since
        since = now
      }
      const seconds = round ? Math.round(carriedMs / 1000) : Math.floor(carriedMs / 1000)
      if (seconds <= 0) return
      carriedMs = Math.max(0, carriedMs - seconds * 1000)
      queue.addTime(questionId, seconds)
    }
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') {
        report()
        since = null
      } else if (since === null) since = performance.now()
    }

    reportRef.current = () => report()
    const interval = setInterval(report, REPORT_EVERY_MS)
    document.addEventListener('visibilitychange', onVisibility)
    return () => {
      clearInterval(interval)
      document.removeEventListener('visibilitychange', onVisibility)
      reportRef.current = () => undefined
      // Leaving the question: the part-second left over counts to the nearest second.
      report({ round: true })
    }
  }, [queue, questionId])

  return useCallback(() => reportRef.current(), [])
}
