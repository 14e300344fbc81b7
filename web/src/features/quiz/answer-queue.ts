import type { AnswerMap } from './quiz.api'

export type SaveStatus = 'saved' | 'saving' | 'offline' | 'retrying' | 'failed'

export interface AnswerQueueSnapshot {
  /** Every answer the learner has chosen, saved or not. */
  answers: AnswerMap
  /** How many changes the server has not confirmed yet. */
  pending: number
  status: SaveStatus
}

export interface AnswerQueueOptions {
  storageKey: string
  /** Sends a batch of changes (PUT /answers/); resolves once the server stored them. */
  send: (changes: AnswerMap) => Promise<unknown>
  /** Whether a failure may pass on its own (network, 5xx): those are retried, others reported to onFailure. */
  isTransient: (error: unknown) => boolean
  onFailure?: (error: unknown) => void
  /** Changes made within this window go out as one request. */
  debounceMs?: number
  /** Wait before the n-th retry (n from 1). */
  retryDelayMs?: (failures: number) => number
  storage?: Storage
  isOnline?: () => boolean
  /** Where the `online` event is heard (window). */
  events?: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>
}

interface Stored {
  answers: AnswerMap
  pending: AnswerMap
}

const DEFAULT_DEBOUNCE_MS = 700

/** 1 s, 2 s, 4 s ... capped at 30 s. */
export function backoffDelay(failures: number) {
  return Math.min(30_000, 1000 * 2 ** Math.max(0, failures - 1))
}

const storageKeyPrefix = 'quiz-answers'

/** One localStorage entry per attempt, so a new attempt never inherits another's answers. */
export function answerStorageKey(quizId: number, attemptId: number) {
  return `${storageKeyPrefix}:${quizId}:${attemptId}`
}

/** Drops entries this quiz's earlier attempts left behind (an attempt finished on another device, say). */
export function removeStaleAnswerEntries(quizId: number, attemptId: number, storage: Storage = localStorage) {
  try {
    const keep = answerStorageKey(quizId, attemptId)
    const prefix = `${storageKeyPrefix}:${quizId}:`
    const stale: string[] = []
    for (let index = 0; index < storage.length; index += 1) {
      const key = storage.key(index)
      if (key && key.startsWith(prefix) && key !== keep) stale.push(key)
    }
    for (const key of stale) storage.removeItem(key)
  } catch {
    // Storage unavailable: nothing to clean.
  }
}

function isEmpty(map: AnswerMap) {
  for (const _ in map) return false
  return true
}

/**
 * The learner's answers for one attempt, and the queue of changes the server has not stored yet. Both are kept
 * in localStorage on every change, so a reload, a crash or a dropped connection loses nothing. Changes go out
 * batched after a short pause; a failed send is retried with backoff, and a send waiting for the connection
 * goes out as soon as the browser says it is back.
 */
export class AnswerQueue {
  private answers: AnswerMap = {}
  private pending: AnswerMap = {}
  private status: SaveStatus = 'saved'
  private snapshot: AnswerQueueSnapshot
  private readonly listeners = new Set<() => void>()
  private timer: ReturnType<typeof setTimeout> | null = null
  private inFlight = false
  private failures = 0
  private running = false
  private disposed = false
  private readonly options: Required<Omit<AnswerQueueOptions, 'onFailure' | 'storage' | 'events'>> &
    Pick<AnswerQueueOptions, 'onFailure' | 'storage' | 'events'>

  constructor(options: AnswerQueueOptions) {
    this.options = {
      debounceMs: DEFAULT_DEBOUNCE_MS,
      retryDelayMs: backoffDelay,
      isOnline: () => navigator.onLine,
      storage: typeof localStorage === 'undefined' ? undefined : localStorage,
      events: typeof window === 'undefined' ? undefined : window,
      ...options,
    }
    this.load()
    this.snapshot = this.makeSnapshot()
  }

  private readonly handleOnline = () => {
    // The connection is back: send now, and start the backoff over.
    this.failures = 0
    void this.flush()
  }

  private readonly handleOffline = () => {
    if (!isEmpty(this.pending) && !this.inFlight) this.setStatus('offline')
  }

