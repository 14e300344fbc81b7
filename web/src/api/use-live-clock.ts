import type { QuizListItem } from '@quiz/contracts'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { availableQuizKeys } from './available-quizzes'
import { livePhase } from '../lib/live-mock'

/** Countdowns show seconds. */
const TICK_MS = 1000

/**
 * The time for the live mocks of a list, as one interval for the whole screen (not one per card), running only while
 * one of them has not ended. When a mock crosses into another phase the list is read again, since the server's
 * `can_start` changes there.
 */
export function useLiveClock(quizzes: readonly QuizListItem[] | undefined): number {
  const queryClient = useQueryClient()
  const [now, setNow] = useState(() => Date.now())
  const live = (quizzes ?? []).flatMap((quiz) => (quiz.live ? [{ id: quiz.id, live: quiz.live }] : []))
  const ticking = live.some((quiz) => livePhase(quiz.live, now) !== 'ended')
  const phases = live.map((quiz) => `${quiz.id}:${livePhase(quiz.live, now)}`).join(',')
  const seen = useRef(phases)

  useEffect(() => {
    if (!ticking) return
    const timer = window.setInterval(() => setNow(Date.now()), TICK_MS)
    return () => window.clearInterval(timer)
  }, [ticking])

  useEffect(() => {
    const before = new Map(seen.current.split(',').map((entry) => entry.split(':') as [string, string]))
    seen.current = phases
    const crossed = phases.split(',').some((entry) => {
      const [id, phase] = entry.split(':') as [string, string]
      return before.has(id) && before.get(id) !== phase
    })
    if (crossed) void queryClient.invalidateQueries({ queryKey: availableQuizKeys.available() })
  }, [phases, queryClient])

  return now
}
