import pLimit from 'p-limit'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { storedQuestionNumbers } from './attempt-store'
import { quizQueries } from './quiz.api'

/** Questions fetched at once while the paper is kept: enough to fill a slow link, few enough not to crowd it. */
const CONCURRENCY = 4

/**
 * Fetches every question of the attempt not yet on the device (each one keeps itself there: quizQueries.question),
 * a few at a time. A question that fails is left for the next run. Resolves with how many are on the device.
 */
export async function keepPaper(
  attemptId: number,
  total: number,
  fetchQuestion: (number: number) => Promise<unknown>,
  onKept: (count: number) => void = () => undefined,
): Promise<number> {
  const kept = await storedQuestionNumbers(attemptId).catch(() => new Set<number>())
  onKept(kept.size)
  const limit = pLimit(CONCURRENCY)
  const missing = Array.from({ length: total }, (_, index) => index + 1).filter((number) => !kept.has(number))
  await Promise.allSettled(
    missing.map((number) =>
      limit(async () => {
        await fetchQuestion(number)
        kept.add(number)
        onKept(kept.size)
      }),
    ),
  )
  return kept.size
}

/**
 * Keeps the whole paper of an attempt in progress on the device (WEB.md "Phones and bad networks"), starting when
 * the attempt opens and again whenever the connection returns, until every question is there.
 * Returns how many questions are on the device (null until known).
 */
export function useKeptPaper(quizId: number, attemptId: number | null, total: number) {
  const queryClient = useQueryClient()
  const [kept, setKept] = useState<{ attemptId: number; count: number } | null>(null)

  useEffect(() => {
    if (attemptId === null || total === 0) return
    let active = true
    let running = false
    let complete = false
    const run = async () => {
      if (running || complete || !active) return
      running = true
      const count = await keepPaper(
        attemptId,
        total,
        (number) => queryClient.fetchQuery(quizQueries.question(quizId, attemptId, number)),
        (count) => active && setKept({ attemptId, count }),
      )
      complete = count >= total
      running = false
    }
    const onOnline = () => void run()
    onOnline()
    window.addEventListener('online', onOnline)
    return () => {
      active = false
      window.removeEventListener('online', onOnline)
    }
  }, [attemptId, queryClient, quizId, total])

  return kept?.attemptId === attemptId ? kept.count : null
}
