import { useSyncExternalStore } from 'react'
import type { AnswerQueue, AnswerQueueSnapshot } from './answer-queue'

const empty: AnswerQueueSnapshot = {
  answers: {},
  marked: {},
  visited: {},
  pending: 0,
  status: 'saved',
  reconnected: null,
}
const noop = () => () => undefined

/** The queue's answers and save status, re-rendering on every change. */
export function useAnswerQueue(queue: AnswerQueue | null): AnswerQueueSnapshot {
  return useSyncExternalStore(queue ? queue.subscribe : noop, queue ? queue.getSnapshot : () => empty)
}
