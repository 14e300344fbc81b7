import type { UserRow } from '../src/db/schema'
import { evaluateAnswer, type Evaluation } from '../src/written/marking'
import { createUser } from './factories'
import { questionBody } from './fixtures/admin.fixtures'
import { requestsAs } from './learner-api'
import type { TestApp } from './test-app'

export const writtenBody = (overrides: Record<string, unknown> = {}) => ({
  type: 'written',
  text: { en: 'Explain the role of the Public Service Commission.', ne: 'लोक सेवा आयोगको भूमिका व्याख्या गर्नुहोस्।' },
  topic: 'Constitution',
  marks: 10,
  word_limit: 300,
  model_answer: { en: 'An independent body that ...', ne: '' },
  ...overrides,
})

/**
 * A published quiz of one choice question and one written question of `marks`, made through create-from-JSON, and
 * helpers to sit it, answer the written question (typed, through its route) and mark it. Marking has no routes yet:
 * answers are marked through the functions its routes will call.
 */
export async function writtenPaper(t: TestApp, { marks = 10, written = {} as Record<string, unknown> } = {}) {
  const as = requestsAs(t)
  const admin = await createUser(t.database, { is_admin: 1 })
  const created = await as(admin, 'POST', '/api/quizzes/create-from-json/', {
    title: { en: 'Section Officer written, set 1' },
    questions: [questionBody({ image: null }), writtenBody({ marks, ...written })],
  })
  const quizId: number = created.body.quiz_id
  const quiz = await as(admin, 'GET', `/api/admin/quizzes/${quizId}/`)
  const choiceId: number = quiz.body.questions[0].id
  const rightOptionId: number = quiz.body.questions[0].options.find((o: { is_correct: boolean }) => o.is_correct).id
  const questionId: number = quiz.body.questions[1].id
  const revisionId: number = (await as(admin, 'GET', `/api/admin/bank/questions/${questionId}/`)).body.revision_id

  /** A learner's finished attempt (the choice question right), and its written answer. */
  async function sit(learner?: UserRow) {
    const user = learner ?? (await createUser(t.database))
    const started = await as(user, 'GET', `/api/quizzes/${quizId}/`)
    const attemptId: number = started.body.attempt.id
    const typed = await as(user, 'PUT', `/api/attempts/${attemptId}/written/${questionId}/text/`, { text: 'My answer' })
    if (typed.status !== 200) throw new Error(`typing the answer: ${typed.status} ${typed.raw}`)
    const submitted = await as(user, 'POST', `/api/quizzes/${quizId}/submit/`, {
      answers: { [choiceId]: rightOptionId },
    })
    const { id: answerId } = await t.db
      .selectFrom('written_answers')
      .select('id')
      .where('attempt_id', '=', attemptId)
      .where('question_id', '=', questionId)
      .executeTakeFirstOrThrow()
    return { user, attemptId, answerId, submitted: submitted.body }
  }

  const mark = (answerId: number, evaluation: Partial<Evaluation>) =>
    t.database.transaction((trx) =>
      evaluateAnswer(
        trx,
        answerId,
        { items: [], adjustment: 0, comment: null, ...evaluation },
        admin.id,
        t.clock.now(),
      ),
    )
  const release = async () => {
    const released = await as(admin, 'POST', `/api/admin/quizzes/${quizId}/marking/release/`, {
      question_ids: [questionId],
    })
    if (released.status !== 200) throw new Error(`releasing: ${released.status} ${released.raw}`)
  }
  const rubric = (method: 'GET' | 'PUT', body?: object) =>
    as(admin, method, `/api/admin/bank/questions/${questionId}/rubric/`, body)

  return { as, admin, quizId, questionId, choiceId, revisionId, sit, mark, release, rubric }
}
