import { clear, createStore, del, delMany, get, keys, set, type UseStore } from 'idb-keyval'
import type { QuizAttempt, QuizQuestion } from '@quiz/contracts'

/**
 * The attempt kept on the device (decision 019): what GET /api/quizzes/{id}/ last said and every question of the
 * paper, so the quiz screen opens, reloads and moves through every question without a connection. In IndexedDB:
 * a paper of 500 questions with SVG images can pass localStorage's 5 MB. Answers are not here but in the answer
 * queue (localStorage), which is written on every change.
 */
export interface StoredAttempt {
  session: QuizAttempt
  /** When it was stored (wall clock, ms): only to forget attempts abandoned long ago. */
  savedAt: number
}

/** An attempt stored this long ago is forgotten whatever its state (the longest quiz with extra time is 4 days). */
const FORGET_AFTER_MS = 7 * 24 * 3600_000

type AttemptKey = ['attempt', number, number]
type QuestionKey = ['question', number, number]
type Key = AttemptKey | QuestionKey

let defaultStore: UseStore | undefined
const store = () => (defaultStore ??= createStore('quiz-offline', 'attempts'))

/** A user's attempt of a quiz: one per (user, quiz), so a shared phone never shows one learner another's paper. */
const attemptKey = (userId: number, quizId: number): AttemptKey => ['attempt', userId, quizId]
const questionKey = (attemptId: number, number: number): QuestionKey => ['question', attemptId, number]

export async function loadAttempt(userId: number, quizId: number): Promise<StoredAttempt | undefined> {
  return get<StoredAttempt>(attemptKey(userId, quizId), store())
}

/** Stores the attempt the server sent; an earlier attempt of the same quiz stored here goes, with its questions. */
export async function saveAttempt(userId: number, quizId: number, session: QuizAttempt, now = Date.now()) {
  const previous = await loadAttempt(userId, quizId)
  if (previous && previous.session.attempt.id !== session.attempt.id) {
    await removeQuestions(previous.session.attempt.id)
  }
  await set(attemptKey(userId, quizId), { session, savedAt: now } satisfies StoredAttempt, store())
  await forgetAbandoned(now)
}

// Every function is async, so a browser without IndexedDB (opening it throws) fails as a rejected promise.
export async function loadQuestion(attemptId: number, number: number): Promise<QuizQuestion | undefined> {
  return get<QuizQuestion>(questionKey(attemptId, number), store())
}

export async function saveQuestion(attemptId: number, number: number, question: QuizQuestion) {
  return set(questionKey(attemptId, number), question, store())
}

/** The question numbers of an attempt already on the device. */
export async function storedQuestionNumbers(attemptId: number): Promise<Set<number>> {
  const all = await keys<Key>(store())
  return new Set(all.filter((key) => key[0] === 'question' && key[1] === attemptId).map((key) => key[2]))
}

async function removeQuestions(attemptId: number) {
  const all = await keys<Key>(store())
  await delMany(
    all.filter((key) => key[0] === 'question' && key[1] === attemptId),
    store(),
  )
}

/** The attempt is over (submitted here, or found finished): its paper leaves the device. */
export async function removeAttempt(userId: number, quizId: number, attemptId: number) {
  const stored = await loadAttempt(userId, quizId)
  if (stored?.session.attempt.id === attemptId) await del(attemptKey(userId, quizId), store())
  await removeQuestions(attemptId)
}

/**
 * Forgets attempts stored long ago, and questions whose attempt is no longer stored (a download still running when
 * its attempt was submitted stores them after the attempt left).
 */
async function forgetAbandoned(now: number) {
  const live = new Set<number>()
  for (const key of await keys<Key>(store())) {
    if (key[0] !== 'attempt') continue
    const stored = await get<StoredAttempt>(key, store())
    if (!stored) continue
    if (now - stored.savedAt > FORGET_AFTER_MS) await del(key, store())
    else live.add(stored.session.attempt.id)
  }
  const all = await keys<Key>(store())
  await delMany(
    all.filter((key) => key[0] === 'question' && !live.has(key[1])),
    store(),
  )
}

/** Forgets every attempt kept on this device. */
export async function forgetAllAttempts() {
  await clear(store())
}
