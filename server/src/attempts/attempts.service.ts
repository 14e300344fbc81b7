import type { AnswerMap, AttemptInfo, ExamStateInput, SubmitResult } from '@quiz/contracts'
import type { Kysely } from 'kysely'
import type { AppContext } from '../context'
import { addMistakesToDeck } from '../practice/practice.service'
import { isUniqueViolation } from '../db/errors'
import type { AttemptRow, DB } from '../db/schema'
import type { FieldErrors } from '../http/errors'
import { toIso } from '../lib/clock'
import {
  countFirstAttemptScore,
  listAnswers,
  listExpiredAttempts,
  listQuestionStates,
  markAttemptFinished,
  sumTimeSpent,
  upsertQuestionStates,
  type QuestionStateChange,
} from './attempts.repository'
import type { Paper, QuestionPapers } from '../questions/question-papers'
import { lockLearner } from './quizzes.repository'
import { scoreAnswers, toScore } from '../questions/scoring'

/** An attempt's saved answers, question id -> option id: the results feature reads them for the report card. */
export function listAttemptAnswers(db: Kysely<DB>, attemptId: number) {
  return listAnswers(db, attemptId)
}

/** An attempt's review marks, visits and seconds per question, for the report card. */
export function listAttemptQuestionStates(db: Kysely<DB>, attemptId: number) {
  return listQuestionStates(db, attemptId)
}

/**
 * The rules every route shares about an attempt's life: when it is in progress, how it is finished when
 * its time runs out, and how a finished attempt reads as a result. Used by the quizzes and results routes.
 */
export function createAttemptLifecycle({
  database,
  clock,
  config,
  papers,
}: Pick<AppContext, 'database' | 'clock' | 'config'> & { papers: QuestionPapers }) {
  const graceMs = config.submitGraceSeconds * 1000
  const isPostgres = database.dialect === 'postgres'

  /** In progress from its start until its deadline plus the grace period (API.md). */
  const isLive = (attempt: Pick<AttemptRow, 'status' | 'deadline'>, now: number) =>
    attempt.status === 'in_progress' && now <= attempt.deadline + graceMs
  const isExpired = (attempt: Pick<AttemptRow, 'status' | 'deadline'>, now: number) =>
    attempt.status === 'in_progress' && now > attempt.deadline + graceMs

  /** Scores an attempt whose time ran out on the answers it saved; it completed at its deadline. */
  async function finishTimedOut(trx: Kysely<DB>, attempt: AttemptRow): Promise<AttemptRow> {
    const paper = await papers.paperFor(trx, attempt.revision_ids)
    const answers = await listAnswers(trx, attempt.id)
    const { total_questions: _total, ...score } = scoreAnswers(paper.questions, answers)
    const fields = { ...score, finished_at: attempt.deadline, late: 1, submitted: 0 }
    if (!(await markAttemptFinished(trx, attempt.id, fields)))
      throw new Error(`attempt ${attempt.id} was finished twice`)
    await recordFinish(trx, attempt, paper, answers, score.score_hundredths, attempt.deadline)
    return { ...attempt, ...fields, status: 'finished' }
  }

  /** Finishes, inside `trx`, every attempt of `attempts` whose time ran out; returns the list as it now stands. */
  async function settleRows(trx: Kysely<DB>, attempts: AttemptRow[], now: number) {
    const settled: AttemptRow[] = []
    for (const attempt of attempts) settled.push(isExpired(attempt, now) ? await finishTimedOut(trx, attempt) : attempt)
    return settled
  }

  /** Finishes the learner's attempts (at one quiz, or all) whose time ran out: "the next time anything asks". */
  async function settleExpired(userId: number, quizId?: number) {
    const now = clock.now()
    // Read first: most calls find nothing, and a read needs no write lock.
    if ((await listExpiredAttempts(database.db, userId, now - graceMs, { quizId })).length === 0) return
    await database.transaction(async (trx) => {
      if (isPostgres) await lockLearner(trx, userId)
      const expired = await listExpiredAttempts(trx, userId, now - graceMs, { quizId, lock: isPostgres })
      for (const attempt of expired) await finishTimedOut(trx, attempt)
    })
  }

  return { graceMs, isPostgres, isLive, isExpired, finishTimedOut, settleRows, settleExpired }
}

export type AttemptLifecycle = ReturnType<typeof createAttemptLifecycle>

/**
 * What the learning loop keeps of a just-finished attempt, in the transaction that finished it, however it
 * finished (submit, late submit, expiry): a first attempt's score in its quiz's tally (rank and percentile), and
 * the questions answered wrong or left unanswered in the learner's practice deck.
 */
export async function recordFinish(
  trx: Kysely<DB>,
  attempt: Pick<AttemptRow, 'user_id' | 'quiz_id' | 'attempt_number'>,
  paper: Pick<Paper, 'questions'>,
  answers: ReadonlyMap<number, number | null>,
  scoreHundredths: number,
  finishedAt: number,
) {
  if (attempt.attempt_number === 1) await countFirstAttemptScore(trx, attempt.quiz_id, scoreHundredths)
  await addMistakesToDeck(trx, attempt.user_id, paper.questions, answers, finishedAt)
}

