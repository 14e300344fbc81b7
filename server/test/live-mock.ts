import type { UserRow } from '../src/db/schema'
import { openQuiz, requestsAs, storedOptionIds } from './learner-api'
import type { TestApp } from './test-app'

const MINUTE = 60_000

/**
 * A live mock of 3 questions (A right), 30 minutes, starting 10 minutes from the test's now with a 5-minute join
 * window, and a learner's requests on it; answers are written by letter per question, '-' unanswered.
 */
export async function openLiveMock(t: TestApp, overrides: Record<string, unknown> = {}) {
  const call = requestsAs(t)
  const startsAt = t.clock.now() + 10 * MINUTE
  const made = await openQuiz(
    t,
    { live_starts_at: startsAt, live_join_minutes: 5, duration_minutes: 30, draw_mode: 'frozen', ...overrides },
    { questionCount: 3 },
  )
  const options = await Promise.all(made.questionIds.map((id) => storedOptionIds(t.db, id)))
  const answers = answersByLetter(made.questionIds, options)
  const id = made.quiz.id
  return {
    ...made,
    id,
    startsAt,
    joinEnds: startsAt + 5 * MINUTE,
    ends: startsAt + 30 * MINUTE,
    options,
    answers,
    start: (user: UserRow) => call(user, 'GET', `/api/quizzes/${id}/`),
    save: (user: UserRow, pattern: string) =>
      call(user, 'PUT', `/api/quizzes/${id}/answers/`, { answers: answers(pattern) }),
    submit: (user: UserRow, pattern = '---') =>
      call(user, 'POST', `/api/quizzes/${id}/submit/`, { answers: answers(pattern) }),
    board: (user: UserRow) => call(user, 'GET', `/api/quizzes/${id}/leaderboard/`),
    listed: async (user: UserRow) =>
      ((await call(user, 'GET', '/api/quizzes/')).body as { id: number }[]).find((quiz) => quiz.id === id) as
        Record<string, unknown> | undefined,
  }
}

/** The admin's key decision that `optionId` is the question's one right option (not a dry run). */
export async function changeKey(
  t: TestApp,
  admin: UserRow,
  questionId: number,
  optionId: number,
  note = 'B is right.',
) {
  const revision = await t.db
    .selectFrom('questions')
    .select('revision_id')
    .where('id', '=', questionId)
    .executeTakeFirstOrThrow()
  return requestsAs(t)(admin, 'POST', `/api/admin/questions/${questionId}/key/`, {
    revision_id: revision.revision_id,
    action: 'change',
    correct_option_ids: [optionId],
    note,
    dry_run: false,
  })
}

/** Answers written by letter per question ('-' unanswered), as the option ids of those questions. */
export function answersByLetter(questionIds: readonly number[], options: readonly (readonly number[])[]) {
  return (pattern: string) =>
    Object.fromEntries(
      questionIds.map((id, i) => [id, pattern[i] === '-' ? null : options[i]!['ABCD'.indexOf(pattern[i]!)]!]),
    )
}
