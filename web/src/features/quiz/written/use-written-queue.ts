import { useFlushWhenHidden } from '../use-flush-when-hidden'
import type { SavedWrittenAnswer } from '@quiz/contracts'
import { useEffect, useState, useSyncExternalStore } from 'react'
import { deleteWrittenPage, orderWrittenPages, putWrittenText, uploadWrittenPage } from './written.api'
import { indexedDbPageStore } from './page-store'
import { WrittenQueue } from './written-queue'
import type { WrittenSnapshot } from './written-snapshot'
import { writtenStorageKey } from './written-stored'

const empty: WrittenSnapshot = {
  answers: {},
  answered: {},
  pagesLeft: 0,
  textsLeft: 0,
  status: 'saved',
  closed: null,
}
const noop = () => () => undefined

/** The attempt's written answers as the attempt's payload brought them (docs/decisions/081). */
export interface OpenedWritten {
  /** As the server holds them; absent for a paper without written questions. */
  saved: Readonly<Record<string, SavedWrittenAnswer>> | undefined
  /** The payload is this device's copy of the attempt (offline): older than the queue's own entry, when it has one. */
  fromDevice: boolean
}

/**
 * The attempt's written answers as this device holds and sends them: one queue per attempt, made on first use and
 * started from what the server holds (`opened`), this device's unsent changes winning (WrittenQueue.mergeServer).
 */
export function makeWrittenQueue(attemptId: number, opened?: OpenedWritten) {
  const queue = new WrittenQueue({
    storageKey: writtenStorageKey(attemptId),
    pageStore: indexedDbPageStore(attemptId),
    transport: {
      putText: (questionId, text) => putWrittenText(attemptId, questionId, text),
      uploadPage: (questionId, image) => uploadWrittenPage(attemptId, questionId, image),
      deletePage: (questionId, pageId) => deleteWrittenPage(attemptId, questionId, pageId),
      orderPages: (questionId, order) => orderWrittenPages(attemptId, questionId, order),
    },
  })
  // As for answers (use-attempt-session.ts): a copy of the attempt kept on this device is older than the queue's own
  // entry, which then stands as it is; the server's own answer is folded in.
  if (opened?.saved && (!opened.fromDevice || !queue.restored)) queue.mergeServer(opened.saved)
  return queue
}

/**
 * The exam's written answers: sending while the screen is open (after the hand-in too: useWrittenHandIn). `opened`
 * is read once, when the attempt's queue is made: before any written question is drawn, so each starts from it.
 */
export function useWrittenQueue(attemptId: number | null, opened?: OpenedWritten) {
  const [made, setMade] = useState<{ attemptId: number; queue: WrittenQueue } | null>(null)
  // Made while rendering, once per attempt (React's way to derive state from a prop).
  if (attemptId !== null && made?.attemptId !== attemptId)
    setMade({ attemptId, queue: makeWrittenQueue(attemptId, opened) })
  const queue = made !== null && made.attemptId === attemptId ? made.queue : null
  const snapshot = useSyncExternalStore(queue ? queue.subscribe : noop, queue ? queue.getSnapshot : () => empty)

  useFlushWhenHidden(queue)
  useEffect(() => {
    if (!queue) return
    queue.start()
    return () => {
      // Handed in with photos still to send: they keep going while the learner is elsewhere in the app.
      if (queue.handedIn) queue.finishInBackground()
      else queue.pause()
    }
  }, [queue])

  return { queue, snapshot }
}

/**
 * After the hand-in, texts are closed and pages keep going until every one is on the server or the upload grace is
 * over; then the device forgets the attempt's written answers.
 */
export function useWrittenHandIn(queue: WrittenQueue | null, snapshot: WrittenSnapshot, submitted: boolean) {
  const settled = submitted && snapshot.pagesLeft === 0 && snapshot.status === 'saved'
  useEffect(() => {
    if (!queue || !submitted) return
    queue.closeTexts()
    if (settled) queue.clear()
  }, [queue, submitted, settled])
}