/** A finished attempt as the submit route answers it. */
export function toSubmitResult(attempt: AttemptRow): SubmitResult {
  const correct = attempt.correct ?? 0
  const incorrect = attempt.incorrect ?? 0
  const unanswered = attempt.unanswered ?? 0
  return {
    attempt_id: attempt.id,
    score: toScore(attempt.score_hundredths ?? 0),
    correct,
    incorrect,
    unanswered,
    total_questions: correct + incorrect + unanswered,
    completed_timestamp: toIso(attempt.finished_at ?? attempt.deadline),
    late: attempt.late === 1,
  }
}

/** Field errors for answers naming a question not on the paper, or an option not of that question. */
export function answerErrors(paper: Paper, answers: AnswerMap): FieldErrors | undefined {
  let errors: FieldErrors | undefined
  for (const [key, optionId] of Object.entries(answers)) {
    const question = paper.byQuestionId.get(Number(key))
    const problem = !question
      ? 'This question is not part of this quiz.'
      : optionId !== null && !question.optionIds.has(optionId)
        ? 'This option does not belong to this question.'
        : undefined
    if (problem) (errors ??= {})[`answers.${key}`] = [problem]
  }
  return errors
}

/** Field errors for marks, visits or seconds naming a question not on the paper (API.md "Exam feel"). */
export function examStateErrors(paper: Paper, input: ExamStateInput): FieldErrors | undefined {
  let errors: FieldErrors | undefined
  const notOnPaper = (path: string) => ((errors ??= {})[path] = ['This question is not part of this quiz.'])
  for (const key of Object.keys(input.marked ?? {}))
    if (!paper.byQuestionId.has(Number(key))) notOnPaper(`marked.${key}`)
  for (const [index, id] of (input.visited ?? []).entries())
    if (!paper.byQuestionId.has(id)) notOnPaper(`visited.${index}`)
  for (const key of Object.keys(input.time_spent ?? {}))
    if (!paper.byQuestionId.has(Number(key))) notOnPaper(`time_spent.${key}`)
  return errors
}

export const hasExamState = (input: ExamStateInput) =>
  Object.keys(input.marked ?? {}).length > 0 ||
  (input.visited ?? []).length > 0 ||
  Object.values(input.time_spent ?? {}).some((seconds) => seconds > 0)

/** Slack on the cap of time spent: a report sent as the clock ticks may round a second up on each side. */
export const TIME_SPENT_SLACK_SECONDS = 5

/**
 * Stores a report's marks, visits and seconds on an attempt still in progress, inside the caller's transaction
 * (already checked against the paper). Seconds beyond the cap (the attempt's age plus 5 s, less what is stored)
 * are dropped, in question order: a clock that ran fast on the device must not inflate the report card.
 * On PostgreSQL the caller holds a lock on the attempt row that conflicts with itself (isAttemptInProgressLocked,
 * or the submit's FOR UPDATE), so the read of the total and the write are one step.
 */
export async function storeExamState(
  trx: Kysely<DB>,
  attempt: Pick<AttemptRow, 'id' | 'started_at'>,
  input: ExamStateInput,
  now: number,
): Promise<void> {
  const changes = new Map<number, QuestionStateChange>()
  const change = (questionId: number) => {
    let entry = changes.get(questionId)
    if (!entry) changes.set(questionId, (entry = { questionId }))
    return entry
  }
  for (const [key, marked] of Object.entries(input.marked ?? {})) change(Number(key)).marked = marked
  for (const questionId of input.visited ?? []) change(questionId).visited = true
  const times = Object.entries(input.time_spent ?? {})
    .map(([key, seconds]) => [Number(key), seconds] as const)
    .filter(([, seconds]) => seconds > 0)
    .sort(([a], [b]) => a - b)
  if (times.length > 0) {
    const cap = Math.max(0, Math.floor((now - attempt.started_at) / 1000)) + TIME_SPENT_SLACK_SECONDS
    let budget = Math.max(0, cap - (await sumTimeSpent(trx, attempt.id)))
    for (const [questionId, seconds] of times) {
      const accepted = Math.min(seconds, budget)
      if (accepted === 0) break
      budget -= accepted
      change(questionId).seconds = accepted
    }
  }
  await upsertQuestionStates(trx, attempt.id, [...changes.values()])
}

/** An attempt's stored marks, visits and seconds as the API shows them, in the paper's order. */
export function toExamState(
  paper: Paper,
  rows: readonly { question_id: number; marked: number; visited: number; time_spent: number }[],
): Pick<AttemptInfo, 'marked' | 'visited' | 'time_spent'> {
  const byQuestion = new Map(rows.map((row) => [row.question_id, row]))
  const marked: number[] = []
  const visited: number[] = []
  const timeSpent: Record<string, number> = {}
  for (const { questionId } of paper.questions) {
    const row = byQuestion.get(questionId)
    if (!row) continue
    if (row.marked === 1) marked.push(questionId)
    if (row.visited === 1) visited.push(questionId)
    if (row.time_spent > 0) timeSpent[questionId] = row.time_spent
  }
  return { marked, visited, time_spent: timeSpent }
}

export const answerEntries = (answers: AnswerMap) =>
  Object.entries(answers).map(([key, optionId]) => [Number(key), optionId] as const)

/**
 * Runs `work` again when a unique index refused a write: on PostgreSQL two first attempts of one learner can
 * race to the same attempt number before either is visible; the retry then sees the winner's row.
 */
export async function retryOnUniqueViolation<T>(work: () => Promise<T>, tries = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work()
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= tries) throw error
    }
  }
}
