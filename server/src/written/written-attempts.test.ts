import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { questionBody } from '../../test/fixtures/admin.fixtures'
import { requestsAs } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'
import { writtenBody } from '../../test/written-papers'

describe.each(dialects)('written questions in an attempt on %s', (dialect) => {
  const t = useTestApp(dialect)
  const as = requestsAs(t)

  it('carries type, marks and word limit in the question payload; submit scores the choice part and leaves the written part pending, unranked', async () => {
    const admin = await createUser(t.database, { is_admin: 1 })
    // Section marks of 2 / 0.5: the written question's 10 marks are its own.
    const created = await as(admin, 'POST', '/api/quizzes/create-from-json/', {
      title: { en: 'Nayab Subba, paper II' },
      sections: [{ marks_correct: 2, marks_wrong: 0.5, items: [questionBody({ image: null }), writtenBody()] }],
    })
    expect(created.status).toBe(201)
    const quizId = created.body.quiz_id
    const paper = (await as(admin, 'GET', `/api/admin/quizzes/${quizId}/`)).body
    const choice = paper.questions[0]
    const right = choice.options.find((option: { is_correct: boolean }) => option.is_correct).id

    const learner = await createUser(t.database)
    const started = await as(learner, 'GET', `/api/quizzes/${quizId}/`)
    expect(started.status).toBe(200)
    const numberOf = (id: number) =>
      started.body.questions.findIndex((question: { id: number }) => question.id === id) + 1
    const writtenId = paper.questions[1].id
    const written = await as(learner, 'GET', `/api/quizzes/${quizId}/question/${numberOf(writtenId)}/`)
    expect(written.body).toMatchObject({ id: writtenId, type: 'written', marks: 10, word_limit: 300, options: [] })
    expect(written.body).not.toHaveProperty('model_answer')
    const first = await as(learner, 'GET', `/api/quizzes/${quizId}/question/${numberOf(choice.id)}/`)
    expect(first.body).toMatchObject({ type: 'choice', marks: null, word_limit: null })

    // An option can never answer a written question.
    const refused = await as(learner, 'POST', `/api/quizzes/${quizId}/submit/`, { answers: { [writtenId]: right } })
    expect(refused.status).toBe(400)

    const submitted = await as(learner, 'POST', `/api/quizzes/${quizId}/submit/`, { answers: { [choice.id]: right } })
    expect(submitted.status).toBe(200)
    expect(submitted.body).toMatchObject({ score: 2, correct: 1, incorrect: 0, unanswered: 0 })
    const attempt = await t.db
      .selectFrom('attempts')
      .select(['score_hundredths', 'marks_pending'])
      .where('id', '=', started.body.attempt.id)
      .executeTakeFirstOrThrow()
    expect(attempt).toEqual({ score_hundredths: 200, marks_pending: 1 })
    // Not ranked while pending: nothing in the quiz's rank tally.
    expect(await t.db.selectFrom('first_attempt_scores').selectAll().where('quiz_id', '=', quizId).execute()).toEqual(
      [],
    )
  })

  it('leaves a paper without written questions final and ranked, as before', async () => {
    const admin = await createUser(t.database, { is_admin: 1 })
    const created = await as(admin, 'POST', '/api/quizzes/create-from-json/', {
      title: { en: 'Choice only' },
      questions: [questionBody({ image: null })],
    })
    const quizId = created.body.quiz_id
    const learner = await createUser(t.database)
    const started = await as(learner, 'GET', `/api/quizzes/${quizId}/`)
    await as(learner, 'POST', `/api/quizzes/${quizId}/submit/`, { answers: {} })
    const attempt = await t.db
      .selectFrom('attempts')
      .select('marks_pending')
      .where('id', '=', started.body.attempt.id)
      .executeTakeFirstOrThrow()
    expect(attempt.marks_pending).toBe(0)
    expect(
      await t.db.selectFrom('first_attempt_scores').selectAll().where('quiz_id', '=', quizId).execute(),
    ).toHaveLength(1)
  })
})
