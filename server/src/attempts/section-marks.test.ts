import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser } from '../../test/factories'
import { openQuiz, requestsAs } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'

// API.md "Papers": each question scores its section's marks, exact to 2 decimals; submit, report card, analysis,
// progress, statistics and CSV follow them.
describe.each(dialects)('section marks on %s', (dialect) => {
  const t = useTestApp(dialect)
  const call = requestsAs(t)

  /** Five questions: the first three in a section marked 2 / 0.4, the last two in one marked 1 / 0.25. */
  async function twoSectionQuiz() {
    const made = await openQuiz(t, {}, { questionCount: 5 })
    const [first] = await t.db.selectFrom('paper_sections').select('id').where('quiz_id', '=', made.quiz.id).execute()
    await t.db
      .updateTable('paper_sections')
      .set({ marks_correct: 200, marks_wrong: 40, title_en: 'Loksewa', title_ne: 'लोकसेवा' })
      .where('id', '=', first!.id)
      .execute()
    const second = await t.db
      .insertInto('paper_sections')
      .values({
        quiz_id: made.quiz.id,
        position: 2,
        title_en: 'MECEE',
        marks_correct: 100,
        marks_wrong: 25,
        time_limit_minutes: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await t.db
      .updateTable('paper_items')
      .set({ section_id: second.id })
      .where('question_id', 'in', made.questionIds.slice(3))
      .execute()
    return made
  }

  it('scores a paper marked 2 / 0.4 and 1 / 0.25 exactly, in the submit, the report card and progress', async () => {
    const { quiz, questionIds: q, correctOptionIds: right, wrongOptionIds: wrong } = await twoSectionQuiz()
    const user = await createUser(t.database)
    // Right, wrong, unanswered in the first section; wrong, wrong in the second: 2 - 0.4 - 0.25 - 0.25 = 1.1.
    const answers = { [q[0]!]: right[0], [q[1]!]: wrong[1], [q[3]!]: wrong[3], [q[4]!]: wrong[4] }
    const submitted = await call(user, 'POST', `/api/quizzes/${quiz.id}/submit/`, { answers })
    expect(submitted.status).toBe(200)
    expect(submitted.body).toMatchObject({ score: 1.1, correct: 1, incorrect: 3, unanswered: 1, max_score: 8 })
    expect(submitted.raw).toContain('"score":1.1,')
    const sections = [
      { title: { en: 'Loksewa', ne: 'लोकसेवा' }, score: 1.6, max_score: 6, correct: 1, incorrect: 1, unanswered: 1 },
      { title: { en: 'MECEE', ne: '' }, score: -0.5, max_score: 2, correct: 0, incorrect: 2, unanswered: 0 },
    ]
    expect(submitted.body.sections).toEqual(sections)

    const report = (await call(user, 'GET', `/api/results/${submitted.body.attempt_id}/`)).body
    expect(report).toMatchObject({ score: 1.1, max_score: 8, sections })
    // The marks lost: 0.4 + 0.25 + 0.25, not 0.2 a wrong answer.
    expect(report.analysis.negative_marks).toBe(0.9)
    expect(report.analysis.topics).toEqual([{ topic: 'general', correct: 1, incorrect: 3, unanswered: 1, score: 1.1 }])

    const progress = (await call(user, 'GET', '/api/results/progress/')).body
    expect(progress.attempts[0]).toMatchObject({ score: 1.1, max_score: 8 })
  })

  it('scores item statistics and the CSV with the section marks', async () => {
    const { quiz, questionIds: q, correctOptionIds: right, wrongOptionIds: wrong } = await twoSectionQuiz()
    const [a, b] = [await createUser(t.database), await createUser(t.database)]
    // a: all right = 2+2+2+1+1 = 8; b: q1 right, q4 wrong, others unanswered = 2 - 0.25 = 1.75.
    await call(a, 'POST', `/api/quizzes/${quiz.id}/submit/`, {
      answers: Object.fromEntries(q.map((id, i) => [id, right[i]])),
    })
    await call(b, 'POST', `/api/quizzes/${quiz.id}/submit/`, { answers: { [q[0]!]: right[0], [q[3]!]: wrong[3] } })
    const headers = await bearerFor(t.tokens, await createUser(t.database, { is_admin: 1 }))
    const statistics = (
      await t.app.inject({ method: 'GET', url: `/api/admin/quizzes/${quiz.id}/statistics/`, headers })
    ).json()
    expect(statistics).toMatchObject({ attempts: 2, mean: 4.88, highest: 8, lowest: 1.75 })
    // Item scores of q4 are 1 and -0.25, of the rest 2 and 0 (or 2 and 2 for q1): the rest scores are 7 and 2, so
    // q4 discriminates perfectly (two attempts: correlation 1); q1 has no variance (null).
    const q4 = statistics.questions.find((question: { id: number }) => question.id === q[3])
    expect(q4).toMatchObject({ facility: 0.5, discrimination: 1 })
    const q1 = statistics.questions.find((question: { id: number }) => question.id === q[0])
    expect(q1).toMatchObject({ facility: 1, discrimination: null })

    const csv = await t.app.inject({ method: 'GET', url: `/api/admin/quizzes/${quiz.id}/attempts.csv`, headers })
    const rows = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
    expect(rows.slice(1).map((row) => row.split(',')[5])).toEqual(['8', '1.75'])
  })
})
