import { useFlushWhenHidden } from './use-flush-when-hidden'
import { useEffect, useSyncExternalStore } from 'react'
import type { AnswerQueue, AnswerQueueSnapshot } from './answer-queue'

/** How long "Back online: N answers sent" stays on the screen. */
const RECONNECTED_NOTICE_MS = 10_000

const empty: AnswerQueueSnapshot = {
  answers: {},
  marked: {},
  visited: {},
  pending: 0,
  status: 'saved',
  reconnected: null,
}
const noop = () => () => undefined

/**
 * Saving while the exam is on screen: the queue sends, a hidden page sends at once (phones kill background tabs),
 * and the "back online" notice goes after a while. Returns the queue's answers and save status, re-rendering on
 * every change.
 */
export function useAnswerSaving(queue: AnswerQueue | null): AnswerQueueSnapshot {
  const snapshot = useSyncExternalStore(queue ? queue.subscribe : noop, queue ? queue.getSnapshot : () => empty)

  useFlushWhenHidden(queue)
  useEffect(() => {
    if (!queue) return
    queue.start()
    return () => {
      void queue.flush()
      queue.pause()
    }
  }, [queue])

  const reconnected = snapshot.reconnected
  useEffect(() => {
    if (!reconnected || !queue) return
    const timer = setTimeout(() => queue.dismissReconnected(), RECONNECTED_NOTICE_MS)
    return () => clearTimeout(timer)
  }, [queue, reconnected])

  return snapshot
}
