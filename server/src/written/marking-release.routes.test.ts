import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { storedTally } from '../../test/learner-api'
import { createMarker, handTo } from '../../test/marking'
import { requestsWithEmptyBodies } from '../../test/requests'
import { useTestApp } from '../../test/test-app'
import { writtenBody, writtenPaper } from '../../test/written-papers'
import { evaluateAnswer } from './marking'

describe.each(dialects)('releasing written marks on %s', (dialect) => {
  const t = useTestApp(dialect)
  const as = requestsWithEmptyBodies(t)

  const attemptOf = (id: number) =>
    t.db
      .selectFrom('attempts')
      .select(['score_hundredths', 'marks_pending'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()

  async function scene() {
    const paper = await writtenPaper(t)
    const stored = await paper.rubric('PUT', { items: [{ points: 7, title: { en: 'Complete' } }], revision: 0 })
    const item: number = stored.body.rubric.items[0].id
    const marker = await createMarker(t)
    const marking = `/api/admin/quizzes/${paper.quizId}/marking/`
    const mark = async (answerId: number) => {
      await handTo(t, answerId, marker.id)
      const response = await as(marker, 'PUT', `/api/admin/written-answers/${answerId}/evaluation/`, {
        items: [item],
        rubric_revision: 1,
      })
      expect(response.status).toBe(200)
    }
    /** A learner who sat the paper and answered nothing. */
    async function sitWithoutAnswer() {
      const user = await createUser(t.database)
      const started = await paper.as(user, 'GET', `/api/quizzes/${paper.quizId}/`)
      await paper.as(user, 'POST', `/api/quizzes/${paper.quizId}/submit/`, { answers: {} })
      return { user, attemptId: started.body.attempt.id as number }
    }
    return { ...paper, marker, marking, mark, sitWithoutAnswer }
  }

  it('releases marked answers, settles blank and missing ones at 0, makes complete attempts final and tells learners', async () => {
    const paper = await scene()
    const answered = await paper.sit()
    const unmarked = await paper.sit()
    const missing = await paper.sitWithoutAnswer()
    const blank = await paper.sitWithoutAnswer()
    // Submit gives every written question a row, a blank one here; an attempt submitted before it did has none.
    const blankId = (
      await t.db
        .selectFrom('written_answers')
        .select('id')
        .where('attempt_id', '=', blank.attemptId)
        .executeTakeFirstOrThrow()
    ).id
    await t.db.deleteFrom('written_answers').where('attempt_id', '=', missing.attemptId).execute()
    await paper.mark(answered.answerId)
    // A blank answer is not handed to markers.
    const next = `${paper.marking}${paper.questionId}/next/`
    expect((await as(paper.marker, 'POST', next)).body.answer_id).toBe(unmarked.answerId)
    expect((await as(await createMarker(t), 'POST', next)).status).toBe(204)
    expect(await storedTally(t.db, paper.quizId)).toEqual([])
    const before = (await attemptOf(answered.attemptId)).score_hundredths
    // A live mock's board, as its end wrote it while every attempt was pending.
    await t.db
      .insertInto('leaderboard_snapshots')
      .values({
        quiz_id: paper.quizId,
        starts_at: 0,
        participants: 0,
        top: '[]',
        top_cutoff: null,
        taken_at: 0,
        due_at: null,
      })
      .execute()
    const none = (await attemptOf(missing.attemptId)).score_hundredths

    // No body is all the quiz's written questions.
    const released = await as(paper.marker, 'POST', `${paper.marking}release/`)
    expect(released).toMatchObject({ status: 200, body: { released: 1 } })
    expect(await attemptOf(answered.attemptId)).toEqual({ score_hundredths: before! + 700, marks_pending: 0 })
    expect(await attemptOf(missing.attemptId)).toEqual({ score_hundredths: none, marks_pending: 0 })
    expect(await attemptOf(blank.attemptId)).toEqual({ score_hundredths: none, marks_pending: 0 })
    expect((await attemptOf(unmarked.attemptId)).marks_pending).toBe(1)
    const rows = await t.db
      .selectFrom('written_answers')
      .select(['id', 'status', 'score_hundredths'])
      .where('attempt_id', 'in', [missing.attemptId, blank.attemptId])
      .orderBy('attempt_id')
      .execute()
    expect(rows.map(({ status, score_hundredths }) => ({ status, score_hundredths }))).toEqual([
      { status: 'released', score_hundredths: 0 },
      { status: 'released', score_hundredths: 0 },
    ])
    expect(rows[1]!.id).toBe(blankId)
    expect(await storedTally(t.db, paper.quizId)).toEqual([
      { score_hundredths: none, learners: 2 },
      { score_hundredths: before! + 700, learners: 1 },
    ])
    const board = await t.db
      .selectFrom('leaderboard_snapshots')
      .select(['participants', 'top'])
      .where('quiz_id', '=', paper.quizId)
      .executeTakeFirstOrThrow()
    expect(board.participants).toBe(3)
    expect(JSON.parse(board.top)[0]).toMatchObject({
      rank: 1,
      user_id: answered.user.id,
      score_hundredths: before! + 700,
    })
    const told = await t.db
      .selectFrom('notifications')
      .select(['user_id', 'text_en', 'text_ne', 'link'])
      .where('kind', '=', 'written_marked')
      .execute()
    expect(told.map((row) => row.user_id).sort()).toEqual(
      [answered.user.id, missing.user.id, blank.user.id].sort((a, b) => a - b),
    )
    expect(told[0]!.text_en).toContain('marked')
    expect(told[0]!.text_ne).toContain('जाँचिए')
    // Each opens the learner's report at the written answer (the report scrolls to it).
    expect(told.map((row) => row.link).sort()).toEqual(
      [answered, missing, blank].map(({ attemptId }) => `/results/${attemptId}#written-${paper.questionId}`).sort(),
    )
    const trail = await t.db.selectFrom('audit_events').selectAll().where('action', '=', 'release').execute()
    expect(trail).toHaveLength(1)
    expect(JSON.parse(trail[0]!.after_json!)).toMatchObject({ question_ids: [paper.questionId], released: 1 })

    // Released twice, nothing is added twice; the overview counts what is where.
    expect((await as(paper.marker, 'POST', `${paper.marking}release/`, {})).body).toEqual({ released: 0 })
    expect((await attemptOf(answered.attemptId)).score_hundredths).toBe(before! + 700)
    expect((await as(paper.marker, 'GET', paper.marking)).body.questions[0]).toMatchObject({
      submitted: 4,
      marked: 0,
      released: 3,
      claimed: 1,
    })

    // The last answer marked and released: its attempt becomes final too.
    await paper.mark(unmarked.answerId)
    expect(
      (await as(paper.marker, 'POST', `${paper.marking}release/`, { question_ids: [paper.questionId] })).body,
    ).toEqual({
      released: 1,
    })
    expect(await attemptOf(unmarked.attemptId)).toEqual({ score_hundredths: before! + 700, marks_pending: 0 })
  })

  it("links each learner's notification to the first written question released now, in the paper's order", async () => {
    const admin = await createUser(t.database, { is_admin: 1 })
    const created = await as(admin, 'POST', '/api/quizzes/create-from-json/', {
      title: { en: 'Two written questions' },
      questions: [writtenBody({ text: { en: 'First' } }), writtenBody({ text: { en: 'Second' } })],
    })
    const quizId: number = created.body.quiz_id
    const [first, second] = (await as(admin, 'GET', `/api/admin/quizzes/${quizId}/`)).body.questions.map(
      (question: { id: number }) => question.id,
    ) as [number, number]
    const sit = async () => {
      const user = await createUser(t.database)
      const attemptId: number = (await as(user, 'GET', `/api/quizzes/${quizId}/`)).body.attempt.id
      for (const questionId of [first, second])
        await as(user, 'PUT', `/api/attempts/${attemptId}/written/${questionId}/text/`, { text: 'An answer' })
      await as(user, 'POST', `/api/quizzes/${quizId}/submit/`, { answers: {} })
      const answers = await t.db
        .selectFrom('written_answers')
        .select('id')
        .where('attempt_id', '=', attemptId)
        .execute()
      for (const { id } of answers)
        await t.database.transaction((trx) =>
          evaluateAnswer(trx, id, { items: [], adjustment: 100, comment: null }, admin.id, t.clock.now()),
        )
      return { user, attemptId }
    }
    const linksOf = async (userId: number) =>
      (
        await t.db
          .selectFrom('notifications')
          .select('link')
          .where('user_id', '=', userId)
          .where('kind', '=', 'written_marked')
          .orderBy('id')
          .execute()
      ).map((row) => row.link)
    const release = (questionIds: number[]) =>
      as(admin, 'POST', `/api/admin/quizzes/${quizId}/marking/release/`, { question_ids: questionIds })

    // The second question alone: its answer is the one to open.
    const early = await sit()
    expect((await release([second])).body.released).toBe(1)
    expect(await linksOf(early.user.id)).toEqual([`/results/${early.attemptId}#written-${second}`])
    // Both at once, listed second first: the paper's first comes first. The early learner gets their first now.
    const late = await sit()
    expect((await release([second, first])).body.released).toBe(3)
    expect(await linksOf(late.user.id)).toEqual([`/results/${late.attemptId}#written-${first}`])
    expect(await linksOf(early.user.id)).toEqual([
      `/results/${early.attemptId}#written-${second}`,
      `/results/${early.attemptId}#written-${first}`,
    ])
  })

  it('refuses a question that is not a written one of the quiz, an unknown quiz and a learner', async () => {
    const paper = await scene()
    const bad = await as(paper.marker, 'POST', `${paper.marking}release/`, { question_ids: [paper.choiceId] })
    expect(bad.status).toBe(400)
    expect(bad.body.errors).toHaveProperty('question_ids.0')
    expect((await as(paper.marker, 'POST', `${paper.marking}release/`, { question_ids: 'all' })).status).toBe(400)
    expect((await as(paper.marker, 'POST', '/api/admin/quizzes/999999/marking/release/', {})).status).toBe(404)
    expect((await as(await createUser(t.database), 'POST', `${paper.marking}release/`, {})).status).toBe(403)
  })
})