  private load() {
    try {
      const raw = this.options.storage?.getItem(this.options.storageKey)
      if (!raw) return
      const stored = JSON.parse(raw) as Partial<Stored>
      this.answers = { ...stored.answers }
      this.pending = { ...stored.pending }
    } catch {
      // Unreadable entry: start empty (the server still has what it saved).
    }
  }

  private persist() {
    try {
      this.options.storage?.setItem(
        this.options.storageKey,
        JSON.stringify({ answers: this.answers, pending: this.pending } satisfies Stored),
      )
    } catch {
      // Storage full or disabled: the server copy and memory still hold the answers.
    }
  }

  private makeSnapshot(): AnswerQueueSnapshot {
    return { answers: { ...this.answers }, pending: Object.keys(this.pending).length, status: this.status }
  }

  private emit() {
    this.snapshot = this.makeSnapshot()
    for (const listener of this.listeners) listener()
  }

  private setStatus(status: SaveStatus) {
    this.status = status
    this.emit()
  }

  private schedule(delayMs: number) {
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = setTimeout(() => {
      this.timer = null
      void this.flush()
    }, delayMs)
  }

  private cancelTimer() {
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener)
    return () => {
      this.listeners.delete(listener)
    }
  }

  getSnapshot = () => this.snapshot

  /** Every answer, for the submission (which carries the full map). */
  allAnswers(): AnswerMap {
    return { ...this.answers }
  }

  /**
   * Folds in the answers the server already holds. Changes still queued here are newer than anything the
   * server has, so they win; everything else comes from the server.
   */
  mergeServerAnswers(server: AnswerMap) {
    this.answers = { ...server, ...this.pending }
    this.persist()
    this.emit()
    if (this.running && !isEmpty(this.pending)) this.schedule(0)
  }

  /** Starts sending: listens for the connection coming back and sends what is queued. */
  start() {
    if (this.running || this.disposed) return
    this.running = true
    this.options.events?.addEventListener('online', this.handleOnline)
    this.options.events?.addEventListener('offline', this.handleOffline)
    if (!isEmpty(this.pending)) this.schedule(0)
  }

  /** Stops sending (during a submission, or when the page goes away); changes stay queued in storage. */
  pause() {
    this.running = false
    this.cancelTimer()
    this.options.events?.removeEventListener('online', this.handleOnline)
    this.options.events?.removeEventListener('offline', this.handleOffline)
  }

  /** The attempt is over: forget its answers here (the server has them). */
  clear() {
    this.pause()
    this.disposed = true
    this.pending = {}
    try {
      this.options.storage?.removeItem(this.options.storageKey)
    } catch {
      // Nothing to remove.
    }
  }

  set(questionId: number | string, optionId: number | null) {
    if (this.disposed) return
    const key = String(questionId)
    this.answers = { ...this.answers, [key]: optionId }
    this.pending = { ...this.pending, [key]: optionId }
    this.persist()
    if (this.status === 'saved' || this.status === 'failed') this.status = 'saving'
    this.emit()
    if (this.running) this.schedule(this.options.debounceMs)
  }

  /** Sends the queued changes now (also what the debounce timer, the retries and the `online` event call). */
  async flush(): Promise<void> {
    this.cancelTimer()
    if (!this.running || this.inFlight || isEmpty(this.pending)) return
    if (!this.options.isOnline()) {
      // Nothing would get through: wait for the `online` event instead of burning retries.
      this.setStatus('offline')
      return
    }
    const batch = { ...this.pending }
    this.inFlight = true
    this.setStatus('saving')
    try {
      await this.options.send(batch)
      this.failures = 0
      // A change made while the request was out stays queued: only what the server stored leaves the queue.
      const rest: AnswerMap = {}
      for (const [key, value] of Object.entries(this.pending)) {
        if (!(key in batch) || batch[key] !== value) rest[key] = value
      }
      if (this.disposed) return
      this.pending = rest
      this.persist()
      this.setStatus(isEmpty(rest) ? 'saved' : 'saving')
      if (this.running && !isEmpty(rest)) this.schedule(0)
    } catch (error) {
      if (this.disposed) return
      if (this.options.isTransient(error)) {
        this.failures += 1
        this.setStatus(this.options.isOnline() ? 'retrying' : 'offline')
        if (this.running) this.schedule(this.options.retryDelayMs(this.failures))
      } else {
        this.setStatus('failed')
        this.options.onFailure?.(error)
      }
    } finally {
      this.inFlight = false
    }
  }
}
