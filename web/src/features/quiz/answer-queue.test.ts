import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../api/api-error'
import {
  AnswerQueue,
  answerStorageKey,
  backoffDelay,
  removeStaleAnswerEntries,
  type AnswerQueueOptions,
  type SaveBatch,
} from './answer-queue'
import type { AnswerMap } from '@quiz/contracts'
import { isTransientError } from './quiz.api'

const KEY = answerStorageKey(7, 42)

function deferred() {
  let resolve!: (value?: unknown) => void
  let reject!: (error: unknown) => void
  const promise = new Promise((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

function setup(overrides: Partial<AnswerQueueOptions> = {}) {
  let online = true
  // Stands in for TanStack Query's onlineManager, which tells its listeners when the connection changes.
  const listeners = new Set<(online: boolean) => void>()
  const connection = {
    isOnline: () => online,
    subscribe: (listener: (online: boolean) => void) => {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
  }
  const sent: SaveBatch[] = []
  const send = vi.fn(async (changes: SaveBatch, _signal: AbortSignal): Promise<unknown> => {
    sent.push(changes)
    return undefined
  })
  const queue = new AnswerQueue({
    storageKey: KEY,
    send,
    isTransient: isTransientError,
    debounceMs: 500,
    connection,
    ...overrides,
  })
  return {
    queue,
    send,
    sent,
    goOffline() {
      online = false
      for (const listener of listeners) listener(false)
    },
    goOnline() {
      online = true
      for (const listener of listeners) listener(true)
    },
    stored: () => JSON.parse(localStorage.getItem(KEY) ?? 'null') as { answers: AnswerMap; pending: AnswerMap } | null,
  }
}

// Every queue waits on timers (debounce, backoff): the tests move the clock themselves.
beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

const networkError = () => new ApiError(0, 'network_error', 'Failed to fetch')

describe('AnswerQueue', () => {
  it('keeps the answer map: one option per question, changeable', () => {
    const { queue } = setup()
    queue.set(1, 11)
    queue.set(2, 21)
    queue.set(1, 12)
    expect(queue.getSnapshot().answers).toEqual({ '1': 12, '2': 21 })
    expect(queue.allAnswers()).toEqual({ '1': 12, '2': 21 })
  })

  it('writes every change to localStorage at once, before any request', () => {
    const { queue, stored, send } = setup()
    queue.start()
    queue.set(3, 31)
    expect(send).not.toHaveBeenCalled()
    expect(stored()).toMatchObject({ answers: { '3': 31 }, pending: { '3': 31 } })
  })

  it('batches changes made within the debounce window into one save', async () => {
    const { queue, sent, stored } = setup()
    queue.start()
    queue.set(1, 11)
    await vi.advanceTimersByTimeAsync(300)
    queue.set(2, 21)
    queue.set(1, 12)
    await vi.advanceTimersByTimeAsync(499)
    expect(sent).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(sent).toEqual([{ answers: { '1': 12, '2': 21 } }])
    expect(queue.getSnapshot()).toMatchObject({ pending: 0, status: 'saved' })
    expect(stored()).toMatchObject({ answers: { '1': 12, '2': 21 }, pending: {} })
  })

  it('restores answers and unsent changes after a reload, and sends the unsent ones', async () => {
    const first = setup()
    first.goOffline()
    first.queue.start()
    first.queue.set(1, 11)
    await vi.advanceTimersByTimeAsync(1000)
    expect(first.sent).toEqual([])

    // The page reloads: a new queue on the same storage key.
    const second = setup()
    expect(second.queue.getSnapshot().answers).toEqual({ '1': 11 })
    expect(second.queue.getSnapshot().pending).toBe(1)
    second.queue.mergeServerAnswers({ '2': 21 })
    second.queue.start()
    await vi.advanceTimersByTimeAsync(0)
    expect(second.sent).toEqual([{ answers: { '1': 11 } }])
    expect(second.queue.getSnapshot().answers).toEqual({ '1': 11, '2': 21 })
  })

  it('merges server answers under the local unsent changes', () => {
    const { queue } = setup()
    queue.set(1, 12) // changed here while the server still has 11
    queue.mergeServerAnswers({ '1': 11, '2': 21, '3': null })
    expect(queue.getSnapshot().answers).toEqual({ '1': 12, '2': 21, '3': null })
  })

  it('takes the server answers over local ones that were already saved', () => {
    localStorage.setItem(KEY, JSON.stringify({ answers: { '1': 11, '5': 51 }, pending: {} }))
    const { queue } = setup()
    queue.mergeServerAnswers({ '1': 13 })
    expect(queue.getSnapshot().answers).toEqual({ '1': 13 })
  })

  it('waits while offline and flushes when the connection returns', async () => {
    const { queue, sent, goOffline, goOnline } = setup()
    queue.start()
    goOffline()
    queue.set(4, 41)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(sent).toEqual([])
    expect(queue.getSnapshot()).toMatchObject({ status: 'offline', pending: 1 })
    queue.set(4, 42)
    goOnline()
    await vi.advanceTimersByTimeAsync(0)
    expect(sent).toEqual([{ answers: { '4': 42 } }])
    expect(queue.getSnapshot()).toMatchObject({ status: 'saved', pending: 0 })
  })

  it('retries a failed save with backoff until it gets through', async () => {
    const send = vi
      .fn<(changes: SaveBatch) => Promise<unknown>>()
      .mockRejectedValueOnce(networkError())
      .mockRejectedValueOnce(new ApiError(503, 'service_unavailable', 'down'))
      .mockResolvedValue({ saved: 1 })
    const { queue } = setup({ send })
    queue.start()
    queue.set(1, 11)
    await vi.advanceTimersByTimeAsync(500)
    expect(send).toHaveBeenCalledTimes(1)
    expect(queue.getSnapshot().status).toBe('retrying')
    await vi.advanceTimersByTimeAsync(backoffDelay(1) - 1)
    expect(send).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(send).toHaveBeenCalledTimes(2)
    await vi.advanceTimersByTimeAsync(backoffDelay(2))
    expect(send).toHaveBeenCalledTimes(3)
    expect(send).toHaveBeenLastCalledWith({ answers: { '1': 11 } }, expect.any(AbortSignal))
    expect(queue.getSnapshot()).toMatchObject({ status: 'saved', pending: 0 })
  })

  it('waits as long as a busy server asks (503 with Retry-After) before trying again', async () => {
    const send = vi
      .fn<(changes: SaveBatch) => Promise<unknown>>()
      .mockRejectedValueOnce(new ApiError(503, 'service_unavailable', 'busy', undefined, 5))
      .mockResolvedValue({ saved: 1 })
    const { queue } = setup({ send })
    queue.start()
    queue.set(1, 11)
    await vi.advanceTimersByTimeAsync(500)
    expect(send).toHaveBeenCalledTimes(1)
    expect(queue.getSnapshot().status).toBe('retrying')
    // The backoff alone would try again after 1 s; the server asked for 5.
    await vi.advanceTimersByTimeAsync(5000 - 1)
    expect(send).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(send).toHaveBeenCalledTimes(2)
    expect(queue.getSnapshot()).toMatchObject({ status: 'saved', pending: 0 })
  })

  it('grows the backoff and caps it at 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 10].map(backoffDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000])
  })

  it('keeps a change made while a save was in flight, and sends it next', async () => {
    const first = deferred()
    const send = vi
      .fn<(changes: SaveBatch) => Promise<unknown>>()
      .mockReturnValueOnce(first.promise)
      .mockResolvedValue({ saved: 1 })
    const { queue, stored } = setup({ send })
    queue.start()
    queue.set(1, 11)
    await vi.advanceTimersByTimeAsync(500)
    expect(send).toHaveBeenCalledWith({ answers: { '1': 11 } }, expect.any(AbortSignal))
    queue.set(1, 12)
    expect(stored()?.pending).toEqual({ '1': 12 })
    first.resolve({ saved: 1 })
    await vi.advanceTimersByTimeAsync(0)
    // The first save stored 11, which is stale: 12 goes out right after it.
    expect(send).toHaveBeenCalledTimes(2)
    expect(send).toHaveBeenLastCalledWith({ answers: { '1': 12 } }, expect.any(AbortSignal))
    expect(queue.getSnapshot()).toMatchObject({ status: 'saved', pending: 0, answers: { '1': 12 } })
    expect(stored()).toMatchObject({ answers: { '1': 12 }, pending: {} })
  })

  it('drains: sends a change still in its debounce at once, waits for a save in flight and what followed it', async () => {
    const first = deferred()
    const send = vi
      .fn<(changes: SaveBatch) => Promise<unknown>>()
      .mockReturnValueOnce(first.promise)
      .mockResolvedValue({ saved: 1 })
    const { queue } = setup({ send })
    queue.start()
    queue.set(1, 11)
    await vi.advanceTimersByTimeAsync(500)
    queue.set(2, 21)
    let drained: boolean | null = null
    void queue.drain().then((done) => (drained = done))
    await vi.advanceTimersByTimeAsync(0)
    // The first save is still out: nothing is drained yet, and the second change waits for it.
    expect(drained).toBeNull()
    expect(send).toHaveBeenCalledTimes(1)
    first.resolve({ saved: 1 })
    await vi.advanceTimersByTimeAsync(0)
    expect(send).toHaveBeenLastCalledWith({ answers: { '2': 21 } }, expect.any(AbortSignal))
    expect(drained).toBe(true)
    expect(queue.getSnapshot()).toMatchObject({ status: 'saved', pending: 0 })
  })

  it('drains to false, keeping the changes, when they cannot get through now', async () => {
    const send = vi.fn<(changes: SaveBatch) => Promise<unknown>>().mockRejectedValueOnce(networkError())
    const { queue, goOffline, stored } = setup({ send })
    queue.start()
    queue.set(1, 11)
    expect(await queue.drain()).toBe(false)
    expect(queue.getSnapshot().status).toBe('retrying')
    goOffline()
    expect(await queue.drain()).toBe(false)
    expect(send).toHaveBeenCalledTimes(1)
    expect(stored()?.pending).toEqual({ '1': 11 })
    queue.pause()
    expect(await queue.drain()).toBe(false)
  })

  it('drains at once when nothing is queued', async () => {
    const { queue, send } = setup()
    queue.start()
    expect(await queue.drain()).toBe(true)
    expect(send).not.toHaveBeenCalled()
  })

  it('reports a refusal that will not pass (409 after the deadline) instead of retrying', async () => {
    const refusal = new ApiError(409, 'attempt_closed', 'The time for this attempt is over.')
    const send = vi.fn<(changes: SaveBatch) => Promise<unknown>>().mockRejectedValue(refusal)
    const onFailure = vi.fn()
    const { queue, stored } = setup({ send, onFailure })
    queue.start()
    queue.set(1, 11)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(send).toHaveBeenCalledTimes(1)
    expect(onFailure).toHaveBeenCalledWith(refusal)
    expect(queue.getSnapshot().status).toBe('failed')
    // The answer is still kept on the device.
    expect(stored()?.pending).toEqual({ '1': 11 })
  })

  it('sends nothing while paused, and resumes on start', async () => {
    const { queue, sent } = setup()
    queue.start()
    queue.pause()
    queue.set(1, 11)
    await vi.advanceTimersByTimeAsync(5000)
    expect(sent).toEqual([])
    queue.start()
    await vi.advanceTimersByTimeAsync(0)
    expect(sent).toEqual([{ answers: { '1': 11 } }])
  })

  it('ignores the online event while paused', async () => {
    const { queue, sent, goOffline, goOnline } = setup()
    queue.start()
    goOffline()
    queue.set(1, 11)
    queue.pause()
    goOnline()
    await vi.advanceTimersByTimeAsync(5000)
    expect(sent).toEqual([])
  })

  it('clears the stored entry after the submission and stops', async () => {
    const { queue, sent } = setup()
    queue.start()
    queue.set(1, 11)
    queue.clear()
    expect(localStorage.getItem(KEY)).toBeNull()
    queue.set(2, 21)
    await vi.advanceTimersByTimeAsync(5000)
    expect(sent).toEqual([])
    expect(localStorage.getItem(KEY)).toBeNull()
  })

  it('notifies subscribers and keeps the snapshot stable between changes', () => {
    const { queue } = setup()
    const listener = vi.fn()
    const unsubscribe = queue.subscribe(listener)
    const before = queue.getSnapshot()
    expect(queue.getSnapshot()).toBe(before)
    queue.set(1, 11)
    expect(listener).toHaveBeenCalled()
    expect(queue.getSnapshot()).not.toBe(before)
    unsubscribe()
    listener.mockClear()
    queue.set(1, 12)
    expect(listener).not.toHaveBeenCalled()
  })

  it('survives an unreadable storage entry', () => {
    localStorage.setItem(KEY, '{not json')
    const { queue } = setup()
    expect(queue.getSnapshot().answers).toEqual({})
  })
})

describe('AnswerQueue: marks, visits and seconds', () => {
  it('sends marks, first visits and seconds in the same batch as the answers', async () => {
    const { queue, sent } = setup()
    queue.start()
    queue.visit(1)
    queue.visit(1)
    queue.set(1, 11)
    queue.setMarked(1, true)
    queue.addTime(1, 7)
    queue.addTime(1, 3)
    queue.visit(2)
    queue.setMarked(2, true)
    queue.setMarked(2, false)
    await vi.advanceTimersByTimeAsync(500)
    expect(sent).toEqual([
      { answers: { '1': 11 }, marked: { '1': true, '2': false }, visited: [1, 2], time_spent: { '1': 10 } },
    ])
    expect(queue.getSnapshot()).toMatchObject({
      marked: { '1': true, '2': false },
      visited: { '1': true, '2': true },
      pending: 0,
      status: 'saved',
    })
    // A second visit is not sent again.
    queue.visit(1)
    await vi.advanceTimersByTimeAsync(5000)
    expect(sent).toHaveLength(1)
  })

  it('keeps seconds added while a save was out, and only subtracts what was sent', async () => {
    const first = deferred()
    const send = vi
      .fn<(changes: SaveBatch) => Promise<unknown>>()
      .mockReturnValueOnce(first.promise)
      .mockResolvedValue({ saved: 0 })
    const { queue } = setup({ send })
    queue.start()
    queue.addTime(3, 5)
    await vi.advanceTimersByTimeAsync(500)
    expect(send).toHaveBeenLastCalledWith({ time_spent: { '3': 5 } }, expect.any(AbortSignal))
    queue.addTime(3, 2)
    first.resolve()
    await vi.advanceTimersByTimeAsync(0)
    expect(send).toHaveBeenLastCalledWith({ time_spent: { '3': 2 } }, expect.any(AbortSignal))
  })

  it('restores unsent marks, visits and seconds after a reload and merges the server state under them', async () => {
    const first = setup()
    first.goOffline()
    first.queue.start()
    first.queue.visit(4)
    first.queue.setMarked(4, true)
    first.queue.setMarked(5, true)
    first.queue.setMarked(5, false)
    first.queue.addTime(4, 12)
    await vi.advanceTimersByTimeAsync(1000)
    expect(first.sent).toEqual([])

    const second = setup()
    second.queue.mergeServerState({ answers: { '6': 61 }, marked: [5, 6], visited: [5, 6] })
    expect(second.queue.getSnapshot()).toMatchObject({
      answers: { '6': 61 },
      marked: { '4': true, '5': false, '6': true },
      visited: { '4': true, '5': true, '6': true },
    })
    second.queue.start()
    await vi.advanceTimersByTimeAsync(0)
    expect(second.sent).toEqual([{ marked: { '4': true, '5': false }, visited: [4], time_spent: { '4': 12 } }])
  })

  it('hands the unsent marks, visits and seconds to the submission', () => {
    const { queue } = setup()
    queue.set(1, 11)
    queue.setMarked(2, true)
    queue.visit(2)
    queue.addTime(2, 4)
    expect(queue.pendingExamState()).toEqual({ marked: { '2': true }, visited: [2], time_spent: { '2': 4 } })
  })

  it('sends at most a day of seconds per question in one report, and the rest in the next', async () => {
    const { queue, sent } = setup()
    queue.start()
    queue.addTime(1, 90_000)
    await vi.advanceTimersByTimeAsync(500)
    // The rest goes out at once after the first report (a 0 ms timer is 1 ms in Node).
    await vi.advanceTimersByTimeAsync(1)
    expect(sent).toEqual([{ time_spent: { '1': 86_400 } }, { time_spent: { '1': 3_600 } }])
  })

  it('ignores zero, negative and fractional seconds', () => {
    const { queue } = setup()
    queue.addTime(1, 0)
    queue.addTime(1, -3)
    queue.addTime(1, 1.5)
    expect(queue.pendingExamState()).toEqual({})
  })
})

describe('removeStaleAnswerEntries', () => {
  it('removes the entries of the same quiz other attempts left, and nothing else', () => {
    localStorage.setItem(answerStorageKey(7, 41), '{}')
    localStorage.setItem(answerStorageKey(7, 42), '{}')
    localStorage.setItem(answerStorageKey(8, 1), '{}')
    localStorage.setItem('accessToken', 'x')
    removeStaleAnswerEntries(7, 42)
    expect(localStorage.getItem(answerStorageKey(7, 41))).toBeNull()
    expect(localStorage.getItem(answerStorageKey(7, 42))).toBe('{}')
    expect(localStorage.getItem(answerStorageKey(8, 1))).toBe('{}')
    expect(localStorage.getItem('accessToken')).toBe('x')
  })
})

describe('AnswerQueue after an outage', () => {
  it('gives up a save that was out when the connection dropped, says offline, and sends it once back', async () => {
    // A request out when the connection drops can hang until its 15 s timeout: only an abort ends it.
    let hung: AbortSignal | null = null
    const t = setup()
    t.send.mockImplementationOnce(
      (_batch, signal) =>
        new Promise((_resolve, reject) => {
          hung = signal
          signal.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')))
        }),
    )
    t.queue.start()
    t.queue.set(1, 11)
    await vi.advanceTimersByTimeAsync(500)
    expect(t.queue.getSnapshot().status).toBe('saving')
    t.goOffline()
    await vi.advanceTimersByTimeAsync(0)
    expect(hung!.aborted).toBe(true)
    expect(t.queue.getSnapshot()).toMatchObject({ status: 'offline', pending: 1 })
    t.queue.set(2, 21)
    await vi.advanceTimersByTimeAsync(500)
    expect(t.send).toHaveBeenCalledTimes(1)
    t.goOnline()
    await vi.advanceTimersByTimeAsync(0)
    expect(t.sent.at(-1)).toEqual({ answers: { '1': 11, '2': 21 } })
    expect(t.queue.getSnapshot()).toMatchObject({ status: 'saved', reconnected: { sent: 2 } })
  })

  it('says how many answers went once everything queued offline has reached the server, then forgets it', async () => {
    const t = setup()
    t.queue.start()
    t.goOffline()
    t.queue.set(1, 11)
    t.queue.set(2, 21)
    t.queue.set(2, 22)
    t.queue.setMarked(3, true)
    await vi.advanceTimersByTimeAsync(500)
    expect(t.queue.getSnapshot()).toMatchObject({ status: 'offline', reconnected: null })
    t.goOnline()
    await vi.advanceTimersByTimeAsync(0)
    expect(t.sent.at(-1)).toEqual({ answers: { '1': 11, '2': 22 }, marked: { '3': true } })
    expect(t.queue.getSnapshot()).toMatchObject({ status: 'saved', reconnected: { sent: 2 } })
    t.queue.dismissReconnected()
    expect(t.queue.getSnapshot().reconnected).toBeNull()
    // Saves made online say nothing.
    t.queue.set(4, 41)
    await vi.advanceTimersByTimeAsync(500)
    expect(t.queue.getSnapshot()).toMatchObject({ status: 'saved', reconnected: null })
  })

  it('tells whether the device held this attempt when the queue was made', () => {
    expect(setup().queue.restored).toBe(false)
    localStorage.setItem(KEY, JSON.stringify({ answers: { '1': 11 }, pending: {} }))
    expect(setup().queue.restored).toBe(true)
  })
})
