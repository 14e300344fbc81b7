import { onlineManager } from '@tanstack/react-query'
import type { AnswerMap, AttemptInfo, SaveAnswersBody } from '@quiz/contracts'

export type SaveStatus = 'saved' | 'saving' | 'offline' | 'retrying' | 'failed'

/** One autosave: what changed since the last one the server confirmed (API.md "Exam feel"); empty parts left out. */
export type SaveBatch = SaveAnswersBody
/** `{questionId: marked}`. */
export type MarkMap = NonNullable<SaveBatch['marked']>
/** `{questionId: seconds}`. */
export type TimeMap = NonNullable<SaveBatch['time_spent']>

/** Whether the device is online and when that changes: TanStack Query's onlineManager unless a test injects one. */
export interface Connection {
  isOnline: () => boolean
  subscribe: (listener: (online: boolean) => void) => () => void
}

export interface AnswerQueueSnapshot {
  /** Every answer the learner has chosen, saved or not. */
  answers: AnswerMap
  /** Review marks, saved or not (true: marked). */
  marked: MarkMap
  /** Questions shown to the learner, saved or not. */
  visited: Record<string, true>
  /** How many answer and mark changes the server has not confirmed yet (visits and seconds are not counted). */
  pending: number
  status: SaveStatus
  /**
   * Set once everything queued while the connection was down has reached the server: how many questions' answers
   * went (the screen says so) until `dismissReconnected`.
   */
  reconnected: { sent: number } | null
}

/** The attempt's state as the server holds it (GET /api/quizzes/{id}/). */
export type ServerState = { answers: AnswerMap } & Partial<Pick<AttemptInfo, 'marked' | 'visited'>>

export interface AnswerQueueOptions {
  storageKey: string
  /**
   * Sends a batch of changes (PUT /answers/); resolves once the server stored them. The signal aborts it when the
   * connection drops while it is out.
   */
  send: (batch: SaveBatch, signal: AbortSignal) => Promise<unknown>
  /** Whether a failure may pass on its own (network, 5xx): those are retried, others reported to onFailure. */
  isTransient: (error: unknown) => boolean
  onFailure?: (error: unknown) => void
  /** Changes made within this window go out as one request. */
  debounceMs?: number
  /** Wait before the n-th retry (n from 1); never shorter than a Retry-After the server sent with the failure. */
  retryDelayMs?: (failures: number) => number
  storage?: Storage
  /** The same notion of "online" as the exam's queries and its submission (onlineManager). */
  connection?: Connection
}

interface Stored {
  answers: AnswerMap
  pending: AnswerMap
  marked?: MarkMap
  pendingMarks?: MarkMap
  visited?: string[]
  pendingVisits?: string[]
  pendingTime?: TimeMap
}

const DEFAULT_DEBOUNCE_MS = 700
/** API.md "Exam feel": seconds per question in one report (the contracts' MAX_REPORTED_SECONDS). */
const MAX_SECONDS_PER_REPORT = 86_400

/** 1 s, 2 s, 4 s ... capped at 30 s. */
export function backoffDelay(failures: number) {
  return Math.min(30_000, 1000 * 2 ** Math.max(0, failures - 1))
}

const storageKeyPrefix = 'quiz-answers'

/** One localStorage entry per attempt, so a new attempt never inherits another's answers. */
export function answerStorageKey(quizId: number, attemptId: number) {
  return `${storageKeyPrefix}:${quizId}:${attemptId}`
}

/**
 * Drops entries this quiz's earlier attempts left behind (an attempt finished on another device, say): the answer
 * queue's, or those of another per-attempt entry named `keyPrefix:quizId:attemptId` (the countdown's anchor).
 */
