import { clear, createStore, del, delMany, get, keys, set, setMany, type UseStore } from 'idb-keyval'
import type { FetchedQuestion, LearnerPassage, QuizAttempt, QuizQuestion } from '@quiz/contracts'

/**
 * The attempt kept on the device (decision 019): what GET /api/quizzes/{id}/ last said and every question of the
 * paper, so the quiz screen opens, reloads and moves through every question without a connection. In IndexedDB:
 * a paper of 500 questions with SVG images can pass localStorage's 5 MB. Answers are not here but in the answer
 * queue (localStorage), which is written on every change.
 *
 * A passage is kept once per attempt, its questions naming it by `passage_id` (API.md "Question types", decision
 * 130): ten questions under a 300-word passage keep its 2 KB once, not ten times.
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
type PassageKey = ['passage', number, number]
type Key = AttemptKey | QuestionKey | PassageKey

/** A question as kept: its passage by id. Kept before decision 130, a question still holds `passage` itself. */
type KeptQuestion = Omit<QuizQuestion, 'passage'> & { passage_id: number | null }
type Kept = KeptQuestion | QuizQuestion

let defaultStore: UseStore | undefined
const store = () => (defaultStore ??= createStore('quiz-offline', 'attempts'))

/** A user's attempt of a quiz: one per (user, quiz), so a shared phone never shows one learner another's paper. */
const attemptKey = (userId: number, quizId: number): AttemptKey => ['attempt', userId, quizId]
const questionKey = (attemptId: number, number: number): QuestionKey => ['question', attemptId, number]
const passageKey = (attemptId: number, passageId: number): PassageKey => ['passage', attemptId, passageId]
/** Questions and passages are the paper: they go with their attempt. */
const isPaperOf = (key: Key, attemptIds: (id: number) => boolean) =>
  (key[0] === 'question' || key[0] === 'passage') && attemptIds(key[1])

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
/**
 * The question with its passage. A question whose passage is not on the device is not either (undefined: it is
 * fetched again). One kept in the older shape, passage inside, is given as it is and rewritten in the new one.
 */
export async function loadQuestion(attemptId: number, number: number): Promise<QuizQuestion | undefined> {
  const kept = await get<Kept>(questionKey(attemptId, number), store())
  if (!kept) return undefined
  if ('passage' in kept) {
    if (kept.passage) await saveQuestion(attemptId, number, kept)
    return kept
  }
  const { passage_id: passageId, ...question } = kept
  if (passageId === null) return { ...question, passage: null }
  const passage = await get<LearnerPassage>(passageKey(attemptId, passageId), store())
  return passage ? { ...question, passage } : undefined
}

/** Keeps a question, and its passage unless the device has it already: both in one transaction. */
export async function saveQuestion(attemptId: number, number: number, question: FetchedQuestion) {
  return saveQuestions(attemptId, [{ ...question, number }])
}

/**
 * Keeps several questions (a paper fetched ahead), each of their passages once, in one transaction. A question the
 * server sent with its passage by id alone (the device said it held it) names it; the passage is not rewritten.
 */
export async function saveQuestions(attemptId: number, questions: FetchedQuestion[]) {
  const entries: [Key, Kept | LearnerPassage][] = []
  const passages = new Map<number, LearnerPassage>()
  for (const { passage, ...question } of questions) {
    if (passage?.text) passages.set(passage.id, { image: null, ...passage, text: passage.text })
    entries.push([questionKey(attemptId, question.number), { ...question, passage_id: passage?.id ?? null }])
  }
  for (const passage of passages.values()) {
    const key = passageKey(attemptId, passage.id)
    // A passage is fixed for an attempt: kept once, not rewritten with each of its questions.
    if ((await get(key, store())) === undefined) entries.push([key, passage])
  }
  return setMany(entries, store())
}

/** The passages of an attempt already on the device: the question route then sends them by id alone. */
export async function heldPassageIds(attemptId: number): Promise<number[]> {
  const all = await keys<Key>(store())
  return all.filter((key) => key[0] === 'passage' && key[1] === attemptId).map((key) => key[2])
}

/** The question numbers of an attempt already on the device. */
export async function storedQuestionNumbers(attemptId: number): Promise<Set<number>> {
  const all = await keys<Key>(store())
  return new Set(all.filter((key) => key[0] === 'question' && key[1] === attemptId).map((key) => key[2]))
}

async function removeQuestions(attemptId: number) {
  const all = await keys<Key>(store())
  await delMany(
    all.filter((key) => isPaperOf(key, (id) => id === attemptId)),
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
 * Forgets attempts stored long ago, and questions and passages whose attempt is no longer stored (a download still running when
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
    all.filter((key) => isPaperOf(key, (id) => !live.has(id))),
    store(),
  )
}

/** Forgets every attempt kept on this device. */
export async function forgetAllAttempts() {
  await clear(store())
}
