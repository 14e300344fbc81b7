import type { QuizQuestion } from '@quiz/contracts'
import pLimit from 'p-limit'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { keepPicture } from '../../lib/picture-cache'
import { loadQuestion, storedQuestionNumbers } from './attempt-store'
import { quizQueries } from './quiz.api'

/** Questions fetched at once while the paper is kept: enough to fill a slow link, few enough not to crowd it. */
const CONCURRENCY = 4

/** The addresses of a question's pictures: its own and its options' (a paper fetched ahead holds them inside). */
export function picturesOf(question: QuizQuestion): string[] {
  return [question.image, ...question.options.map((option) => option.image)].flatMap((image) =>
    image?.picture && !image.picture.url.startsWith('data:') ? [image.picture.url] : [],
  )
}

/**
 * Fetches every question of the attempt not yet on the device (each one keeps itself there: quizQueries.question),
 * and every question's pictures, a few questions at a time. A question or picture that fails is left for the next
 * run. Reports how many questions are on the device; resolves with how many are there with all their pictures.
 * Once `signal` aborts (the exam screen closed), no question or picture is asked for any more: on a slow link the
 * next screen has the connection to itself.
 */
export async function keepPaper(
  attemptId: number,
  total: number,
  fetchQuestion: (number: number) => Promise<QuizQuestion | void>,
  {
    onKept = () => undefined,
    fetchPicture = keepPicture,
    signal,
  }: { onKept?: (count: number) => void; fetchPicture?: (url: string) => Promise<void>; signal?: AbortSignal } = {},
): Promise<number> {
  const stored = await storedQuestionNumbers(attemptId).catch(() => new Set<number>())
  const kept = new Set(stored)
  const whole = new Set<number>()
  onKept(kept.size)
  const limit = pLimit(CONCURRENCY)
  await Promise.allSettled(
    Array.from({ length: total }, (_, index) => index + 1).map((number) =>
      limit(async () => {
        if (signal?.aborted) return
        const fetched = stored.has(number) ? undefined : await fetchQuestion(number)
        if (!kept.has(number)) {
          kept.add(number)
          onKept(kept.size)
        }
        // A question kept by an earlier run (or on screen) may have pictures that are not: ask again, which the
        // worker or the browser answers from the device when they are.
        const question = fetched ?? (await loadQuestion(attemptId, number))
        if (signal?.aborted) return
        if (question) await Promise.all(picturesOf(question).map(fetchPicture))
        whole.add(number)
      }),
    ),
  )
  return whole.size
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
    const closed = new AbortController()
    let running = false
    let complete = false
    const run = async () => {
      if (running || complete || closed.signal.aborted) return
      running = true
      const count = await keepPaper(
        attemptId,
        total,
        (number) => queryClient.fetchQuery(quizQueries.question(quizId, attemptId, number)),
        { onKept: (count) => closed.signal.aborted || setKept({ attemptId, count }), signal: closed.signal },
      )
      complete = count >= total
      running = false
    }
    const onOnline = () => void run()
    onOnline()
    window.addEventListener('online', onOnline)
    return () => {
      closed.abort()
      window.removeEventListener('online', onOnline)
    }
  }, [attemptId, queryClient, quizId, total])

  return kept?.attemptId === attemptId ? kept.count : null
}
