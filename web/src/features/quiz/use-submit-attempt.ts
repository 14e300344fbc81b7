import type { SubmitResult } from '@quiz/contracts'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useRef, useState } from 'react'
import { practiceKeys } from '../../api/practice'
import type { AnswerQueue } from './answer-queue'
import type { WrittenQueue } from './written/written-queue'
import { removeAttempt } from './attempt-store'
import { isTransientError, quizKeys, submitQuiz } from './quiz.api'

/** Retries of a submission that got no answer or a 5xx, before the learner is asked to try again. */
const SUBMIT_RETRY_DELAYS_MS = [1000, 3000]

interface SubmitOptions {
  quizId: number
  userId: number
  attemptId: number | null
  queue: AnswerQueue | null
  /** The written answers' texts, saved before the hand-in (the server takes text only until then). */
  written?: WrittenQueue | null
  /** Called first: the current question's seconds go to the queue before it is read. */
  beforeSubmit: () => void
  /** The attempt is handed in: its countdown stops and leaves the device. */
  onSubmitted: () => void
}

interface Variables {
  automatic: boolean
  attemptId: number
  queue: AnswerQueue
  written: WrittenQueue | null
}

export interface Submission {
  /** Hands the attempt in; `automatic`: the time ran out (or the server says it has). */
  submit: (automatic: boolean) => void
  timeUp: boolean
  /** The request is out (with its retries). */
  sending: boolean
  /** Waiting for the connection to come back before sending (decision 019). */
  awaitingConnection: { automatic: boolean } | null
  failed: boolean
  outcome: { result: SubmitResult; automatic: boolean } | null
}

/**
 * Submitting the attempt, as a TanStack Query mutation: its retries cover a dropped request or a 5xx, and its
 * network mode holds a submission made offline (or whose retries found the connection gone) until the
 * onlineManager says the connection is back, then sends it without a tap. The answers stay on the device until
 * the server has them.
 */
export function useSubmitAttempt({
  quizId,
  userId,
  attemptId,
  queue,
  written = null,
  beforeSubmit,
  onSubmitted,
}: SubmitOptions): Submission {
  const queryClient = useQueryClient()
  const [timeUp, setTimeUp] = useState(false)
  // Set before `mutate` and cleared on failure: a second call (the timer and a 409 at once) must not make a second
  // mutation, which TanStack Query would also send once it is back online.
  const busy = useRef(false)
  const callbacks = useRef({ beforeSubmit, onSubmitted })
  useEffect(() => {
    callbacks.current = { beforeSubmit, onSubmitted }
  })

  const mutation = useMutation({
    // The queue is read when the request goes, not when it was asked for: a paused submission sends what is there then.
    mutationFn: async (variables: Variables) => {
      // A text the server has not got would be lost with the hand-in: a retry (or the connection) sends it first.
      if (variables.written?.hasPendingTexts() && !(await variables.written.drainTexts()))
        throw new Error('Written answers not saved yet.')
      return submitQuiz(quizId, {
        answers: variables.queue.allAnswers(),
        ...variables.queue.pendingExamState(),
        attempt_id: variables.attemptId,
      })
    },
    networkMode: 'online',
    retry: (failures, error) => failures < SUBMIT_RETRY_DELAYS_MS.length && isTransientError(error),
    retryDelay: (failures) => SUBMIT_RETRY_DELAYS_MS[failures] ?? 0,
    onSuccess: (_result, variables) => {
      variables.queue.clear()
      callbacks.current.onSubmitted()
      // The paper leaves the device with the attempt.
      void removeAttempt(userId, quizId, variables.attemptId).catch(() => undefined)
      void queryClient.invalidateQueries({ queryKey: quizKeys.list })
      void queryClient.invalidateQueries({ queryKey: quizKeys.results })
      // The wrong and unanswered questions are now due for practice: the nav's count changes.
      void queryClient.invalidateQueries({ queryKey: practiceKeys.deck })
    },
    onError: (_error, variables) => {
      busy.current = false
      variables.queue.start()
    },
  })
  const { mutate } = mutation

  const submit = useCallback(
    (automatic: boolean) => {
      if (automatic) setTimeUp(true)
      if (attemptId === null || !queue || busy.current) return
      busy.current = true
      callbacks.current.beforeSubmit()
      // The submission carries every answer, so autosave stops meanwhile (a save racing the submit would be refused).
      queue.pause()
      mutate({ automatic, attemptId, queue, written })
    },
    [attemptId, mutate, queue, written],
  )

  // The time ran out and the submission failed while the browser claimed a connection: hand in as soon as it
  // says the connection is back (an `online` event the onlineManager may not pass on, having never heard `offline`).
  const retryWhenOnline = timeUp && mutation.isError
  useEffect(() => {
    if (!retryWhenOnline) return
    const retry = () => submit(true)
    window.addEventListener('online', retry)
    return () => window.removeEventListener('online', retry)
  }, [retryWhenOnline, submit])

  const variables = mutation.variables
  return {
    submit,
    timeUp,
    sending: mutation.isPending && !mutation.isPaused,
    awaitingConnection:
      mutation.isPending && mutation.isPaused && variables ? { automatic: variables.automatic } : null,
    failed: mutation.isError,
    outcome: mutation.isSuccess && variables ? { result: mutation.data, automatic: variables.automatic } : null,
  }
}
