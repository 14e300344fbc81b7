import {
  adminMessages,
  quizDefaults,
  type AdminQuiz,
  type AdminQuizWithPaper as AdminQuizDetail,
  type Bilingual,
  type Difficulty,
  type QuizStatus,
} from '@quiz/contracts'
import type { Kysely } from 'kysely'
import type { AppContext } from '../context'
import type { DB, QuizRow } from '../db/schema'
import { NotFound, ValidationFailed } from '../http/errors'
import { toIso, toIsoOrNull } from '../lib/clock'
import { findAnswerKeys } from '../questions/answer-keys'
import { findRevisions, listCurrentRevisionIds } from '../questions/question-revisions.repository'
import { followLiveSchedule } from '../live/live.service'
import { findLiveQuiz } from './admin.repository'
import { readPaper } from './paper'
import { toQuestionDto } from './question-dto'

export const quizNotFound = () => new NotFound('Quiz not found.')

export function toQuizDto(quiz: QuizRow, questionCount: number): AdminQuiz {
  return {
    id: quiz.id,
    title: { en: quiz.title_en, ne: quiz.title_ne },
    start_time: toIso(quiz.start_time),
    end_time: toIsoOrNull(quiz.end_time),
    duration_minutes: quiz.duration_minutes,
    difficulty: quiz.difficulty as Difficulty,
    is_paid_tier: quiz.is_paid_tier === 1,
    allowed_attempts: quiz.allowed_attempts,
    shuffle_questions: quiz.shuffle_questions === 1,
    shuffle_options: quiz.shuffle_options === 1,
    challenge_days: quiz.challenge_days,
    upload_grace_minutes: quiz.upload_grace_minutes,
    live:
      quiz.live_starts_at === null || quiz.live_join_minutes === null
        ? null
        : { starts_at: toIso(quiz.live_starts_at), join_minutes: quiz.live_join_minutes },
    question_count: questionCount,
    status: quiz.status as QuizStatus,
  }
}

/** A new quiz's titles, times and duration; the schema checked the bounds when both were given, not a start of now. */
export function newQuizBasics(
  input: { title: Bilingual; start_time?: string | null; end_time?: string | null; duration_minutes?: number },
  now: number,
) {
  const startTime = input.start_time ? Date.parse(input.start_time) : now
  const endTime = input.end_time ? Date.parse(input.end_time) : null
  if (endTime !== null && startTime >= endTime) throw new ValidationFailed({ end_time: [adminMessages.endAfterStart] })
  return {
    title_en: input.title.en,
    title_ne: input.title.ne,
    start_time: startTime,
    end_time: endTime,
    duration_minutes: input.duration_minutes ?? quizDefaults.duration_minutes,
  }
}

export function quizValues(quiz: QuizRow) {
  const { id: _id, question_count: _count, ...values } = toQuizDto(quiz, 0)
  return values
}

export async function quizDetail(db: Kysely<DB>, quiz: QuizRow): Promise<AdminQuizDetail> {
  const current = await listCurrentRevisionIds(db, quiz.id)
  const revisionIds = current.map((question) => question.revision_id)
  const [revisions, keys] = await Promise.all([findRevisions(db, revisionIds), findAnswerKeys(db, revisionIds)])
  const questions = current.map((question) =>
    toQuestionDto(question.question_id, revisions.get(question.revision_id)!, keys.get(question.revision_id)),
  )
  return {
    ...toQuizDto(quiz, quiz.question_count),
    questions,
    ...(await readPaper(db, quiz.id, quiz.draw_mode, quiz.frozen_draw)),
  }
}

/** A draft has no learners to remind or rank (docs/decisions/048): its schedule is followed from its publishing. */
export async function followScheduleIfPublished(trx: Kysely<DB>, before: QuizRow | null, after: QuizRow, now: number) {
  if (after.status === 'published') await followLiveSchedule(trx, before, after, now)
}

export function quizRequirer(database: AppContext['database']) {
  const forUpdate = database.dialect === 'postgres'
  return async function requireLiveQuiz(db: Kysely<DB>, id: number) {
    const quiz = await findLiveQuiz(db, id, { forUpdate })
    if (!quiz) throw quizNotFound()
    return quiz
  }
}
