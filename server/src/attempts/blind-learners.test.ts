import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { multipart } from '../../test/auth-requests'
import { bearerFor, createUser } from '../../test/factories'
import { questionBody, twoOptions, TRIANGLE_SVG } from '../../test/fixtures/admin.fixtures'
import { openQuiz, requestsAs } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'

// API.md "Blind learners" (decision 114): a screen reader's user gets the paper without the questions that need
// sight, each section's marks rescaled to the questions left; the attempt and report say so; ranks and statistics
// count the rescaled score; the bank flags pictures without a description.
describe.each(dialects)('blind learners on %s', (dialect) => {
  const t = useTestApp(dialect)
  const call = requestsAs(t)
  const asAdmin = async () => bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
  const send = async (
    headers: Record<string, string>,
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    payload?: object,
  ) => {
    const response = await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) })
    return { status: response.statusCode, body: response.body ? response.json() : undefined }
  }
  const screenReaderUser = () => createUser(t.database, { screen_reader: 1 })
  const needSight = (ids: readonly number[]) =>
    t.db
      .updateTable('questions')
      .set({ needs_sight: 1 })
      .where('id', 'in', [...ids])
      .execute()

  /** Five questions: three in a section marked 2 / 0.4, two in one marked 1 / 0.25; q2 and q5 need sight. */
  async function adaptedQuiz() {
    const made = await openQuiz(t, {}, { questionCount: 5 })
    const [first] = await t.db.selectFrom('paper_sections').select('id').where('quiz_id', '=', made.quiz.id).execute()
    await t.db
      .updateTable('paper_sections')
      .set({ marks_correct: 200, marks_wrong: 40 })
      .where('id', '=', first!.id)
      .execute()
    const second = await t.db
      .insertInto('paper_sections')
      .values({ quiz_id: made.quiz.id, position: 2, title_en: 'B', marks_correct: 100, marks_wrong: 25 })
      .returning('id')
      .executeTakeFirstOrThrow()
    await t.db
      .updateTable('paper_items')
      .set({ section_id: second.id })
      .where('question_id', 'in', made.questionIds.slice(3))
      .execute()
    await needSight([made.questionIds[1]!, made.questionIds[4]!])
    return made
  }

  it('leaves the questions that need sight out of a screen reader’s paper and rescales each section exactly', async () => {
    const { quiz, questionIds: q, correctOptionIds: right, wrongOptionIds: wrong } = await adaptedQuiz()
    const reader = await screenReaderUser()
    const started = await call(reader, 'GET', `/api/quizzes/${quiz.id}/`)
    expect(started.status).toBe(200)
    expect(started.body.question_count).toBe(3)
    expect(started.body.questions.map((question: { id: number }) => question.id)).toEqual([q[0], q[2], q[3]])
    expect(started.body.attempt.adapted).toEqual({ left_out: 2 })
    // Section A: full marks 6 over 2 questions, 3 / 0.6; section B: full marks 2 over 1, 2 / 0.5.
    expect(started.body.attempt.sections).toMatchObject([
      { marks_correct: 3, marks_wrong: 0.6, count: 2 },
      { marks_correct: 2, marks_wrong: 0.5, count: 1 },
    ])
    // Right (3), wrong (-0.6), right (2): 4.4 of 8, the paper's full marks.
    const answers = { [q[0]!]: right[0], [q[2]!]: wrong[2], [q[3]!]: right[3] }
    const submitted = await call(reader, 'POST', `/api/quizzes/${quiz.id}/submit/`, { answers })
    expect(submitted.status).toBe(200)
    expect(submitted.body).toMatchObject({ score: 4.4, max_score: 8, correct: 2, incorrect: 1, unanswered: 0 })
    const report = await call(reader, 'GET', `/api/results/${submitted.body.attempt_id}/`)
    expect(report.body).toMatchObject({ score: 4.4, max_score: 8, adapted: { left_out: 2 } })
    expect(report.body.questions).toHaveLength(3)
  })

  it('gives a learner without a screen reader the whole paper, and says nothing was left out', async () => {
    const { quiz } = await adaptedQuiz()
    const sighted = await createUser(t.database)
    const started = await call(sighted, 'GET', `/api/quizzes/${quiz.id}/`)
    expect(started.body.question_count).toBe(5)
    expect(started.body.attempt.adapted).toBeNull()
    const submitted = await call(sighted, 'POST', `/api/quizzes/${quiz.id}/submit/`, { answers: {} })
    expect((await call(sighted, 'GET', `/api/results/${submitted.body.attempt_id}/`)).body.adapted).toBeNull()
  })

  it('rounds a rescaled mark to 2 decimals: 1 / 0.25 over 3 questions of 4 is 1.33 / 0.33', async () => {
    const made = await openQuiz(t, {}, { questionCount: 4 })
    await t.db.updateTable('paper_sections').set({ marks_wrong: 25 }).where('quiz_id', '=', made.quiz.id).execute()
    await needSight([made.questionIds[0]!])
    const started = await call(await screenReaderUser(), 'GET', `/api/quizzes/${made.quiz.id}/`)
    expect(started.body.attempt.sections).toMatchObject([{ marks_correct: 1.33, marks_wrong: 0.33, count: 3 }])
  })

  it('ranks the rescaled score among the others, and item statistics count it', async () => {
    const { quiz, questionIds: q, correctOptionIds: right } = await adaptedQuiz()
    const reader = await screenReaderUser()
    const sighted = await createUser(t.database)
    // The reader answers all three right: 8; the sighted learner answers the same three right: 2 + 2 + 1 = 5.
    const three = { [q[0]!]: right[0], [q[2]!]: right[2], [q[3]!]: right[3] }
    await call(reader, 'GET', `/api/quizzes/${quiz.id}/`)
    const mine = await call(reader, 'POST', `/api/quizzes/${quiz.id}/submit/`, { answers: three })
    const theirs = await call(sighted, 'POST', `/api/quizzes/${quiz.id}/submit/`, { answers: three })
    expect([mine.body.score, theirs.body.score]).toEqual([8, 5])
    const report = (await call(sighted, 'GET', `/api/results/${theirs.body.attempt_id}/`)).body
    expect(report.analysis).toMatchObject({ participants: 2, rank: 2, highest_score: 8 })
    const statistics = await send(await asAdmin(), 'GET', `/api/admin/quizzes/${quiz.id}/statistics/`)
    expect(statistics.body).toMatchObject({ attempts: 2, highest: 8, lowest: 5, mean: 6.5 })
  })

  it('refuses a screen reader’s paper when every question needs sight (409 paper_unavailable)', async () => {
    const made = await openQuiz(t, {}, { questionCount: 2 })
    await needSight(made.questionIds)
    const refused = await call(await screenReaderUser(), 'GET', `/api/quizzes/${made.quiz.id}/`)
    expect(refused.status).toBe(409)
    expect(refused.body.code).toBe('paper_unavailable')
    const [attempts] = await Promise.all([t.db.selectFrom('attempts').select('id').execute()])
    expect(attempts).toEqual([])
  })

  it('keeps screen_reader in the profile, and refuses anything but true or false', async () => {
    const user = await createUser(t.database)
    const { authorization } = await bearerFor(t.tokens, user)
    const put = (fields: Record<string, string>) => {
      const body = multipart(fields)
      return t.app.inject({
        method: 'PUT',
        url: '/api/users/profile/',
        headers: { authorization, ...body.headers },
        payload: body.payload,
      })
    }
    const saved = await put({ screen_reader: 'true' })
    expect(saved.statusCode).toBe(200)
    expect(saved.json()).toMatchObject({ screen_reader: true })
    const refused = await put({ screen_reader: 'maybe' })
    expect(refused.statusCode).toBe(400)
    expect(refused.json()).toMatchObject({ code: 'validation_error', errors: { screen_reader: expect.any(Array) } })
    const row = await t.db.selectFrom('users').select('screen_reader').where('id', '=', user.id).executeTakeFirst()
    expect(row?.screen_reader).toBe(1)
    // The next paper is adapted: the setting is read at the start.
    const made = await openQuiz(t, {}, { questionCount: 2 })
    await needSight([made.questionIds[0]!])
    expect((await call(user, 'GET', `/api/quizzes/${made.quiz.id}/`)).body.attempt.adapted).toEqual({ left_out: 1 })
  })

  it('marks a bank question as needing sight, keeps it on an edit that does not say, and refuses a non-boolean', async () => {
    const headers = await asAdmin()
    const created = await send(headers, 'POST', '/api/admin/bank/questions/', {
      ...questionBody({ needs_sight: true }),
    })
    expect(created.status).toBe(201)
    expect(created.body.needs_sight).toBe(true)
    const id = created.body.id
    const kept = await send(headers, 'PUT', `/api/admin/bank/questions/${id}/`, questionBody({ topic: 'shapes' }))
    expect(kept.body.needs_sight).toBe(true)
    const cleared = await send(headers, 'PUT', `/api/admin/bank/questions/${id}/`, questionBody({ needs_sight: false }))
    expect(cleared.body.needs_sight).toBe(false)
    const refused = await send(headers, 'POST', '/api/admin/bank/questions/', questionBody({ needs_sight: 'yes' }))
    expect(refused.status).toBe(400)
    expect(refused.body.errors).toHaveProperty('needs_sight')
    const learner = await bearerFor(t.tokens, await createUser(t.database))
    expect(
      (await send(learner, 'PUT', `/api/admin/bank/questions/${id}/`, questionBody({ needs_sight: true }))).status,
    ).toBe(403)
  })

  it('lists the questions with a picture and no description (their own or an option’s), and refuses a bad filter', async () => {
    const headers = await asAdmin()
    const post = async (extra: Record<string, unknown>) =>
      (await send(headers, 'POST', '/api/admin/bank/questions/', questionBody({ options: twoOptions, ...extra }))).body
        .id as number
    const described = await post({ image: { svg: TRIANGLE_SVG, caption: { en: 'A triangle', ne: '' } } })
    const bare = await post({ image: { svg: TRIANGLE_SVG } })
    const bareOption = await post({
      image: null,
      options: [{ ...twoOptions[0], image: { svg: TRIANGLE_SVG } }, twoOptions[1]],
    })
    const noPicture = await post({ image: null })
    const listed = await send(headers, 'GET', '/api/admin/bank/questions/?no_description=true')
    expect(listed.status).toBe(200)
    expect(listed.body.results.map((row: { id: number }) => row.id).sort()).toEqual([bare, bareOption].sort())
    const all = await send(headers, 'GET', '/api/admin/bank/questions/')
    const flags = Object.fromEntries(
      all.body.results.map((row: { id: number; no_description: boolean }) => [row.id, row.no_description]),
    )
    expect(flags).toEqual({ [described]: false, [bare]: true, [bareOption]: true, [noPicture]: false })
    expect((await send(headers, 'GET', `/api/admin/bank/questions/${bare}/`)).body.no_description).toBe(true)
    const refused = await send(headers, 'GET', '/api/admin/bank/questions/?no_description=maybe')
    expect(refused.status).toBe(400)
    expect(refused.body.code).toBe('validation_error')
  })
})