export function removeStaleAnswerEntries(
  quizId: number,
  attemptId: number,
  storage: Storage = localStorage,
  keyPrefix = storageKeyPrefix,
) {
  try {
    const keep = `${keyPrefix}:${quizId}:${attemptId}`
    const prefix = `${keyPrefix}:${quizId}:`
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

function isEmpty(map: object) {
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
  private marked: MarkMap = {}
  private pendingMarks: MarkMap = {}
  private visited = new Set<string>()
  private pendingVisits = new Set<string>()
  /** Seconds not yet confirmed by the server, to be added to its totals. */
  private pendingTime: TimeMap = {}
  private status: SaveStatus = 'saved'
  private snapshot: AnswerQueueSnapshot
  private readonly listeners = new Set<() => void>()
  private timer: ReturnType<typeof setTimeout> | null = null
  private inFlight = false
  /** The save now out, so that `drain` can wait for it, and its abort. */
  private sending: Promise<void> | null = null
  private abortSending: AbortController | null = null
  private failures = 0
  private running = false
  private disposed = false
  /** Whether a send found the connection down since the queue last emptied, and what went since it came back. */
  private wasOffline = false
  private readonly sentAfterOffline = new Set<string>()
  private reconnected: { sent: number } | null = null
  /** Whether this device held the attempt's entry when the queue was made (a reload, or offline). */
  readonly restored: boolean
  private unsubscribeConnection: (() => void) | null = null
  private readonly options: Required<Omit<AnswerQueueOptions, 'onFailure' | 'storage'>> &
    Pick<AnswerQueueOptions, 'onFailure' | 'storage'>

  constructor(options: AnswerQueueOptions) {
    this.options = {
      debounceMs: DEFAULT_DEBOUNCE_MS,
      retryDelayMs: backoffDelay,
      storage: typeof localStorage === 'undefined' ? undefined : localStorage,
      connection: onlineManager,
      ...options,
    }
    this.restored = this.load()
    this.snapshot = this.makeSnapshot()
  }

  private readonly handleConnection = (online: boolean) => {
    if (online) {
      // The connection is back: send now, and start the backoff over.
      this.failures = 0
      void this.flush()
    } else if (this.inFlight) {
      // A save out when the connection drops can hang until its timeout, and the connection coming back would find
      // the queue still busy: give it up (a save is idempotent), so the screen says offline and it goes again.
      this.abortSending?.abort()
    } else if (this.hasPending()) {
      this.setStatus('offline')
    }
  }

  private isOnline() {
    return this.options.connection.isOnline()
  }

  private load(): boolean {
    try {
      const raw = this.options.storage?.getItem(this.options.storageKey)
      if (!raw) return false
      const stored = JSON.parse(raw) as Partial<Stored>
      this.answers = { ...stored.answers }
      this.pending = { ...stored.pending }
      this.marked = { ...stored.marked }
      this.pendingMarks = { ...stored.pendingMarks }
      this.visited = new Set(stored.visited)
      this.pendingVisits = new Set(stored.pendingVisits)
      this.pendingTime = { ...stored.pendingTime }
      return true
    } catch {
      // Unreadable entry: start empty (the server still has what it saved).
      return false
    }
  }

  private persist() {
    try {
      this.options.storage?.setItem(
        this.options.storageKey,
        JSON.stringify({
          answers: this.answers,
          pending: this.pending,
          marked: this.marked,
          pendingMarks: this.pendingMarks,
          visited: [...this.visited],
          pendingVisits: [...this.pendingVisits],
          pendingTime: this.pendingTime,
        } satisfies Stored),
      )
    } catch {
      // Storage full or disabled: the server copy and memory still hold the answers.
    }
  }

  private makeSnapshot(): AnswerQueueSnapshot {
    const visited: Record<string, true> = {}
    for (const key of this.visited) visited[key] = true
    return {
      answers: { ...this.answers },
      marked: { ...this.marked },
      visited,
      pending: Object.keys(this.pending).length + Object.keys(this.pendingMarks).length,
      status: this.status,
      reconnected: this.reconnected,
    }
  }

  private hasPending() {
    return (
      !isEmpty(this.pending) || !isEmpty(this.pendingMarks) || this.pendingVisits.size > 0 || !isEmpty(this.pendingTime)
    )
  }

  /** What the server has not confirmed yet, as one request body. */
  private batch(): SaveBatch {
    const batch: SaveBatch = {}
    if (!isEmpty(this.pending)) batch.answers = { ...this.pending }
    if (!isEmpty(this.pendingMarks)) batch.marked = { ...this.pendingMarks }
    if (this.pendingVisits.size > 0) batch.visited = [...this.pendingVisits].map(Number)
    if (!isEmpty(this.pendingTime)) {
      // The server refuses more than a day in one report (a 400 would stall the queue): the rest goes next time.
      batch.time_spent = {}
      for (const [key, seconds] of Object.entries(this.pendingTime)) {
        batch.time_spent[key] = Math.min(seconds, MAX_SECONDS_PER_REPORT)
      }
    }
    return batch
  }

  /** Removes from the queue what the server stored; changes made while the request was out stay queued. */
  private confirm(batch: SaveBatch) {
    const rest: AnswerMap = {}
    for (const [key, value] of Object.entries(this.pending)) {
      if (!batch.answers || !(key in batch.answers) || batch.answers[key] !== value) rest[key] = value
    }
    this.pending = rest
    const restMarks: MarkMap = {}
    for (const [key, value] of Object.entries(this.pendingMarks)) {
      if (!batch.marked || batch.marked[key] !== value) restMarks[key] = value
    }
    this.pendingMarks = restMarks
    for (const id of batch.visited ?? []) this.pendingVisits.delete(String(id))
    const restTime: TimeMap = {}
    for (const [key, seconds] of Object.entries(this.pendingTime)) {
      const left = seconds - (batch.time_spent?.[key] ?? 0)
      if (left > 0) restTime[key] = left
    }
    this.pendingTime = restTime
  }

  private emit() {
    this.snapshot = this.makeSnapshot()
    for (const listener of this.listeners) listener()
  }

  private setStatus(status: SaveStatus) {
    this.status = status
    if (status === 'offline') {
      this.wasOffline = true
      this.reconnected = null
    }
    this.emit()
  }

  /** After a send got through: once the queue is empty again after an outage, the screen can say what went. */
  private noteSent(batch: SaveBatch) {
    if (!this.wasOffline) return
    for (const key of Object.keys(batch.answers ?? {})) this.sentAfterOffline.add(key)
    if (this.hasPending()) return
    this.reconnected = { sent: this.sentAfterOffline.size }
    this.sentAfterOffline.clear()
    this.wasOffline = false
  }

  /** The screen has said it: forget the reconnection. */
  dismissReconnected() {
    if (this.reconnected === null) return
    this.reconnected = null
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

  /** The marks, visits and seconds not yet confirmed: the submission carries them with every answer. */
  pendingExamState(): Omit<SaveBatch, 'answers'> {
    const { answers: _answers, ...rest } = this.batch()
    return rest
  }

  /**
   * Folds in the answers the server already holds. Changes still queued here are newer than anything the
   * server has, so they win; everything else comes from the server.
   */
  mergeServerAnswers(server: AnswerMap) {
    this.mergeServerState({ answers: server })
  }

  /**
   * Folds in the attempt as the server holds it: answers and marks as for answers (queued changes win), visits
   * as a union (a visit is never taken back, and one queued here is not on the server yet).
   */
  mergeServerState(server: ServerState) {
    this.answers = { ...server.answers, ...this.pending }
    if (server.marked) {
      const marked: MarkMap = {}
      for (const id of server.marked) marked[String(id)] = true
      this.marked = { ...marked, ...this.pendingMarks }
    }
    if (server.visited) this.visited = new Set([...server.visited.map(String), ...this.pendingVisits])
    this.persist()
    this.emit()
    if (this.running && this.hasPending()) this.schedule(0)
  }

  /** Starts sending: listens for the connection coming back and sends what is queued. */
  start() {
    if (this.running || this.disposed) return
    this.running = true
    this.unsubscribeConnection = this.options.connection.subscribe(this.handleConnection)
    if (this.hasPending()) this.schedule(0)
  }

  /** Stops sending (during a submission, or when the page goes away); changes stay queued in storage. */
  pause() {
    this.running = false
    this.cancelTimer()
    this.unsubscribeConnection?.()
    this.unsubscribeConnection = null
  }

  /** The attempt is over: forget its answers here (the server has them). */
  clear() {
    this.pause()
    this.disposed = true
    this.pending = {}
    this.pendingMarks = {}
    this.pendingVisits.clear()
    this.pendingTime = {}
    try {
      this.options.storage?.removeItem(this.options.storageKey)
    } catch {
      // Nothing to remove.
    }
  }

  /** Saves an answer: an option id, a multiple question's option ids or a numeric question's typed string; null clears. */
  set(questionId: number | string, optionId: AnswerMap[string]) {
    if (this.disposed) return
    const key = String(questionId)
    this.answers = { ...this.answers, [key]: optionId }
    this.pending = { ...this.pending, [key]: optionId }
    this.persist()
    if (this.status === 'saved' || this.status === 'failed') this.status = 'saving'
    this.emit()
    if (this.running) this.schedule(this.options.debounceMs)
  }

  /** Marks the question for review, or takes the mark back. */
  setMarked(questionId: number | string, marked: boolean) {
    if (this.disposed) return
    const key = String(questionId)
    if ((this.marked[key] ?? false) === marked && !(key in this.pendingMarks)) return
    this.marked = { ...this.marked, [key]: marked }
    this.pendingMarks = { ...this.pendingMarks, [key]: marked }
    this.persist()
    if (this.status === 'saved' || this.status === 'failed') this.status = 'saving'
    this.emit()
    if (this.running) this.schedule(this.options.debounceMs)
  }

  /** The question was shown to the learner. Only the first visit is sent. */
  visit(questionId: number | string) {
    if (this.disposed) return
    const key = String(questionId)
    if (this.visited.has(key)) return
    this.visited.add(key)
    this.pendingVisits.add(key)
    this.persist()
    this.emit()
    if (this.running) this.schedule(this.options.debounceMs)
  }

  /**
   * Whole seconds the learner spent on a question, added to what is queued. Not worth a request of its own: it
   * goes out with the next save, or after the debounce when `send` is true (leaving a question, hiding the page).
   */
  addTime(questionId: number | string, seconds: number, { send = true } = {}) {
    if (this.disposed || !Number.isInteger(seconds) || seconds <= 0) return
    const key = String(questionId)
    this.pendingTime = { ...this.pendingTime, [key]: (this.pendingTime[key] ?? 0) + seconds }
    this.persist()
    if (this.running && send && this.timer === null) this.schedule(this.options.debounceMs)
  }

  /**
   * Sends everything queued and waits until the server holds it: true once nothing is left, false when it cannot
   * get through now (offline, a failed send waiting for its retry, a refusal, or the queue not running). Closing a
   * timed section waits on this, since the server drops what reaches it after the section closed.
   */
  async drain(): Promise<boolean> {
    const stuck = () => this.status === 'offline' || this.status === 'retrying' || this.status === 'failed'
    for (;;) {
      if (this.sending) {
        await this.sending
        if (stuck()) return false
      }
      if (!this.hasPending()) return true
      if (!this.running || this.disposed) return false
      await this.flush()
      if (stuck()) return false
    }
  }

  /** Sends the queued changes now (also what the debounce timer, the retries and the `online` event call). */
  async flush(): Promise<void> {
    this.cancelTimer()
    if (!this.running || this.inFlight || !this.hasPending()) return
    if (!this.isOnline()) {
      // Nothing would get through: wait for the `online` event instead of burning retries.
      this.setStatus('offline')
      return
    }
    const batch = this.batch()
    this.inFlight = true
    this.setStatus('saving')
    this.abortSending = new AbortController()
    const sending = this.send(batch, this.abortSending.signal)
    this.sending = sending
    try {
      await sending
    } finally {
      this.sending = null
    }
  }

  private async send(batch: SaveBatch, signal: AbortSignal) {
    try {
      await this.options.send(batch, signal)
      this.failures = 0
      if (this.disposed) return
      this.confirm(batch)
      this.persist()
      this.noteSent(batch)
      const more = this.hasPending()
      this.setStatus(more ? 'saving' : 'saved')
      if (this.running && more) this.schedule(0)
    } catch (error) {
      if (this.disposed) return
      if (signal.aborted) {
        this.setStatus('offline')
      } else if (this.options.isTransient(error)) {
        this.failures += 1
        this.setStatus(this.isOnline() ? 'retrying' : 'offline')
        // A server shedding load says when to come back (503 with Retry-After): sooner would only add to the load.
        const retryAfterMs = 1000 * ((error as { retryAfterSeconds?: number }).retryAfterSeconds ?? 0)
        if (this.running) this.schedule(Math.max(retryAfterMs, this.options.retryDelayMs(this.failures)))
      } else {
        this.setStatus('failed')
        this.options.onFailure?.(error)
      }
    } finally {
      this.inFlight = false
      this.abortSending = null
    }
  }
}
